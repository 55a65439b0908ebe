// The one limit on requests in flight for the whole process, shared by every
// brand: a fixed number, or `auto`, which finds the service's limit by AIMD
// and meets a rate limit with a pace. Waiting requests are served round-robin
// by brand, so a brand with a thousand requests queued does not hold back a
// brand with five.
//
// AIMD here: start at 4; add one per window of healthy answers taken at the
// limit (with `peers`, n processes sharing one account such as CI shards:
// start at 4 ÷ n and add one per n windows, so that together they ramp up as
// one process does; else a service's burst allowance runs out with n times
// the requests in flight, and every one of them is refused); on 503 (an
// overload) cut to four fifths, once per overload, and after it grow by at
// most one per Retry-After period, the service's own time scale.
// (Netflix's concurrency-limits AIMD backs off to 0.9; TCP Reno to
// 0.5.) A Retry-After on a 503 pauses every new request until then.
//
// A 429 is a rate limit, and a limit on requests in flight cannot hold a rate:
// against a service 20 ms away one request at a time is already 50 a second,
// against a fast one hundreds. So a 429 sets a pace instead, and the pace is
// AIMD on a rate, the way TCP flows share a link: the service's limit is per
// account, and CI shards on separate machines share it with nothing but 429s
// to go by. The first 429 sets the pace to the service's sustained rate as
// what it accepted before says it: a service that allows bursts spent its
// allowance first, and an allowance of one Retry-After's worth (a token
// bucket refilled at the limit, refusing for the time one token takes) gives
// answers ÷ (busy time + Retry-After). Busy time: a client that sent three
// requests and then planned for a second was not refused at three a second.
// A smaller allowance leaves the pace low and it grows; a larger one is
// measured by the next 429. A 429 before five answers (a shard that joins an
// account its neighbours already use) leaves nothing to measure: the pace
// starts low and doubles every second until the next 429, as TCP's slow
// start does. Each later 429 cuts again, once per overload: to between
// PACE_DECREASE and PACE_DECREASE - PACE_JITTER (jittered, so
// shards refused together do not move in step) of what was accepted since
// the last cut, when five answers or more say it, or of the pace; to half
// the pace when it came before five answers since the last cut (still far
// over). The pace grows all the time requests wait on it, by 8% a second,
// and faster the longer no 429 came (×1 up to 2 s, ×2 at 4 s, ×4 at 6 s, at
// most ×8 from 8 s): a shard whose neighbours finished takes up their share
// within seconds. A
// shard sending more meets more of the 429s and is cut more often, so shards
// converge on equal shares. The cut to 0.7 costs a service with a burst
// allowance little (the allowance fills while the pace is below the limit
// and is spent as it grows back), and it makes 429s rare: one per shard
// every few seconds.
// The refused request alone waits out its Retry-After (src/api/retry.ts);
// the others go on at the pace. Requests start no closer together than the
// pace; there is no pace until the first 429. A fixed limit gets the pace
// too: the number in flight is a ceiling, not a promise (issue 35).
/** How many requests may be in flight. */
export type ConcurrencySetting =
  | { mode: 'fixed'; limit: number }
  /** `peers`: processes sharing the account's limits, this one included (`--shard i/n`: n); default 1. */
  | { mode: 'auto'; max: number; start?: number; peers?: number };

/** Where `auto` starts (*chosen*: low enough that a strict limit costs few 429s). */
export const AUTO_START = 4;
/** The default cap of `auto` (`--max-concurrency`). */
export const DEFAULT_MAX_CONCURRENCY = 32;
/** Multiplicative decrease on overload (*chosen*, by bench/ratelimit.ts). */
const DECREASE = 0.8;
/** The pace's slowest rate, requests a second. */
const MIN_RATE = 1;
/**
 * The pace after a later 429, as a share of the pace before it or of the rate
 * accepted (*chosen*, by the shard model in test/api and bench/ratelimit.ts:
 * 0.9 cut so little that four shards were refused every second at 40 req/s;
 * 0.55 took four shards at 40 req/s from 3.3–3.4% answered 429 to 2.6–3.1%,
 * but one process lost 0.03–0.04 of the limit at 200 req/s and four shards
 * at 200 req/s used 0.86 of it, the last shards finishing alone).
 */
