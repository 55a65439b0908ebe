// The live cache through the CLI: on by default in the per-user cache directory
// ($XDG_CACHE_HOME/rcsctl, else ~/.cache/rcsctl), used by plan and by apply, off
// with --no-cache.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cacheDirFor } from '../../src/kinds/live-cache.js';
import { admin, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '026-example-brand-after-apply');
const MANIFESTS = join(CASE, 'manifests');

let emu: RunningEmulator;
let home: string;
beforeAll(async () => {
  emu = await emulator(join(CASE, 'seed.yaml'));
  home = mkdtempSync(join(tmpdir(), 'rcsctl-cache-home-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(home, { recursive: true, force: true });
});

const detailReads = async (): Promise<number> => {
  const log = (await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
  await admin(emu, 'DELETE', 'requests');
  return log.requests.filter((r) => r.method === 'GET' && /\/autoreplymsg\/ARM/.test(r.path)).length;
};

describe('the live cache from the CLI', () => {
  it('is kept under $XDG_CACHE_HOME/rcsctl by default; a repeat plan and a no-op apply read no auto-reply detail', async () => {
    const env = { XDG_CACHE_HOME: join(home, 'xdg') };
    await admin(emu, 'DELETE', 'requests');
    expect((await cli(['plan', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(6);
    expect(readdirSync(join(home, 'xdg', 'rcsctl'))).toHaveLength(1);
    expect((await cli(['plan', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(0);
    const noop = await cli(['apply', '--yes', MANIFESTS], { emu, env });
    expect(noop.stdout).toContain('Nothing to apply');
    expect(await detailReads()).toBe(0);
  });

  it('--no-cache reads every detail and writes nothing', async () => {
    const env = { XDG_CACHE_HOME: join(home, 'none') };
    expect((await cli(['plan', '--no-cache', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(6);
    expect(() => readdirSync(join(home, 'none'))).toThrow();
  });

  it('finds its directory: the flag, RCSCTL_CACHE_DIR, XDG_CACHE_HOME, then HOME', () => {
    expect(cacheDirFor({ cacheDir: 'c' }, { RCSCTL_CACHE_DIR: '/x' }, '/w')).toBe('/w/c');
    expect(cacheDirFor({}, { RCSCTL_CACHE_DIR: 'rel', XDG_CACHE_HOME: '/xdg' }, '/w')).toBe('/w/rel');
    expect(cacheDirFor({}, { XDG_CACHE_HOME: '/xdg', HOME: '/h' }, '/w')).toBe('/xdg/rcsctl');
    expect(cacheDirFor({}, { XDG_CACHE_HOME: 'relative', HOME: '/h' }, '/w')).toBe('/h/.cache/rcsctl');
    expect(cacheDirFor({ cache: false, cacheDir: 'c' }, { HOME: '/h' }, '/w')).toBeUndefined();
    // An environment that names no home (as tests pass to the in-process CLI) keeps no cache.
    expect(cacheDirFor({}, {}, '/w')).toBeUndefined();
  });
});
