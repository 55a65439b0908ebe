// A 429 is not a failure (issue 35 §1): with a fixed --concurrency, four CI
// shards sharing one account's rate limit all converge, and so does a run
// where a share of the requests is answered 429 at random (a "429 storm",
// the emulator's fault rules). A 429 is tried again after its Retry-After
// until the request's rate-limit deadline, whatever the concurrency setting,
// and the pace adapts: the number in flight is a ceiling, not a promise.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import type { PlanFile } from '../../src/plan/types.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { admin, cli, TOKEN } from './helpers.js';

const IDS = Array.from({ length: 16 }, (_, i) => `BR.rlfix${String(i + 1).padStart(5, '0')}`);
const SHARDS = ['1/4', '2/4', '3/4', '4/4'];
/** The account's limit, requests a second: far below four shards of 8 in flight each. */
const RATE = 10;
/** Auto-replies a brand. */
const REPLIES = Array.from({ length: 6 }, (_, i) => i + 1);

let dir: string;
let emu: RunningEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-ratelimit-fixed-'));
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    const replies = REPLIES.map((n) => `  r${n}: { name: "Reply ${n}", messagebaseId: SCS00000, body: { description: "Reply ${n} of ${id}" } }\n`).join('');
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${replies}`);
  }
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  // A round trip of 20 ms, as over a network.
  emu = await startEmulator({ port: 0, seed, latencyMs: 20 });
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The plan of every brand of `ids` is empty: everything was applied. */
async function converged(ids: readonly string[]): Promise<void> {
  await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
  await admin(emu, 'DELETE', 'faults');
  const plan = await cli(['plan', 'brands', '--json'], { emu, cwd: dir });
  expect(plan.code, plan.stderr).toBe(0);
  const brands = (JSON.parse(plan.stdout) as PlanFile).brands.filter((b) => ids.includes(b.brandId));
  expect(brands).toHaveLength(ids.length);
  for (const b of brands) expect(b.steps, b.brandId).toEqual([]);
}

describe('a fixed --concurrency under a rate limit', () => {
  it(`four shards at --concurrency 8 against ${RATE} req/s: every shard applies every brand`, { timeout: 120_000 }, async () => {
    await admin(emu, 'POST', 'rate-limit', { perSecond: RATE });
    const runs = await Promise.all(SHARDS.map((s) => cli(['apply', 'brands', '--shard', s, '--concurrency', '8', '--yes'], { emu, cwd: dir })));
    for (const [i, r] of runs.entries()) expect(r.code, `shard ${SHARDS[i]}: ${r.stderr}`).toBe(0);
    const { limited } = (await admin(emu, 'GET', 'rate-limit')) as { allowed: number; limited: number };
    // The limit was met (else this test says nothing).
    expect(limited).toBeGreaterThan(0);
    await converged(IDS);
  });

  it.each([0.05, 0.3])('%s of the requests answered 429 at random: the run is slower, no brand fails', { timeout: 120_000 }, async (rate) => {
    // Two brands, one reply each: a storm cuts the pace deep (to about a request a second at 30%), and the run is slow.
    const few = IDS.slice(0, 2);
    for (const concurrency of ['8', 'auto']) {
      // The reply's text changes: an update a brand, besides the reads.
      for (const id of few) {
        const replies = [1].map((n) => `  r${n}: { name: "Reply ${n}", messagebaseId: SCS00000, body: { description: "Reply ${n} of ${id} at ${rate}, ${concurrency}" } }\n`).join('');
        writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${replies}`);
      }
      await admin(emu, 'POST', 'faults', { seed: 35, rules: [{ kind: 'rate-limit', rate, retryAfter: 1 }] });
      const started = Date.now();
      const r = await cli(['apply', 'brands', ...few.flatMap((id) => ['--brand', id]), '--concurrency', concurrency, '--yes'], { emu, cwd: dir, env: { RCSCTL_DEBUG: 'limiter' } });
      expect(r.code, `--concurrency ${concurrency}: ${r.stderr}`).toBe(0);
      // The storm hit (else this test says nothing).
      const refused = Number(/, (\d+) answered 429$/m.exec(r.stderr)?.[1]);
      expect(refused, r.stderr).toBeGreaterThan(0);
      await converged(few);
    }
  });
});
