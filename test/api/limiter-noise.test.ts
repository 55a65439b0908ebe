// Random 429s (issue 36 §1): a share of the requests answered 429 whatever the
// rate (another tenant, a carrier's hiccup). Cutting the pace does not make
// such 429s fewer, so they must cost little, while a real limit is still met
// with a pace (limiter.test.ts, limiter-shards.test.ts). First the model
// (test/api/shard-model.ts) on a simulated clock, seeded: the same figures
// every run; then each rule on a hand-moved clock. bench/controller-429.ts
// measures the controller under the same.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Limiter, type ConcurrencySetting, type Slot } from '../../src/api/limiter.js';
import { mulberry32 } from '../../src/emulator/faults.js';
import { runModel, type ModelResult } from './shard-model.js';

afterEach(() => {
  vi.useRealTimers();
});

/** One client, no limit but `noise` of its requests answered 429 at random (Retry-After 1 s); the result and its limiter. */
async function run(setting: ConcurrencySetting, requests: number, noise: number, seed: number): Promise<ModelResult & { limiter: Limiter }> {
  vi.useFakeTimers();
  let limiter: Limiter | undefined;
  try {
    // 512 requests ready: a request refused waits its second out without holding the others back.
    const r = await runModel({ clients: 1, perSecond: Infinity, requests, latencyMs: 20, ready: 512, ...(noise > 0 ? { noise: { share: noise, seed } } : {}) }, () => {
      limiter = new Limiter(setting, () => Date.now(), undefined, mulberry32(seed));
      return limiter;
    });
    return { ...r, limiter: limiter as Limiter };
  } finally {
    vi.useRealTimers();
  }
}

describe('random 429s over a service with no limit (the model)', () => {
  // Auto runs 1,300 requests a second here: 10,000 of them, so that the second a refused request
  // waits at the end is not most of the run.
  for (const [name, setting, requests] of [
    ['a fixed 8 (the controller)', { mode: 'fixed', limit: 8 }, 2000],
    ['auto', { mode: 'auto', max: 32 }, 10_000],
  ] as const) {
    it(`${name}: 5% answered 429 at random takes at most twice the time without them, and leaves no pace`, async () => {
      const clean = await run(setting, requests, 0, 1);
      for (const seed of [1, 2, 3]) {
        const noisy = await run(setting, requests, 0.05, seed);
        expect(noisy.accepted).toBe(requests);
        expect(noisy.limited).toBeGreaterThan(0.04 * requests);
        // Before: each 429 cut the pace, to the floor; a fixed 8 took 90 times as long.
        expect(noisy.ms, `seed ${seed}`).toBeLessThanOrEqual(2 * clean.ms);
        expect(noisy.limiter.stats.rate).toBe(Infinity);
        expect(noisy.limiter.stats.noise).toBeGreaterThan(0.02);
      }
    }, 120_000);

    it(`${name}: 30% answered 429 at random finishes within ten times the time without them`, async () => {
      const clean = await run(setting, 2000, 0, 1);
      const storm = await run(setting, 2000, 0.3, 1);
      expect(storm.accepted).toBe(2000);
      // Before: the pace fell to one request a second and stayed there (the controller did not finish in 10 minutes).
      expect(storm.ms).toBeLessThanOrEqual(10 * clean.ms);
      expect(storm.limiter.stats.noise).toBeGreaterThanOrEqual(0.2);
      expect(storm.limiter.stats.rate).toBe(Infinity);
    }, 120_000);
  }
});