const PACE_DECREASE = 0.7;
/** How far below PACE_DECREASE a cut may go at random, desynchronising shards refused together. */
const PACE_JITTER = 0.05;
/** The pace after a 429 that came before MIN_SAMPLES answers since the last cut (*chosen*, as PACE_DECREASE: 0.35 left one process at 0.75 of a 40 req/s limit): still far over, so cut deep. */
const PACE_DEEP_DECREASE = 0.5;
/** How fast the pace grows while requests wait on it, per second, as a share of itself (*chosen*, as PACE_DECREASE). */
const PACE_GROWTH = 0.08;
/** The least it grows by, requests a second per second. */
const MIN_PACE_STEP = 0.1;
/** Growth doubles every this many ms without a 429, after the first (*chosen*): neighbours that finish leave a share to take. */
const PACE_SPEEDUP_MS = 2000;
/**
 * The fastest growth, as a multiple of PACE_GROWTH (*chosen*, by the shard
 * model: the last shard of four, cut to a fifth of the limit just before the
 * others finished, took 8 s to find the limit again at 4, losing a tenth of a
 * 30 s run; faster still, a pace overshoots far while a burst allowance
 * refills, and the cuts after it go deep).
 */
const MAX_SPEEDUP = 8;
/** The most waiting time one raise of the pace counts (*chosen*): time with nothing waiting is no reason to grow. */
const GROWTH_CREDIT_MS = 200;
/** Answers that make a measurement (*chosen*): of the accepted rate since the last cut, and of a new overload rather than the last one still going on. */
const MIN_SAMPLES = 5;
/**
 * How far the pace's schedule may fall behind the clock before the lost time
 * is forfeited (*chosen*, by bench/ratelimit.ts). Timers fire a millisecond or
 * more late, so a pace that never caught up could not pass about 1,000
 * requests a second however high it was set (at 1,000 req/s the run took 1.4
 * times the bound with one cut and one pause). The catch-up is the burst the
 * pace allows: 20 ms worth of requests, under one at 50 req/s.
 */
const PACE_SLACK_MS = 20;
/** The window over which the accepted rate is counted. */
const RATE_WINDOW_MS = 1000;
/** The growth period after an overload that came without Retry-After. */
const DEFAULT_GROW_EVERY_MS = 1000;

/** What an answer says about the service's capacity: `limited` is a rate limit (429), `overloaded` any other overload (503). */
export type Signal = 'healthy' | 'overloaded' | 'limited' | 'neutral';

/** A granted slot: give it back once, with what the answer said. */
export interface Slot {
  release(signal: Signal, retryAfterMs?: number): void;
}

/** Counters for benchmarks and tests. */
export interface LimiterStats {
  /** The current limit. */
  limit: number;
  /** The highest limit reached. */
  peak: number;
  /** Multiplicative decreases made. */
  decreases: number;
  /** Pauses for Retry-After. */
  pauses: number;
  /** Cuts of the pace (429s that set or lowered it). */
  paceCuts: number;
  /** The pace, requests a second; Infinity until the first 429. */
  rate: number;
}

interface Waiter {
  grant: (slot: Slot) => void;
  /** When it asked. */
  since: number;
}

/** The limiter. */
export class Limiter {
  private limitNow: number;
  private readonly max: number;
  private readonly adaptive: boolean;
  private readonly peers: number;
  private inFlight = 0;
  /** Healthy answers since the last change of the limit. */
  private healthy = 0;
  /** Bumped on every decrease: a slot granted before it does not cut again. */
  private epoch = 0;
  /** Healthy answers to requests granted since the last cut. */
  private sinceCut = 0;
  private pausedUntil = 0;
  /** No growth before this: a pause refills the service's burst allowance, and answers spent from it say nothing about its sustained rate. */
  private holdUntil = 0;
  /** At most one increase per this many ms: 0 until the first overload. */
  private growEveryMs = 0;
  private lastChange = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Requests a second; Infinity (no spacing) until the first 429. */
  private rate = Infinity;
  /** The earliest start of the next request under the pace. */
  private nextStart = 0;
  /** When the pace last grew or was cut. */
  private lastRateChange = 0;
  /** When the pace was last cut (0: never). */
  private lastCut = 0;
  /** Slow start: the pace doubles every second of waiting until the next 429 (after a first 429 with too few answers to measure). */
  private probing = false;
  /** Healthy answers since the first request, for the first 429's estimate. */
  private answered = 0;
  /** The union of the gaps so far, ms, and the end of the latest: busy time for the first 429's estimate. */
  private gapMs = 0;
  private gapEnd = 0;
  /** When healthy answers came in, for the accepted rate (oldest first, trimmed to the window). */
  private readonly accepted: number[] = [];
  private acceptedHead = 0;
  /**
   * Time the accepted rate does not count, as [start, end] pairs in order:
   * while nothing was in flight or waiting (the client, not the service, set
   * the rate then) and while paused.
   */
  private readonly gaps: number[] = [];
  private gapsHead = 0;
  /** Since when nothing has been in flight or waiting; undefined while busy. */
  private idleSince: number | undefined;
  private firstGrant: number | undefined;
  /** Waiters by key, and the keys with waiters in round-robin order. */
  private readonly queues = new Map<string, Waiter[]>();
  private readonly ring: string[] = [];
  readonly stats: LimiterStats;

