// A run loads what it uses. The built CLI runs as its own process with a
// preload that records every module it loads (fixtures/record-modules.mjs);
// a clean plan (cold, then warm from the live cache) and a clean validate must
// not load the modules only some runs need: the yaml package (positions for a
// diagnostic), ajv's compiler (the manifest validator is precompiled), undici's
// package root (fetch, web sockets; a plan needs the Pool only), listr2 (the
// apply view), image-size (a manifest with images), es-hangul (export's
// handles for Korean names), the emulator, the preview,
// the graph, the Markdown view; and a warm plan, whose manifests come from the
// parse cache, does not load js-yaml or the precompiled schema validator
// either. An eager import fails here.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, ROOT, TOKEN } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '001-no-changes');
const RECORDER = join(ROOT, 'test', 'e2e', 'fixtures', 'record-modules.mjs');

/** Loaded only by the runs that need them. */
const LAZY: Record<string, string> = {
  'the yaml package': `${sep}node_modules${sep}yaml${sep}`,
  "ajv's compiler": join('node_modules', 'ajv', 'dist', 'ajv.js'),
  "undici's package root": join('node_modules', 'undici', 'index.js'),
  listr2: `${sep}node_modules${sep}listr2${sep}`,
  'image-size': `${sep}node_modules${sep}image-size${sep}`,
  'es-hangul (romanising Korean names for export)': `${sep}node_modules${sep}es-hangul${sep}`,
  'the emulator': join('dist', 'src', 'emulator') + sep,
  'the preview': join('dist', 'src', 'preview') + sep,
  'the graph': join('dist', 'src', 'graph') + sep,
  'the Markdown plan view': join('dist', 'src', 'render', 'plan-markdown.js'),
};

let emu: RunningEmulator;
let dir: string;
let manifest: string;
beforeAll(async () => {
  emu = await emulator(join(CASE, 'seed.yaml'));
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-lazy-'));
  manifest = join(dir, 'manifest.yaml');
  // One change, so the plan has a step to show.
  writeFileSync(manifest, readFileSync(join(CASE, 'manifest.yaml'), 'utf8').replace('Hello from Coffee Co', 'Hello again from Coffee Co'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Run the built CLI with the recorder; the modules it loaded, its exit code and
 * its output. Its stderr is returned for the assertions' messages, never
 * written to this process's own stderr: a run that fails on purpose (an
 * invalid manifest) printed a stray "1 error, 0 warnings" into `npm test`'s
 * output (issue 35).
 */
function loadedBy(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  const record = join(dir, `modules-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(record, '');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RECORDER, join(ROOT, 'bin', 'rcsctl.js'), ...argv], {
      env: { PATH: process.env.PATH ?? '', RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RECORD_MODULES: record },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr, modules: readFileSync(record, 'utf8').split('\n').filter((l) => l !== '') });
    });
  });
}

/** The names of the LAZY entries `modules` holds. */
function lazyIn(modules: string[]): string[] {
  return Object.entries(LAZY)
    .filter(([, part]) => modules.some((m) => m.includes(part)))
    .map(([name]) => name);
}

describe('a run loads what it uses', () => {
  it('a plan, cold and then warm from the live cache, loads none of the modules only some runs need', async () => {
    const cacheDir = join(dir, 'cache');
    for (const run of ['cold', 'warm']) {
      const { code, stdout, stderr, modules } = await loadedBy(['plan', manifest, '--cache-dir', cacheDir]);
      expect(code, `${run}: ${stderr}`).toBe(0);
      expect(stdout).toContain('Hello again from Coffee Co');
      // The recorder sees both module systems: commander is CommonJS, the CLI ES modules.
      expect(modules.some((m) => m.includes(join('node_modules', 'commander')))).toBe(true);
      expect(modules.some((m) => m.includes(join('dist', 'src', 'cli', 'main.js')))).toBe(true);
      expect(lazyIn(modules), run).toEqual([]);
      // The cold run parses the YAML and checks it against the schema; the warm
      // one reads what that parse made of it, which passed the schema then.
      expect(modules.some((m) => m.includes(`${sep}node_modules${sep}js-yaml${sep}`)), run).toBe(run === 'cold');
      expect(modules.some((m) => m.includes('manifest-validator.generated.js')), run).toBe(run === 'cold');
    }
  });

  it('a clean validate loads none of them either', async () => {
    const { code, stderr, modules } = await loadedBy(['validate', manifest]);
    expect(code, stderr).toBe(0);
    expect(lazyIn(modules)).toEqual([]);
  });

  it('the runs that need them load them: a diagnostic with a position loads the yaml package; --format markdown the Markdown view', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, readFileSync(manifest, 'utf8').replace('messagebaseId: SCS00000', 'messagebaseId: SCS00000\n    colour: blue'));
    const invalid = await loadedBy(['validate', bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('error RCS201: unknown key "colour"');
    expect(lazyIn(invalid.modules)).toContain('the yaml package');
    const markdown = await loadedBy(['plan', manifest, '--no-cache', '--format', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(lazyIn(markdown.modules)).toContain('the Markdown plan view');
  });
});
