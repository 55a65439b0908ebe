// The limiter as a scheduler: the one limit, round-robin by brand, AIMD and
// the Retry-After pause, the pace a 429 sets. Shards sharing one account's
// limit are in limiter-shards.test.ts. The same limiter over real HTTP is in
// limiter-http.test.ts.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Limiter, type Signal, type Slot } from '../../src/api/limiter.js';

const tick = () => new Promise((r) => setImmediate(r));

/** A request of `key` that, once granted, completes on the next turn of the event loop with `signal`. */
async function request(l: Limiter, key: string, done: string[], signal: Signal = 'healthy'): Promise<void> {
  const slot = await l.acquire(key);
  await tick();
  done.push(key);
  slot.release(signal);
}

describe('Limiter, fixed', () => {
  it('never grants more than the limit', async () => {
    const l = new Limiter({ mode: 'fixed', limit: 3 });
    const granted: Slot[] = [];
    for (let i = 0; i < 10; i++) void l.acquire('a').then((s) => granted.push(s));
    await tick();
    expect(granted.length).toBe(3);
    granted[0]?.release('healthy');
    await tick();
    expect(granted.length).toBe(4);
    // A second release of the same slot frees nothing more.
    granted[0]?.release('healthy');
    await tick();
    expect(granted.length).toBe(4);
  });

  it('serves brands in turn: a brand with 5 requests queued behind one with 1,000 finishes among the first', async () => {
    const l = new Limiter({ mode: 'fixed', limit: 2 });
    const done: string[] = [];
    const big = Array.from({ length: 1000 }, () => request(l, 'big', done));
    const small = Array.from({ length: 5 }, () => request(l, 'small', done));
    await Promise.all([...big, ...small]);
    expect(done.length).toBe(1005);
    // Turns alternate, so the small brand's last request is done by the 12th completion,
    // not the 1,005th as first come, first served would have it.
    expect(done.lastIndexOf('small')).toBeLessThan(12);
  });

  it('does not adapt and does not pause: a fixed limit is what it says', () => {
    const l = new Limiter({ mode: 'fixed', limit: 5 });
    void l.acquire('a').then((s) => s.release('overloaded', 10_000));
    expect(l.stats).toMatchObject({ limit: 5, decreases: 0, pauses: 0 });
  });

  it('a 429 sets a pace as in auto: the fixed number in flight is a ceiling, not a promise (issue 35)', async () => {
    let now = 0;
    const l = new Limiter({ mode: 'fixed', limit: 8 }, () => now);
    // Ten healthy answers over a second, then a 429 with Retry-After 1 s.
    for (let i = 0; i < 10; i++) {
      const s = await l.acquire('a');
      now += 100;
      s.release('healthy');
    }
    const refused = await l.acquire('a');
    refused.release('limited', 1000);
    expect(l.stats.paceCuts).toBe(1);
    // Answers ÷ (busy time + Retry-After): 10 ÷ 2 s.
    expect(l.stats.rate).toBeCloseTo(5, 0);
    expect(l.stats.limit).toBe(8);
    expect(l.summary()).toMatch(/^limiter: fixed 8, limit 8 \(peak 8\), pace 5\.\d\/s, 1 pace cuts/);
  });
});

