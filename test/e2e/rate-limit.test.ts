// Adaptive concurrency against a rate-limited emulator: `--concurrency auto`
// finds the limit (few 429s, counted by the emulator) and apply and plan still
// end where they should. The figures at scale are in bench/ratelimit.ts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli } from './helpers.js';

const RATE = 20;
let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  // A round trip of 50 ms, as over a network: one request at a time stays just under the limit.
  emu = await startEmulator({ port: 0, latencyMs: 50, rateLimit: RATE });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-ratelimit-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A brand with `n` auto-replies. */
function manifests(n: number, text = ''): string {
  const d = join(dir, `brand-${n}${text}`);
  mkdirSync(d, { recursive: true });
  const replies = Array.from({ length: n }, (_, i) => `  r${i + 1}:\n    name: "Reply ${i + 1}"\n    messagebaseId: SCS00000\n    body: { description: "Reply ${i + 1}${text}" }\n`).join('');
  writeFileSync(join(d, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${replies}`);
  return d;
}

/** The emulator's counts since the limit was last set. */
async function counts(): Promise<{ allowed: number; limited: number }> {
  return admin(emu, 'GET', 'rate-limit');
}

describe('--concurrency auto against a rate limit of 20 requests a second', () => {
  it('apply converges, then plan is empty, with few requests refused', async () => {
    const path = manifests(100);
    await admin(emu, 'POST', 'rate-limit', { perSecond: RATE });
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    const applied = await cli(['apply', path, '--yes', '--concurrency', 'auto'], { emu }).finally(() => process.off('warning', onWarning));
    expect(applied.stderr).toBe('');
    // Up to 32 steps in flight each listen for an interrupt: no listener-leak warning.
    expect(warnings.map((w) => w.message)).toEqual([]);
    expect(applied.code).toBe(0);
    const planned = await cli(['plan', path, '--concurrency', 'auto', '--json'], { emu });
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as { brands: { steps: unknown[] }[] };
    expect(plan.brands[0]?.steps).toEqual([]);
    const { allowed, limited } = await counts();
    // Finding the limit costs a burst of 429s at the start (the service's burst
    // allowance hides it at first); after that, about one per Retry-After pause.
    expect(allowed).toBeGreaterThan(200);
    expect(limited / (allowed + limited)).toBeLessThan(0.1);
  });

  it('a fixed --concurrency 8 is paced by the 429s too (a ceiling, not a promise): the updates converge with few refused (issue 35)', async () => {
    // The same 100 replies, every text changed: 100 updates.
    const path = manifests(100, 'again');
    await admin(emu, 'POST', 'rate-limit', { perSecond: RATE });
    const applied = await cli(['apply', path, '--yes', '--concurrency', '8'], { emu });
    expect(applied.code, applied.stderr).toBe(0);
    const { allowed, limited } = await counts();
    expect(allowed).toBeGreaterThan(100);
    // Unpaced, eight in flight at 50 ms a round trip is 160 a second against 20: most were refused.
    expect(limited / (allowed + limited)).toBeLessThan(0.1);
    const planned = await cli(['plan', path, '--concurrency', '8', '--json'], { emu });
    expect((JSON.parse(planned.stdout) as { brands: { steps: unknown[] }[] }).brands[0]?.steps).toEqual([]);
  });
});
