// CI shards of one account, each its own limiter with nothing shared, through
// the emulator's token bucket on a simulated clock (test/api/shard-model.ts):
// each must find its share from 429s alone. Simulated time, seeded jitter:
// the same figures every run. bench/ratelimit.ts (`shards`) measures the
// same with real processes.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Limiter } from '../../src/api/limiter.js';
import { mulberry32 } from '../../src/emulator/faults.js';
import { runModel, type ModelResult } from './shard-model.js';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * `clients` limiters sharing `perSecond` for about `seconds` of work, started `apartMs` apart
 * (150 ms unless told); with `weights`, shard i holds weights[i] times an even share of the work
 * (the benchmark splits brands by a hash of their id, so its shards do not hold the same number).
 * `limiters` collects them, for their stats.
 */
async function shards(clients: number, perSecond: number, seconds: number, seed = 1, weights?: number[], apartMs = 150, limiters: Limiter[] = []): Promise<ModelResult> {
  vi.useFakeTimers();
  const even = (perSecond * seconds) / clients;
  const requests = weights === undefined ? Math.round(even) : weights.map((w) => Math.round(w * even));
  const startsMs = Array.from({ length: clients }, (_, i) => i * apartMs);
  // Each knows it is one of `clients` (`--shard i/n`), as the CLI tells its limiter.
  return runModel({ clients, perSecond, requests, latencyMs: 20, startsMs }, (i) => {
    const l = new Limiter({ mode: 'auto', max: 32, peers: clients }, () => Date.now(), undefined, mulberry32(seed * 100 + i));
    limiters.push(l);
    return l;
  });
}

const share429 = (r: ModelResult): number => r.limited / (r.accepted + r.limited);

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