describe('Limiter, auto (AIMD)', () => {
  it('starts at 4, adds one per window of healthy answers at the limit, and stops at the cap', async () => {
    const l = new Limiter({ mode: 'auto', max: 7 });
    expect(l.stats.limit).toBe(4);
    const done: string[] = [];
    await Promise.all(Array.from({ length: 200 }, () => request(l, 'a', done)));
    expect(l.stats.limit).toBe(7);
    expect(l.stats.peak).toBe(7);
  });

  it('as 1 of n processes sharing the account (peers), starts at 4 ÷ n and adds one per n windows: together they ramp as one process', async () => {
    const one = new Limiter({ mode: 'auto', max: 32 });
    const shard = new Limiter({ mode: 'auto', max: 32, peers: 4 });
    expect(shard.stats.limit).toBe(1);
    expect(new Limiter({ mode: 'auto', max: 32, peers: 3 }).stats.limit).toBe(2);
    // An explicit start wins.
    expect(new Limiter({ mode: 'auto', max: 32, start: 6, peers: 4 }).stats.limit).toBe(6);
    const done: string[] = [];
    // One process goes 4 → 5 (4 answers) → … → 11 (49); a shard of 4 goes 1 → 2 (4) → 3 (12) → 4 (24) → 5 (40) → 6 (60). The
    // last few answers of each run come with the queue empty, and do not count.
    await Promise.all(Array.from({ length: 60 }, () => request(one, 'a', done)));
    await Promise.all(Array.from({ length: 70 }, () => request(shard, 'a', done)));
    expect(one.stats.limit).toBe(11);
    expect(shard.stats.limit).toBe(6);
    expect(shard.summary()).toMatch(/^limiter: auto \(cap 32, ramping as 1 of 4 sharing the account\), limit 6 /);
    expect(one.summary()).toMatch(/^limiter: auto \(cap 32\), limit 11 /);
  });

  it('does not grow while the load stays under the limit', async () => {
    const l = new Limiter({ mode: 'auto', max: 32 });
    const done: string[] = [];
    for (let i = 0; i < 50; i++) await request(l, 'a', done);
    expect(l.stats.limit).toBe(4);
  });

  it('cuts to four fifths on overload, once for the requests already in flight, never below 1', async () => {
    const l = new Limiter({ mode: 'auto', max: 32, start: 20 });
    const slots = await Promise.all(Array.from({ length: 20 }, () => l.acquire('a')));
    // Twenty answers 429 to one burst: one cut, not twenty.
    for (const s of slots) s.release('overloaded');
    expect(l.stats).toMatchObject({ limit: 16, decreases: 1 });
    // A request sent after the cut that is refused again cuts again.
    const again = await l.acquire('a');
    again.release('overloaded');
    expect(l.stats).toMatchObject({ limit: 12, decreases: 2 });
    for (let i = 0; i < 12; i++) (await l.acquire('a')).release('overloaded');
    expect(l.stats.limit).toBe(1);
  });

  it('after an overload, grows by at most one per Retry-After period', async () => {
    let now = 0;
    const l = new Limiter({ mode: 'auto', max: 32, start: 10 }, () => now);
    (await l.acquire('a')).release('overloaded', 1000);
    expect(l.stats.limit).toBe(8);
    // The pause (1 s) and the hold after it (1 s) pass; then many windows of healthy answers.
    now = 2000;
    const done: string[] = [];
    await Promise.all(Array.from({ length: 200 }, () => request(l, 'a', done)));
    expect(l.stats.limit).toBe(9);
    now = 3000;
    await Promise.all(Array.from({ length: 200 }, () => request(l, 'a', done)));
    expect(l.stats.limit).toBe(10);
    l.close();
  });

  it('pauses every new request until Retry-After has passed', async () => {
    let now = 1_000;
    const l = new Limiter({ mode: 'auto', max: 8 }, () => now);
    (await l.acquire('a')).release('overloaded', 40);
    expect(l.stats.pauses).toBe(1);
    let granted = false;
    const waiting = l.acquire('b').then((s) => {
      granted = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(granted).toBe(false);
    now += 40;
    (await waiting).release('healthy');
    expect(granted).toBe(true);
    l.close();
  });

  it('a neutral answer (a gateway error, a broken connection) neither grows nor cuts', async () => {
    const l = new Limiter({ mode: 'auto', max: 32 });
    const done: string[] = [];
    await Promise.all(Array.from({ length: 100 }, () => request(l, 'a', done, 'neutral')));
    expect(l.stats).toMatchObject({ limit: 4, decreases: 0 });
  });
});

describe('Limiter, auto: the pace a 429 sets', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** No jitter: every cut after the first is the full PACE_DECREASE (0.7). */
  const noJitter = () => 0;

  /** `n` healthy answers one at a time, each `ms` long on `clock`, then `idleMs` with nothing in flight. */
  async function answers(l: Limiter, clock: { now: number }, n: number, ms: number, idleMs = 0): Promise<void> {
    for (let i = 0; i < n; i++) {
      const s = await l.acquire('a');
      clock.now += ms;
      s.release('healthy');
      clock.now += idleMs;
    }
  }

  /** A limiter whose clock is `clock.now`, after ten healthy answers 100 ms apart (10 a second accepted). */
  async function afterTenAnswers(clock: { now: number }, random: () => number = noJitter): Promise<Limiter> {
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now, undefined, random);
    await answers(l, clock, 10, 100);
    return l;
  }

  /**
   * A limiter after `n` answers of `ms` each, one at a time, and a 429 (Retry-After 1 s): a pace of
   * n ÷ (n × ms + 1 s). Ten of 100 ms: 5 a second; twenty of 50 ms: 10; a thousand of 1 ms: 500,
   * 2 ms apart, so one request can wait on it briefly.
   */
  async function paced(clock: { now: number }, n: number, ms: number, opts: { max?: number; start?: number } = {}): Promise<Limiter> {
    const l = new Limiter({ mode: 'auto', max: opts.max ?? 32, start: opts.start }, () => clock.now, undefined, noJitter);
    await answers(l, clock, n, ms);
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats.rate).toBeCloseTo((n * 1000) / (n * ms + 1000));
    return l;
  }
  const pacedAtFive = (clock: { now: number }) => paced(clock, 10, 100);
  const pacedAtTen = (clock: { now: number }) => paced(clock, 20, 50);
  const fastPace = (clock: { now: number }, opts: { max?: number; start?: number } = {}) => paced(clock, 1000, 1, opts);

  /** `afterMs` on, a healthy answer while another request waits (when the pace may grow); the pace after it. */
  async function grow(l: Limiter, clock: { now: number }, afterMs: number): Promise<number> {
    clock.now += afterMs;
    // One more than the limit in flight (4): one waits whatever the pace.
    const slots = Array.from({ length: 5 }, () => l.acquire('a'));
    const granted = await Promise.all(slots.slice(0, 4));
    granted[0]?.release('healthy');
    const rate = l.stats.rate;
    for (const s of granted.slice(1)) s.release('neutral');
    clock.now += 2;
    (await slots[4])?.release('neutral');
    return rate;
  }

  it('a 503 sets no pace; the first 429 sets the sustained rate the answers before it say, once per overload', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    (await l.acquire('a')).release('overloaded');
    expect(l.stats.rate).toBe(Infinity);
    const inFlight = await Promise.all([l.acquire('a'), l.acquire('a')]);
    // Ten answers in a second of traffic, then an empty allowance: had it held the Retry-After's
    // worth (2 s), the service took 10 in 1 s + 2 s, 3.3 a second, not the 10 a second it answered.
    inFlight[0]?.release('limited', 2000);
    expect(l.stats.rate).toBeCloseTo(10 / 3);
    // The other request sent before the cut is refused too: no second cut.
    inFlight[1]?.release('limited', 2000);
    expect(l.stats).toMatchObject({ paceCuts: 1 });
    expect(l.stats.rate).toBeCloseTo(10 / 3);
    l.close();
  });

  it('the first 429 without a Retry-After takes the allowance to be a second of traffic', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(5);
    l.close();
  });

  it('the first 429 before five answers starts slow and doubles the pace every second until the next 429', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now, undefined, noJitter);
    // Four answers of 250 ms: 4 ÷ (1 s + 1 s), 2 a second, and too few answers to say the account was ours.
    await answers(l, clock, 4, 250);
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats.rate).toBeCloseTo(2);
    /** A healthy answer `afterMs` on while another request waits on the pace; the pace after it. */
    const growSlow = async (afterMs: number): Promise<number> => {
      clock.now += afterMs;
      const held = await l.acquire('a');
      const waiting = l.acquire('a');
      held.release('healthy');
      const rate = l.stats.rate;
      clock.now += 1000;
      (await waiting).release('neutral');
      return rate;
    };
    // A second of waiting (two of the pace's intervals count): the pace doubles.
    expect(await growSlow(1000)).toBeCloseTo(4, 6);
    // The next 429, with five answers since the first: an ordinary cut, and the slow start ends.
    clock.now += 1000;
    await answers(l, clock, 5, 300);
    (await l.acquire('a')).release('limited', 1000);
    const cut = l.stats.rate;
    expect(cut).toBeCloseTo(0.7 * 4, 1);
    // From here it grows as any pace does: 8% a second, not twice.
    expect(await growSlow(500)).toBeCloseTo(cut * (1 + 0.08 * 0.5), 6);
    l.close();
  });

  it('a later 429 cuts the pace to 0.7 after five answers or more since the last cut, and to half of itself before five: the overload is still going on', async () => {
    const clock = { now: 0 };
    const l = await pacedAtFive(clock);
    // Five answers at the pace (5 a second: 200 ms each), then a 429: an ordinary cut.
    clock.now += 200;
    await answers(l, clock, 5, 200);
    (await l.acquire('a')).release('limited');
    const second = l.stats.rate;
    expect(second).toBeGreaterThan(0.7 * 5 * 0.99);
    expect(second).toBeLessThan(0.7 * 5.2);
    // A 429 with two answers since that cut: the pace is still far over, cut deep.
    clock.now += 800;
    await answers(l, clock, 2, 400);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(0.5 * second, 1);
    expect(l.stats.paceCuts).toBe(3);
    l.close();
  });

  it('a later 429 cuts from what was accepted since the last cut when that is lower than the pace', async () => {
    const clock = { now: 0 };
    const l = await pacedAtTen(clock);
    // Seven answers of 180 ms each, one at a time: the second before the 429 holds six, 6 a
    // second accepted, under the pace of 10.
    clock.now += 200;
    await answers(l, clock, 7, 180);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(0.7 * 6, 1);
    l.close();
  });

  it('each later cut is jittered between 0.65 and 0.7, so that shards refused together do not move in step', async () => {
    const rates: number[] = [];
    for (const random of [() => 0, () => 0.5, () => 0.999]) {
      const clock = { now: 0 };
      const l = await afterTenAnswers(clock, random);
      (await l.acquire('a')).release('limited');
      // Ten more answers at the pace of 5 a second (2 s), then the second 429: cut from 5.
      clock.now += 200;
      await answers(l, clock, 10, 200);
      (await l.acquire('a')).release('limited');
      rates.push(l.stats.rate);
      l.close();
    }
    expect(rates[0]).toBeCloseTo(0.7 * 5);
    expect(rates[1]).toBeCloseTo(0.675 * 5);
    expect(rates[2]).toBeCloseTo(0.65 * 5, 1);
  });

  it('a 429 leaves the limit in flight as it was and pauses no one: the refused request waits out its own Retry-After', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    const before = l.stats.limit;
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats).toMatchObject({ limit: before, pauses: 0 });
    expect(l.stats.rate).toBeCloseTo(5);
    // The next request goes at once: the pace has room, and nothing is paused.
    let granted = false;
    void l.acquire('b').then((s) => {
      granted = true;
      s.release('healthy');
    });
    await tick();
    expect(granted).toBe(true);
    l.close();
  });

  it('the rates count only the time something was in flight or waiting: idle time is not the service refusing', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now, undefined, noJitter);
    // Six answers of 100 ms each, 300 ms apart, then a 429 (Retry-After 1 s): six in 700 ms of traffic
    // (the refused request's 100 ms too), not in the 2.2 s since the first.
    await answers(l, clock, 6, 100, 200);
    const refused = await l.acquire('a');
    clock.now += 100;
    refused.release('limited', 1000);
    expect(l.stats.rate).toBeCloseTo((6 * 1000) / (700 + 1000));
    // Five answers in the same manner, then a 429: five in 500 ms of traffic were accepted, more than the pace; cut from the pace.
    clock.now += 1000;
    await answers(l, clock, 5, 100, 200);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(0.7 * ((6 * 1000) / 1700), 1);
    l.close();
  });

  it('the pace catches up with a late timer, by at most 20 ms worth', async () => {
    const clock = { now: 0 };
    const l = await fastPace(clock, { max: 64, start: 64 });
    const granted: Slot[] = [];
    for (let i = 0; i < 60; i++) void l.acquire('a').then((s) => granted.push(s));
    await sleep(10);
    expect(granted.length).toBe(1);
    // The timer fires 25 ms late: the requests due by now go together (a pace that granted one
    // per timer could not pass about 1,000 a second), but no more than 20 ms worth (10) and those due.
    clock.now += 25;
    await sleep(20);
    expect(granted.length).toBeGreaterThanOrEqual(10);
    expect(granted.length).toBeLessThanOrEqual(1 + 12);
    for (const s of granted) s.release('neutral');
    l.close();
  });

  it('requests start no closer together than the pace, and idle time is no credit for a burst', async () => {
    const clock = { now: 0 };
    const l = await pacedAtFive(clock);
    clock.now += 10_000;
    const first = await l.acquire('a');
    let second: Slot | undefined;
    void l.acquire('b').then((s) => (second = s));
    await sleep(30);
    // One in flight, the limit is higher, and yet the second waits for its time: 200 ms at 5 a second.
    expect(second).toBeUndefined();
    clock.now += 201;
    await sleep(200);
    expect(second).toBeDefined();
    first.release('neutral');
    second?.release('neutral');
    l.close();
  });

  it('grows after each healthy answer while requests wait on it, by 8% a second, counting only time with requests waiting', async () => {
    const clock = { now: 0 };
    const l = await fastPace(clock);
    const cutAt = clock.now;
    // 100 ms later, with a request waiting: 8% of 500 a second for 0.1 s.
    const raised = await grow(l, clock, 100);
    expect(raised).toBeCloseTo(500 * (1 + 0.08 * 0.1), 6);
    // Ten seconds with nothing waiting count as 200 ms only (sped up eight times, the most, 10 s after the cut).
    const later = await grow(l, clock, 10_000);
    const speedup = 8;
    expect(later).toBeCloseTo(raised * (1 + 0.08 * speedup * 0.2), 6);
    // A healthy answer with nothing waiting does not raise it.
    clock.now += 500;
    (await l.acquire('a')).release('healthy');
    expect(l.stats.rate).toBe(later);
    l.close();
  });

  it('grows at least 0.1 a second per second, however low the pace', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now, undefined, noJitter);
    // Five answers of a second each, then a 429: 5 ÷ (5 s + 1 s), under 1 a second, the slowest pace.
    await answers(l, clock, 5, 1000);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBe(1);
    clock.now += 1000;
    const held = await l.acquire('a');
    const waiting = l.acquire('a');
    held.release('healthy');
    // A second's worth of waiting counts (two of the pace's intervals may): 0.1 more, not 0.08.
    expect(l.stats.rate).toBeCloseTo(1.1, 6);
    clock.now += 1000;
    (await waiting).release('neutral');
    l.close();
  });

  it('grows faster the longer no 429 came: as fast up to 2 s after the last cut, then doubling every 2 s (twice at 4 s, four times at 6 s) to eight times from 8 s, and no faster later', async () => {
    const clock = { now: 0 };
    const l = await fastPace(clock);
    const cutAt = clock.now;
    const speedups: number[] = [];
    for (const at of [1000, 4000, 6000, 8000, 20_000]) {
      await grow(l, clock, cutAt + at - 100 - clock.now);
      clock.now -= 2;
      const before = l.stats.rate;
      const after = await grow(l, clock, 100);
      speedups.push((after - before) / (before * 0.08 * 0.1));
    }
    expect(speedups[0]).toBeCloseTo(1, 3);
    expect(speedups[1]).toBeCloseTo(2, 3);
    expect(speedups[2]).toBeCloseTo(4, 3);
    expect(speedups[3]).toBeCloseTo(8, 3);
    expect(speedups[4]).toBeCloseTo(8, 3);
    l.close();
  });
});