describe('random 429s, rule by rule', () => {
  /** `n` healthy answers one at a time, each `ms` long on `clock`. */
  async function answers(l: Limiter, clock: { now: number }, n: number, ms: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const s = await l.acquire('a');
      clock.now += ms;
      s.release('healthy');
    }
  }

  /** Eight requests at once (a fixed 8's worth in flight): the first answered 429, then `refused` more of the other seven, the rest healthy. */
  async function burst(l: Limiter, clock: { now: number }, refused: number): Promise<void> {
    const slots: Slot[] = await Promise.all(Array.from({ length: 8 }, () => l.acquire('a')));
    clock.now += 20;
    slots[0]?.release('limited', 1000);
    for (const [i, s] of slots.slice(1).entries()) s.release(i < refused ? 'limited' : 'healthy');
  }

  const fixed8 = (clock: { now: number }) => new Limiter({ mode: 'fixed', limit: 8 }, () => clock.now, undefined, () => 0);

  it('a 429 whose neighbours in flight were answered: the first pace is undone, as chance', async () => {
    const clock = { now: 0 };
    const l = fixed8(clock);
    await answers(l, clock, 20, 10);
    const slots: Slot[] = await Promise.all(Array.from({ length: 8 }, () => l.acquire('a')));
    clock.now += 20;
    slots[0]?.release('limited', 1000);
    // The pace is set at once, as before (a real limit is met without delay)…
    expect(l.stats.rate).toBeLessThan(Infinity);
    for (const s of slots.slice(1)) s.release('healthy');
    // …and undone once the seven sent with it are answered: a limit would have refused most of them.
    expect(l.stats).toMatchObject({ rate: Infinity, paceUndos: 1, noise: 0 });
    l.close();
  });

  it('a 429 whose neighbours in flight were refused too is a limit: the pace stays', async () => {
    const clock = { now: 0 };
    const l = fixed8(clock);
    await answers(l, clock, 20, 10);
    await burst(l, clock, 2);
    expect(l.stats.rate).toBeLessThan(Infinity);
    expect(l.stats.paceUndos).toBe(0);
    l.close();
  });

  it('after two lone 429s, a 429 within twice the share that comes at random sets no pace; a share far over it does', async () => {
    const clock = { now: 0 };
    const l = fixed8(clock);
    await answers(l, clock, 20, 10);
    await burst(l, clock, 0);
    await answers(l, clock, 20, 10);
    await burst(l, clock, 0);
    // Two lone 429s among 2 + 54 answers: 3.6% come at random.
    expect(l.stats.noise).toBeCloseTo(2 / 56, 3);
    expect(l.stats.paceUndos).toBe(2);
    // 60 answers later, a 429: 1 of 61 answers in the last second, within twice 3.6%.
    clock.now += 1000;
    await answers(l, clock, 60, 10);
    const ignored = l.stats.ignored;
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats.ignored).toBe(ignored + 1);
    expect(l.stats.rate).toBe(Infinity);
    // A burst refused nearly whole is no chance: a pace.
    await burst(l, clock, 7);
    expect(l.stats.rate).toBeLessThan(Infinity);
    l.close();
  });

  it('cuts after which 429s keep coming, a quarter or more of the answers, are undone: they do not follow the pace', async () => {
    const clock = { now: 0 };
    const l = fixed8(clock);
    await answers(l, clock, 20, 10);
    await burst(l, clock, 3);
    expect(l.stats.rate).toBeLessThan(Infinity);
    // After the cut: one answer in three refused, whatever the pace (the pace is cut again and again).
    let refused = 0;
    for (let i = 0; i < 24 && l.stats.rate < Infinity; i++) {
      // Past the pace's next start: the pace only orders these one at a time.
      clock.now += 3000;
      const s = await l.acquire('a');
      clock.now += 20;
      if (i % 3 === 2) {
        refused += 1;
        s.release('limited', 1000);
      } else s.release('healthy');
    }
    // Eight 429s among 24 answers: the pace is gone, and a third is known to come at random.
    expect(refused).toBe(8);
    expect(l.stats.rate).toBe(Infinity);
    expect(l.stats.paceUndos).toBe(1);
    expect(l.stats.noise).toBeCloseTo(1 / 3, 2);
    l.close();
  });

  it('in slow start, a 429 within the last cut\'s Retry-After and before five answers since it cuts nothing (shards joining a spent account)', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now, undefined, () => 0);
    // Three answers, then a 429: a slow start at 3 ÷ (0.3 s + 1 s).
    await answers(l, clock, 3, 100);
    (await l.acquire('a')).release('limited', 1000);
    const start = l.stats.rate;
    expect(start).toBeCloseTo(3 / 1.3, 3);
    // 300 ms later, another: the neighbours' overload still going on. Before, it cut to half, ended the
    // slow start, and a third and a fourth followed within half a second.
    clock.now += 300;
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats.rate).toBe(start);
    expect(l.stats.paceCuts).toBe(1);
    // After the Retry-After, a 429 cuts again.
    clock.now += 800;
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats.paceCuts).toBe(2);
    l.close();
  });
});
