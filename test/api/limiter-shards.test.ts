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

/** `clients` limiters sharing `perSecond` for about `seconds` of work, started 150 ms apart. */
async function shards(clients: number, perSecond: number, seconds: number, seed = 1): Promise<ModelResult> {
  vi.useFakeTimers();
  const requests = Math.round((perSecond * seconds) / clients);
  const startsMs = Array.from({ length: clients }, (_, i) => i * 150);
  return runModel({ clients, perSecond, requests, latencyMs: 20, startsMs }, (i) => new Limiter({ mode: 'auto', max: 32 }, () => Date.now(), undefined, mulberry32(seed * 100 + i)));
}

const share429 = (r: ModelResult): number => r.limited / (r.accepted + r.limited);

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

describe('four shards of one account, nothing shared', () => {
  for (const [perSecond, seeds] of [
    [40, [1, 2, 3]],
    [200, [1, 2, 3]],
    [1000, [1]],
  ] as const) {
    it(`at ${perSecond} req/s they use at least 0.9 of the limit together, with few 429s (median of ${seeds.length} seeds)`, async () => {
      const runs: ModelResult[] = [];
      for (const seed of seeds) {
        runs.push(await shards(4, perSecond, 30, seed));
        vi.useRealTimers();
      }
      expect(median(runs.map((r) => r.share))).toBeGreaterThanOrEqual(0.9);
      // Most 429s come in the first second, while the shards find the limit from nothing.
      expect(median(runs.map(share429))).toBeLessThanOrEqual(0.05);
    }, 60_000);
  }

  it('after the first seconds, 429s stay under 3% of the requests, and every shard gets a pace', async () => {
    vi.useFakeTimers();
    const limiters: Limiter[] = [];
    const marks: { accepted: number; limited: number }[] = [];
    await runModel({ clients: 4, perSecond: 40, requests: 300, latencyMs: 20, startsMs: [0, 150, 300, 450], onSecond: (c) => marks.push({ ...c }) }, (i) => {
      const l = new Limiter({ mode: 'auto', max: 32 }, () => Date.now(), undefined, mulberry32(i + 7));
      limiters.push(l);
      return l;
    });
    const at3 = marks[2] as { accepted: number; limited: number };
    const end = marks[marks.length - 1] as { accepted: number; limited: number };
    const later = (end.limited - at3.limited) / (end.accepted - at3.accepted + end.limited - at3.limited);
    expect(later).toBeLessThanOrEqual(0.03);
    for (const l of limiters) expect(l.stats.paceCuts).toBeGreaterThan(0);
  }, 60_000);

  it('one shard alone does as well: the same limiter serves an unsharded run', async () => {
    const r = await shards(1, 200, 30);
    expect(r.share).toBeGreaterThanOrEqual(0.95);
    expect(share429(r)).toBeLessThanOrEqual(0.02);
  }, 60_000);
});
