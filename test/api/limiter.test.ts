// The limiter as a scheduler: the one limit, round-robin by brand, AIMD and
// the Retry-After pause. The same limiter over real HTTP is in
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
  async function afterTenAnswers(clock: { now: number }): Promise<Limiter> {
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now);
    await answers(l, clock, 10, 100);
    return l;
  }

  it('a 503 sets no pace; a 429 sets the rate accepted in the second before it, cut to nine tenths, once per overload', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    (await l.acquire('a')).release('overloaded');
    expect(l.stats.rate).toBe(Infinity);
    const inFlight = await Promise.all([l.acquire('a'), l.acquire('a')]);
    inFlight[0]?.release('limited');
    expect(l.stats.rate).toBe(9);
    // The other request sent before the cut is refused too: no second cut.
    inFlight[1]?.release('limited');
    expect(l.stats).toMatchObject({ rate: 9, paceCuts: 1 });
    // A request sent after the cut and refused again cuts again, from the pace or what was
    // accepted since the cut (the service's burst allowance is spent by then), whichever is
    // lower: four answers 200 ms each, one at a time, are 5 a second (the idle 200 ms before
    // them, after the pace's 111 ms, do not count).
    clock.now += 200;
    await answers(l, clock, 4, 200);
    (await l.acquire('a')).release('limited');
    expect(l.stats).toMatchObject({ paceCuts: 2 });
    expect(l.stats.rate).toBeCloseTo(5 * 0.9);
    l.close();
  });

  it('a 429 leaves the limit in flight as it was and pauses no one: the refused request waits out its own Retry-After', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    const before = l.stats.limit;
    (await l.acquire('a')).release('limited', 1000);
    expect(l.stats).toMatchObject({ limit: before, pauses: 0, rate: 9 });
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

  it('the accepted rate counts only the time something was in flight or waiting: idle time is not the service refusing', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now);
    // Three answers of 10 ms each, 300 ms apart, then a 429: three in 40 ms of traffic, not three a second.
    await answers(l, clock, 3, 10, 290);
    const refused = await l.acquire('a');
    clock.now += 10;
    refused.release('limited', 1000);
    expect(l.stats.rate).toBeCloseTo(0.9 * (3 * 1000) / 40);
    l.close();
  });

  it('the pace catches up with a late timer, by at most 20 ms worth', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 64, start: 64 }, () => clock.now);
    // A hundred answers 1 ms each: 1,000 a second, a pace of 900 after the 429.
    await answers(l, clock, 100, 1);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(900);
    const granted: Slot[] = [];
    for (let i = 0; i < 60; i++) void l.acquire('a').then((s) => granted.push(s));
    await sleep(10);
    expect(granted.length).toBe(1);
    // The timer fires 25 ms late: the requests due by now go together (a pace that granted one
    // per timer could not pass about 1,000 a second), but no more than 20 ms worth (18) and those due.
    clock.now += 25;
    await sleep(20);
    expect(granted.length).toBeGreaterThanOrEqual(15);
    expect(granted.length).toBeLessThanOrEqual(1 + 23);
    for (const s of granted) s.release('neutral');
    l.close();
  });

  it('requests start no closer together than the pace, and idle time is no credit for a burst', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBe(9);
    clock.now += 10_000;
    const first = await l.acquire('a');
    let second: Slot | undefined;
    void l.acquire('b').then((s) => (second = s));
    await sleep(30);
    // One in flight, the limit is higher, and yet the second waits for its time: 111 ms at 9 a second.
    expect(second).toBeUndefined();
    clock.now += 112;
    await sleep(150);
    expect(second).toBeDefined();
    first.release('neutral');
    second?.release('neutral');
    l.close();
  });

  it('grows per period while requests wait on it, by a tenth (at least one) up to the rate measured at the 429 and by a fiftieth beyond, not faster', async () => {
    const clock = { now: 0 };
    const l = await afterTenAnswers(clock);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBe(9);
    clock.now += 1000;
    const held = await l.acquire('a');
    const waiting = [l.acquire('a'), l.acquire('a')];
    held.release('healthy');
    // Up to the 10 a second measured at the 429, not beyond.
    expect(l.stats.rate).toBe(10);
    clock.now += 1000;
    const next = await waiting[0];
    next?.release('healthy');
    expect(l.stats.rate).toBeCloseTo(10.2);
    // Within the same period: no growth.
    clock.now += 200;
    (await waiting[1])?.release('healthy');
    expect(l.stats.rate).toBeCloseTo(10.2);
    l.close();
  });

  it('doubles per period when the 429 was measured on too few answers to say what the service allows', async () => {
    const clock = { now: 0 };
    const l = new Limiter({ mode: 'auto', max: 32 }, () => clock.now);
    // Two answers 100 ms each, one at a time (10 a second), then a 429.
    await answers(l, clock, 2, 100);
    (await l.acquire('a')).release('limited');
    expect(l.stats.rate).toBeCloseTo(9);
    const rates: number[] = [];
    for (let period = 0; period < 3; period++) {
      clock.now += 1000;
      const held = await l.acquire('a');
      const waiting = l.acquire('a');
      held.release('healthy');
      rates.push(l.stats.rate);
      clock.now += 200;
      (await waiting).release('neutral');
    }
    expect(rates.map((r) => Math.round(r))).toEqual([18, 36, 72]);
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

  it('three requests, a 429 (Retry-After 1 s), then 200 requests of 10 ms: done within 4 simulated seconds', async () => {
    vi.useFakeTimers();
    const l = new Limiter({ mode: 'auto', max: 32 }, () => Date.now());
    const start = Date.now();
    // A run that reads a little, plans for a while, then is refused once (an injected fault, a
    // neighbour's burst): before, the pace became the three answers of that second (under
    // three a second) and grew by one a second, and 200 requests took over 30 s.
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
    expect(Date.now() - t0).toBeLessThanOrEqual(4000);
    expect(Date.now() - start).toBeGreaterThan(900);
    l.close();
  });
});