  constructor(
    setting: ConcurrencySetting,
    private readonly now: () => number = Date.now,
    /** One line per decision (cut, pause), for RCSCTL_DEBUG=limiter. */
    private readonly trace?: (line: string) => void,
    /** The jitter of each cut; seeded in tests. */
    private readonly random: () => number = Math.random,
  ) {
    this.adaptive = setting.mode === 'auto';
    this.max = setting.mode === 'auto' ? setting.max : setting.limit;
    this.peers = setting.mode === 'auto' ? Math.max(1, setting.peers ?? 1) : 1;
    this.limitNow = setting.mode === 'auto' ? Math.min(this.max, setting.start ?? Math.max(1, Math.ceil(AUTO_START / this.peers))) : setting.limit;
    this.stats = { limit: this.limitNow, peak: this.limitNow, decreases: 0, pauses: 0, paceCuts: 0, rate: Infinity };
  }

  /** The most requests this limiter will ever have in flight (connections to open). */
  get ceiling(): number {
    return this.max;
  }

  /** Wait for a slot; `key` (a brand id) decides whose turn it is. */
  acquire(key: string): Promise<Slot> {
    if (this.idleSince !== undefined) {
      this.addGap(this.idleSince, this.now());
      this.idleSince = undefined;
    }
    return new Promise<Slot>((grant) => {
      let queue = this.queues.get(key);
      if (queue === undefined) {
        queue = [];
        this.queues.set(key, queue);
        this.ring.push(key);
      }
      queue.push({ grant, since: this.now() });
      this.dispatch();
    });
  }

  /** Grant slots while there is room, one key at a time in turn. */
  private dispatch(): void {
    if (this.timer !== undefined) return;
    const now = this.now();
    const wait = this.pausedUntil - now;
    if (wait > 0) {
      this.wakeIn(wait);
      return;
    }
    while (this.inFlight < this.limitNow && this.ring.length > 0) {
      if (this.rate !== Infinity) {
        const early = this.nextStart - now;
        if (early > 0) {
          this.wakeIn(early);
          return;
        }
        // Late timers are caught up, idle time beyond the slack is no credit: the pace bursts at most PACE_SLACK_MS worth.
        this.nextStart = Math.max(now - PACE_SLACK_MS, this.nextStart) + 1000 / this.rate;
      }
      this.firstGrant ??= now;
      const key = this.ring.shift() as string;
      const queue = this.queues.get(key) as Waiter[];
      const waiter = queue.shift() as Waiter;
      if (queue.length > 0) this.ring.push(key);
      else this.queues.delete(key);
      this.inFlight += 1;
      waiter.grant(this.slot(now > waiter.since));
    }
  }

