// vitest globalSetup: tests that run the built CLI (bin/rcsctl.js, the demo
// script, the packed package of test/library.test.ts) need a dist/ as new as
// the sources. `npm test` builds first, so this finds dist/ current and does
// nothing; a single test file run directly (`npx vitest run test/x.test.ts`)
// after editing src/ gets a build here instead of testing stale code.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
/** What `npm run build` reads. */
const INPUTS = ['src', 'scripts', 'bench', 'schemas', 'tsconfig.json', 'package.json'];
/** Written by every build (tsc emits every file), so its time is the build's. */
const STAMP = join(ROOT, 'dist', 'src', 'cli', 'main.js');

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

/** Build when dist/ is missing or older than any input. */
export default function setup(): void {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const changed = INPUTS.map((p) => join(ROOT, p)).filter(existsSync).reduce((m, p) => Math.max(m, newest(p)), 0);
  if (changed <= built) return;
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`dist/ is older than the sources and \`npm run build\` failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