describe('four shards of one account, nothing shared', () => {
  for (const [perSecond, seeds] of [
    // The model is chaotic (one jitter draw changes which shard a 429 finds): nine seeds at 40.
    [40, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [200, [1, 2, 3]],
    [1000, [1]],
  ] as const) {
    it(`at ${perSecond} req/s they use at least 0.95 of the limit together, with few 429s (median of ${seeds.length} seeds)`, async () => {
      const runs: ModelResult[] = [];
      for (const seed of seeds) {
        runs.push(await shards(4, perSecond, 30, seed));
        vi.useRealTimers();
      }
      // 0.9 is the target; the model gives 0.96–1.0. At 40 req/s it gave 0.93 while the pace's
      // growth sped up to four times at most, and 0.92 with the shards' shared ramp as well: the last
      // shard, alone, took 8 s to find the limit again.
      expect(median(runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.95);
      // The target is 3%. Many 429s come in the first second, while the shards find the
      // limit from nothing: each has requests in flight when the allowance runs out, and each
      // ramping up on its own they had twice as many (3.2% at 40 req/s; 4.2% while the first 429
      // set the pace from the burst's rate). Ramping as one share of four: 2.2%; with the
      // pace's faster growth that takes up a finished shard's share, 2.5%.
      expect(median(runs.map(share429))).toBeLessThanOrEqual(0.028);
    }, 60_000);
  }

  it('on a short run, as an agency\'s 40-brand plan is (10 s of work), at 40 req/s they still use at least 0.9 of the limit (issue 38)', async () => {
    const runs: ModelResult[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      runs.push(await shards(4, 40, 10, seed));
      vi.useRealTimers();
    }
    // 0.83 in every seed while a shard joining the spent account was cut again within its first
    // Retry-After (its slow start ended at a pace of 1.3 a second, and it finished alone 6 s after
    // the others); 0.92–0.94 now.
    expect(median(runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.9);
    expect(Math.min(...runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('starting together at 200 req/s on 11 s of work (the 40-brand agency), they use at least 0.9 of the limit: a 429 their shared limit sent is not taken for chance (issue 38)', async () => {
    const runs: ModelResult[] = [];
    let undone = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const limiters: Limiter[] = [];
      runs.push(await shards(4, 200, 11, seed, undefined, 0, limiters));
      vi.useRealTimers();
      undone += limiters.reduce((n, l) => n + l.stats.paceUndos, 0);
    }
    // 0.80–0.81 in every seed (45 first paces undone in all) while a shard's first pace was undone
    // when at most a quarter of the requests in flight with its 429 were refused: the shards ramp up
    // so as to send little over the limit they share, and it refused 1 of 5. That shard sent on
    // unpaced, undone again and again, kept the bucket empty, and its three neighbours were halved on
    // each 429 (48, 24, 12, 6 a second within 0.2 s) and finished long after it. 0.68–1.02 now, median 0.95.
    expect(median(runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.9);
    expect(undone).toBe(0);
    expect(median(runs.map(share429))).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('shards holding 0.72 to 1.13 of an even share (as the hash split gives) still use 0.95 of the limit at 40 req/s', async () => {
    const runs: ModelResult[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      runs.push(await shards(4, 40, 30, seed, [0.72, 1.13, 0.75, 1.12]));
      vi.useRealTimers();
    }
    // The shards with fewer requests finish first; the others take up their share.
    // 0.92 with the slower growth, 0.97 now.
    expect(median(runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.95);
    // 3.0% while each shard ramped up on its own.
    expect(median(runs.map(share429))).toBeLessThanOrEqual(0.028);
  }, 60_000);

  it('after the first seconds, 429s stay under 3% of the requests, and every shard gets a pace', async () => {
    vi.useFakeTimers();
    const limiters: Limiter[] = [];
    const marks: { accepted: number; limited: number }[] = [];
    await runModel({ clients: 4, perSecond: 40, requests: 300, latencyMs: 20, startsMs: [0, 150, 300, 450], onSecond: (c) => marks.push({ ...c }) }, (i) => {
      const l = new Limiter({ mode: 'auto', max: 32, peers: 4 }, () => Date.now(), undefined, mulberry32(i + 7));
      limiters.push(l);
      return l;
    });
    const at3 = marks[2] as { accepted: number; limited: number };
    const end = marks[marks.length - 1] as { accepted: number; limited: number };
    const later = (end.limited - at3.limited) / (end.accepted - at3.accepted + end.limited - at3.limited);
    expect(later).toBeLessThanOrEqual(0.03);
    for (const l of limiters) expect(l.stats.paceCuts).toBeGreaterThan(0);
  }, 60_000);

  it('as the benchmark sees them (processes 0 to 0.75 s apart, the hash split\'s shares, the first second\'s burst not counted), at 200 req/s on 11 s of work they use 0.78 of the limit or more (median of 25 seeds; the issue asks 0.90, not reached) (issue 38)', async () => {
    // bench/ratelimit.ts's 40-brand agency at 200 req/s: real processes start 0.2–0.7 s apart, hold
    // 0.72–1.13 of an even share, and the benchmark takes the bucket's first second out of its
    // figure. The other cases start the shards 150 ms apart in order and count the burst, and gave
    // 0.95 where the benchmark measured 0.76–0.89. Here the model gives the benchmark's figure:
    // 0.81 (quartile 0.72, least 0.54). Every rule tried to raise it (docs/decisions.md, "Shards
    // that finish together", second entry) moved the median by no more than the seeds' spread, or
    // cost more than 3% of requests answered 429 at 40 req/s. This records where it stands.
    const runs: ModelResult[] = [];
    for (let seed = 1; seed <= 25; seed++) {
      vi.useFakeTimers();
      const draw = mulberry32(1000 + seed);
      const startsMs = [0, draw() * 750, draw() * 750, draw() * 750].sort((a, b) => a - b).map(Math.round);
      const weights = [0.72, 1.13, 0.75, 1.12].sort(() => draw() - 0.5);
      const even = (200 * 11) / 4;
      runs.push(
        await runModel({ clients: 4, perSecond: 200, requests: weights.map((w) => Math.round(w * even)), latencyMs: 20, startsMs }, (i) =>
          new Limiter({ mode: 'auto', max: 32, peers: 4 }, () => Date.now(), undefined, mulberry32(seed * 100 + i)),
        ),
      );
      vi.useRealTimers();
    }
    expect(median(runs.map((r) => r.benchShare))).toBeGreaterThanOrEqual(0.78);
    expect(median(runs.map(share429))).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('one shard alone does as well: the same limiter serves an unsharded run', async () => {
    const r = await shards(1, 200, 30);
    expect(r.share).toBeGreaterThanOrEqual(0.95);
    expect(share429(r)).toBeLessThanOrEqual(0.02);
  }, 60_000);
});