  /** Dispatch again in `ms`, when someone waits. */
  private wakeIn(ms: number): void {
    if (this.ring.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dispatch();
    }, Math.max(1, Math.ceil(ms)));
  }

  /** Leave [start, end] out of the accepted rate. */
  private addGap(start: number, end: number): void {
    if (end <= start) return;
    this.gaps.push(start, end);
    // Gaps come in order of start: the part past the latest end is new.
    this.gapMs += Math.max(0, end - Math.max(start, this.gapEnd));
    this.gapEnd = Math.max(this.gapEnd, end);
  }

  /**
   * The service's sustained rate as the answers before the first 429 say it,
   * when its burst allowance held `retryAfterMs` worth: answers ÷ (busy time
   * + Retry-After). With no Retry-After, one second's worth.
   */
  private firstEstimate(now: number, retryAfterMs: number | undefined): number {
    const start = this.firstGrant ?? now;
    const busy = Math.max(1, now - start - this.gapMs + Math.max(0, this.gapEnd - now));
    const allowance = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : DEFAULT_GROW_EVERY_MS;
    return (Math.max(1, this.answered) * 1000) / (busy + allowance);
  }

  /**
   * Healthy answers per second over the last window (or since the first
   * request or the last pace cut, when that is shorter: a service's burst
   * allowance is spent by the first 429, and what it accepts after that is its
   * sustained rate), counting only the time something was in
   * flight or waiting and nothing paused: a client that sent three requests in
   * the second before a 429 and spent the rest of it planning was not refused
   * at three a second. With no healthy answer at all the refused request
   * counts as one. `answers` is how many the rate rests on.
   */
  private acceptedRate(now: number): { rate: number; answers: number } {
    const from = Math.max(now - RATE_WINDOW_MS, this.firstGrant ?? now, this.lastCut);
    while (this.acceptedHead < this.accepted.length && (this.accepted[this.acceptedHead] as number) <= now - RATE_WINDOW_MS) this.acceptedHead += 1;
    if (this.acceptedHead > 4096) {
      this.accepted.splice(0, this.acceptedHead);
      this.acceptedHead = 0;
    }
    while (this.gapsHead < this.gaps.length && (this.gaps[this.gapsHead + 1] as number) <= from) this.gapsHead += 2;
    if (this.gapsHead > 4096) {
      this.gaps.splice(0, this.gapsHead);
      this.gapsHead = 0;
    }
    // The union of the gaps within [from, now] (they come in order of start, and may overlap).
    let covered = from;
    let left = 0;
    for (let i = this.gapsHead; i < this.gaps.length; i += 2) {
      const start = Math.max(this.gaps[i] as number, covered);
      const end = Math.min(this.gaps[i + 1] as number, now);
      if (end > start) left += end - start;
      covered = Math.max(covered, end);
    }
    const span = Math.max(1, now - from - left);
    let first = this.acceptedHead;
    while (first < this.accepted.length && (this.accepted[first] as number) <= from) first += 1;
    const answers = this.accepted.length - first;
    return { rate: (Math.max(1, answers) * 1000) / span, answers };
  }

  /** `waited`: the request was not granted at once (on the pace or the limit). */
  private slot(waited: boolean): Slot {
    const epoch = this.epoch;
    // At the limit when granted: only then does a healthy answer say the limit could be higher.
    const saturated = this.inFlight >= this.limitNow;
    let released = false;
    return {
      release: (signal, retryAfterMs) => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.observe(signal, epoch, saturated, retryAfterMs, waited);
        this.dispatch();
        if (this.inFlight === 0 && this.ring.length === 0) this.idleSince ??= this.now();
      },
    };
  }

  private observe(signal: Signal, epoch: number, saturated: boolean, retryAfterMs: number | undefined, waited: boolean): void {
    // A fixed limit is a ceiling, not a promise: a 429 sets the pace as in
    // `auto` (issue 35: four shards at a fixed 8 against one account's limit
    // had 81% answered 429), but the limit in flight never moves.
    if (!this.adaptive && signal !== 'healthy' && signal !== 'limited') return;
    const now = this.now();
    if (signal === 'healthy') {
      this.accepted.push(now);
      this.answered += 1;
      if (epoch === this.epoch) this.sinceCut += 1;
      // Requests waiting on the pace (not on the limit): the pace may be low.
      if (now >= this.holdUntil) this.growPace(now, waited);
    }
    if (signal === 'limited') {
      // A rate limit is met by the pace, not by the limit in flight: the limit
      // stays and keeps growing as it did.
      // One cut of the pace per overload: 429s to requests sent before it say nothing new.
      if (epoch !== this.epoch) return;
      this.epoch += 1;
      const { rate: accepted, answers } = this.acceptedRate(now);
      if (this.rate === Infinity) {
        // The first: the sustained rate the answers so far say; slow start when they are too few to say it.
        this.rate = Math.max(MIN_RATE, this.firstEstimate(now, retryAfterMs));
        this.probing = this.answered < MIN_SAMPLES;
      } else {
        // What the service accepted, when enough answers since the last cut say it; else the pace
        // itself, cut deep when the 429 came before five answers since the last cut.
        const measured = answers >= MIN_SAMPLES;
        const from = measured ? Math.min(this.rate, accepted) : this.rate;
        const cut = !measured && this.sinceCut < MIN_SAMPLES ? PACE_DEEP_DECREASE : PACE_DECREASE - PACE_JITTER * this.random();
        this.rate = Math.max(MIN_RATE, cut * from);
        this.probing = false;
      }
      this.sinceCut = 0;
      // The requests still in flight were sent at the old pace and will spend what the service
      // refills first: they count against the new pace, or the next requests meet an empty allowance.
      // In slow start the pace is a guess, not a measure of the service: the
      // service's own Retry-After bounds that wait (a random 429 with eight in
      // flight stalled a run for 8 s at the pace of 1/s).
      const spend = (this.inFlight * 1000) / this.rate;
      this.nextStart = Math.max(this.nextStart, now + (this.probing ? Math.min(spend, retryAfterMs ?? DEFAULT_GROW_EVERY_MS) : spend));
      this.stats.rate = this.rate;
      this.stats.decreases += 1;
      this.stats.paceCuts += 1;
      this.lastRateChange = now;
      this.lastCut = now;
      this.trace?.(`limiter: 429 at ${this.at(now)}: pace ${this.rate.toFixed(1)}/s (accepted ${accepted.toFixed(1)}/s over ${answers} answers)`);
      // The refused request waits out its own Retry-After (src/api/retry.ts); the others go on at the new pace.
      return;
    }
    if (!this.adaptive) return;
    if (signal === 'overloaded' && retryAfterMs !== undefined && retryAfterMs > 0) this.pause(now, retryAfterMs);
    if (signal === 'overloaded') {
      // One cut per overload: answers to requests sent before the cut say nothing new.
      if (epoch !== this.epoch) return;
      this.epoch += 1;
      this.healthy = 0;
      this.growEveryMs = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : DEFAULT_GROW_EVERY_MS;
      this.lastChange = now;
      this.setLimit(Math.max(1, Math.floor(this.limitNow * DECREASE)));
      this.stats.decreases += 1;
      this.trace?.(`limiter: overload at ${this.at(now)}: limit ${this.limitNow}`);
    } else if (signal === 'healthy' && saturated && epoch === this.epoch && now >= this.holdUntil) {
      this.healthy += 1;
      if (this.healthy >= this.limitNow * this.peers && this.limitNow < this.max && now - this.lastChange >= this.growEveryMs) {
        this.healthy = 0;
        this.lastChange = now;
        this.setLimit(this.limitNow + 1);
      }
    }
  }

  /** Pause every new request for `ms`; no growth for as long again after it. */
  private pause(now: number, ms: number): void {
    const until = now + ms;
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      this.holdUntil = until + ms;
      this.stats.pauses += 1;
      this.addGap(now, until);
      this.trace?.(`limiter: pause at ${this.at(now)} for ${ms} ms`);
    }
  }

  /** `now` as seconds since the first request, for the trace. */
  private at(now: number): string {
    return `+${((now - (this.firstGrant ?? now)) / 1000).toFixed(3)}s`;
  }

  /** One line of what the limiter did, for RCSCTL_DEBUG=limiter. */
  summary(): string {
    const s = this.stats;
    const mode = this.adaptive ? `auto (cap ${this.max}${this.peers > 1 ? `, ramping as 1 of ${this.peers} sharing the account` : ''})` : `fixed ${this.max}`;
    const pace = s.rate === Infinity ? 'none' : `${s.rate.toFixed(1)}/s`;
    return `limiter: ${mode}, limit ${s.limit} (peak ${s.peak}), pace ${pace}, ${s.paceCuts} pace cuts, ${s.decreases - s.paceCuts} limit cuts, ${s.pauses} pauses`;
  }

  /**
   * Raise the pace while requests wait on it: by PACE_GROWTH of itself a
   * second (at least MIN_PACE_STEP), times the PACE_SPEEDUP_MS periods
   * since the last cut (at least 1, at most MAX_SPEEDUP); in slow start, twice
   * itself a second. Only time with requests waiting (queued, or the answered one kept waiting)
   * counts: the time since the last raise, at most GROWTH_CREDIT_MS or two
   * of the pace's intervals.
   */
  private growPace(now: number, waited: boolean): void {
    // One request after another, each waiting on the pace, is as much a
    // reason to grow as a queue (issue 35: a sequential apply after one random
    // 429 stayed at a request a second).
    if (this.rate === Infinity || (this.ring.length === 0 && !waited)) return;
    const dt = Math.min(Math.max(GROWTH_CREDIT_MS, 2000 / this.rate), now - this.lastRateChange);
    this.lastRateChange = now;
    if (dt <= 0) return;
    if (this.probing) {
      this.rate *= 2 ** (dt / 1000);
      this.stats.rate = this.rate;
      return;
    }
    const speedup = Math.min(MAX_SPEEDUP, 2 ** Math.max(0, (now - this.lastCut - PACE_SPEEDUP_MS) / PACE_SPEEDUP_MS));
    this.rate += (Math.max(MIN_PACE_STEP, this.rate * PACE_GROWTH) * speedup * dt) / 1000;
    this.stats.rate = this.rate;
  }

  private setLimit(limit: number): void {
    this.limitNow = limit;
    this.stats.limit = limit;
    this.stats.peak = Math.max(this.stats.peak, limit);
  }

  /** Stop the pause timer (waiters left are never granted). */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