describe('Limiter, auto: a lone 429 does not leave the run crawling', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** One request of `ms` (simulated) answered with `signal`. */
  async function call(l: Limiter, signal: Signal, ms: number, retryAfterMs?: number): Promise<void> {
    const slot = await l.acquire('a');
    await new Promise((r) => setTimeout(r, ms));
    slot.release(signal, retryAfterMs);
  }

  it('three requests, a 429 (Retry-After 1 s), then 200 requests of 10 ms: done within 6 simulated seconds', async () => {
    vi.useFakeTimers();
    const l = new Limiter({ mode: 'auto', max: 32 }, () => Date.now());
    const start = Date.now();
    // A run that reads a little, plans for a while, then is refused once (an injected fault, a
    // neighbour's burst): before, the pace became the three answers of that second (under
    // three a second) and grew by one a second, and 200 requests took over 30 s. A 429 before five
    // answers is what a shard joining an account its neighbours use meets, so the pace now starts
    // from what the three answers say (3 ÷ (40 ms busy + 1 s), under 3 a second) and doubles every
    // second: the 200 go within 6 s of the 429. (It was 4 s while such a 429 cut a pace of
    // 0.7 × 75 a second, which cost shards joining a used account a 429 per halving.)
    for (let i = 0; i < 3; i++) {
      const done = call(l, 'healthy', 10);
      await vi.advanceTimersByTimeAsync(300);
      await done;
    }
    const refused = call(l, 'limited', 10, 1000);
    await vi.advanceTimersByTimeAsync(10);
    await refused;
    expect(l.stats.paceCuts).toBe(1);
    let finished = 0;
    const all = Array.from({ length: 200 }, () => call(l, 'healthy', 10).then(() => (finished += 1)));
    const t0 = Date.now();
    while (finished < 200 && Date.now() - t0 < 60_000) await vi.advanceTimersByTimeAsync(100);
    await Promise.all(all);
    expect(Date.now() - t0).toBeLessThanOrEqual(6000);
    expect(Date.now() - start).toBeGreaterThan(900);
    l.close();
  });
});
