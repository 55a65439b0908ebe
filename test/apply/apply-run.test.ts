// The run-level orchestration the CLI and the controller share (src/apply/apply-run.ts),
// called as a library caller would: against the emulator over real HTTP.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { applyBrand, type ApplyBrandOptions } from '../../src/apply/apply-run.js';
import { acquireBrandLock, lockPath } from '../../src/apply/lock.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { DesiredBrand } from '../../src/manifest/types.js';
import { BRAND, clientFor, emulator, EXAMPLE, load } from '../e2e/helpers.js';

describe('applyBrand', () => {
  let emu: RunningEmulator;
  let client: RcsClient;
  let desired: DesiredBrand;
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-apply-run-'));
  const opts = (over: Partial<ApplyBrandOptions> = {}): ApplyBrandOptions => ({
    concurrency: 4,
    allowDelete: false,
    allowReview: true,
    lock: { dir, timeoutMs: 0, baseUrl: emu.url, command: 'test' },
    ...over,
  });

  beforeAll(async () => {
    emu = await emulator();
    client = clientFor(emu);
    desired = (await load(EXAMPLE)).find((b) => b.brandId === BRAND)!;
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a brand another run holds (E_LOCKED), sending nothing, and leaves that lock alone', async () => {
    const held = await acquireBrandLock(BRAND, { dir, timeoutMs: 0, baseUrl: emu.url, command: 'apply' });
    try {
      await expect(applyBrand(client, desired, opts())).rejects.toMatchObject({ code: 'E_LOCKED' });
      expect(existsSync(held.path)).toBe(true);
    } finally {
      held.release();
    }
  });

  it('applies, tells each outcome, releases its lock; the next run has nothing to do', async () => {
    const told: string[] = [];
    const first = await applyBrand(client, desired, opts({ events: { outcome: (o) => told.push(`${o.brandId} ${o.status}`) } }));
    expect(first.status).toBe('applied');
    expect(told).toEqual([`${BRAND} verified`]);
    expect(first.planned.map((p) => p.plan.brandId)).toEqual([BRAND]);
    expect(existsSync(lockPath(dir, emu.url, BRAND))).toBe(false);
    const second = await applyBrand(client, desired, opts());
    expect(second.status).toBe('nothing');
    expect(second.runs[0]?.plan.steps).toEqual([]);
  });

  it('an aborted signal stops before any step is sent', async () => {
    let first: string | undefined;
    for await (const item of client.autoReplies.list({ id: BRAND })) first ??= item.autoReplyMsgId;
    await client.autoReplies.delete({ id: BRAND }, first!);
    const run = await applyBrand(client, desired, opts({ signal: AbortSignal.abort('shutdown') }));
    expect(run.status).toBe('interrupted');
    expect(run.before).toBe(true);
    expect(run.runs[0]?.plan.steps.length).toBeGreaterThan(0);
    expect(existsSync(lockPath(dir, emu.url, BRAND))).toBe(false);
  });
});
