// docs/getting-started.md, "1. Install": rcsctl is not on the npm registry, so
// the guide installs it from a clone (`npm install`, `npm link`) and every
// later command is typed as a bare `rcsctl` (issue 35 §4: step 1 was
// `npm install --save-dev rcsctl`, which fails, and `rcsctl` was not on PATH
// in a clone). Here a fresh `git clone` of this repository runs the section's
// block exactly as written, then section 2's, in one shell whose PATH holds
// npm's global bin folder (a prefix of its own, so nothing global is touched).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const DOC = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-install-'));
// The clone holds a full copy of node_modules: removing it takes longer than a hook's default 30 s on a busy disk.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 180_000);

/** The first sh block of the section whose heading starts with `## N.`. */
function firstBlock(n: number): string {
  const start = DOC.indexOf(`\n## ${n}. `);
  expect(start, `section ${n}`).toBeGreaterThan(-1);
  const m = /```sh\n([\s\S]*?)```/.exec(DOC.slice(start));
  if (m === null) throw new Error(`no sh block in section ${n}`);
  return m[1] as string;
}

describe('getting started: install from a clone', () => {
  it('npm install and npm link in a fresh clone put rcsctl on PATH; the guide\'s bare rcsctl commands then run', () => {
    const install = firstBlock(1);
    expect(install).toMatch(/^npm install\b/m);
    expect(install).not.toContain('--save-dev');
    const clone = join(dir, 'rcsctl');
    execFileSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'pipe' });
    // The download npm install would make, copied from this checkout's node_modules (npm finds it up to
    // date and builds dist/ in the clone), so the test needs no network. A real copy (copy-on-write where
    // the file system can), never hard links: npm rewrites files of node_modules in place, and would
    // write through them into this checkout's.
    execFileSync('cp', ['-a', '--reflink=auto', join(ROOT, 'node_modules'), join(clone, 'node_modules')]);
    const prefix = join(dir, 'npm-global');
    const env = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      HOME: dir,
      NO_COLOR: '1',
      npm_config_prefix: prefix,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const script = `set -euo pipefail\n${install}\n${firstBlock(2)}`;
    const out = execFileSync('bash', ['-c', script], { cwd: clone, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(out).toContain(`${version}\n`);
    expect(out).toContain('BR.demo000001: valid (');
    // The command on PATH is the link npm made to the clone.
    expect(execFileSync('bash', ['-c', 'command -v rcsctl'], { env, encoding: 'utf8' }).trim()).toBe(join(prefix, 'bin', 'rcsctl'));
  }, 300_000);
});
