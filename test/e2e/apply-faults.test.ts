// Convergence under faults: with connection resets, 503s and "commit, then drop
// the answer" injected at random (reproducibly, per seed), a first apply may
// fail, and a second one must converge: no duplicate auto-replies, no lost
// update, and a clean plan afterwards. Twenty fault seeds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator, EXAMPLE } from './helpers.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-faults-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  fault?: string;
}

/** Files of the demo brand that no auto-reply uses. */
function unusedFiles(): number {
  const brand = emu.store.brands.get(BRAND);
  if (brand === undefined) throw new Error('no demo brand');
  const used = new Set([...brand.autoReplies.values()].flatMap((a) => Object.entries(a.body).filter(([k]) => /^media\d*$/.test(k)).map(([, v]) => v)));
  return [...brand.files.keys()].filter((id) => !used.has(id)).length;
}

describe('apply converges after faults', () => {
  it.each(SEEDS)('fault seed %i', async (seed) => {
    await admin(emu, 'POST', 'reset');
    await admin(emu, 'POST', 'faults', {
      seed,
      rules: [
        { kind: 'reset', rate: 0.06 },
        { kind: 'error', status: 503, rate: 0.06 },
        { kind: 'drop-after-commit', rate: 0.12 },
      ],
    });
    const first = await cli(['apply', EXAMPLE, '--yes', '--allow-review'], { emu, env: { RCSCTL_TOKEN: 'emulator-master-token', RCSCTL_BASE_URL: emu.url } });
    expect([0, 1]).toContain(first.code);
    const firstRun = ((await admin(emu, 'GET', 'requests')) as { requests: LoggedRequest[] }).requests;
    const faulted = firstRun.filter((r) => r.fault !== undefined);
    const firstRunUploads = firstRun.filter((r) => r.method === 'POST' && r.path.endsWith('/autoreplymsg/file')).length;
    expect(faulted.length).toBeGreaterThan(0);
    await admin(emu, 'DELETE', 'faults');
    const orphansAfterFirst = unusedFiles();

    const second = await cli(['apply', EXAMPLE, '--yes', '--allow-review'], { emu });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode'], { emu });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);

    const brand = emu.store.brands.get(BRAND);
    if (brand === undefined) throw new Error('no demo brand');
    const names = [...brand.autoReplies.values()].map((a) => a.autoReplyMsgName).sort();
    expect(names).toEqual(['Events', 'Location', 'Loyalty card', 'Opening hours', "Today's menu", 'Welcome']);
    expect([...brand.logos.values()].map((l) => l.name)).toEqual(['Coffee Co logo']);
    expect([...emu.store.agencyFiles.keys()]).toEqual(['BR.demo000001.spring']);

    // Files: every auto-reply uses one file per content. An unused copy can only
    // be left by the faulted first run: an upload whose answer was lost, or one
    // that landed while the auto-reply meant to use it failed (the service has
    // no file list, so the next run cannot find either and uploads again). The
    // fault-free second run leaves none: everything it uploads is used.
    const used = new Set([...brand.autoReplies.values()].flatMap((a) => Object.entries(a.body).filter(([k]) => /^media\d*$/.test(k)).map(([, v]) => v)));
    const usedNames = [...used].map((id) => brand.files.get(id)?.fileName);
    expect(new Set(usedNames).size).toBe(usedNames.length);
    expect(unusedFiles()).toBe(orphansAfterFirst);
    expect(orphansAfterFirst).toBeLessThanOrEqual(firstRunUploads);
  });
});
