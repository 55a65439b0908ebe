// The one limit on requests in flight for the whole process, shared by every
// brand: a fixed number, or `auto`, which finds the service's limit by AIMD
// and honours Retry-After by pausing every new request until then. Waiting
// requests are served round-robin by brand, so a brand with a thousand
// requests queued does not hold back a brand with five.
//
// AIMD here: start at 4; add one per window of healthy answers taken at the
// limit; on 503 (an overload) cut to four fifths, once per overload, and
// after it grow by at most one per Retry-After period, the service's own time
// scale. (Netflix's concurrency-limits AIMD backs off to 0.9; TCP Reno to 0.5.)
//
// A 429 is a rate limit, and a limit on requests in flight cannot hold a rate:
// against a service 20 ms away one request at a time is already 50 a second,
// against a fast one hundreds. So a 429 sets a pace instead: the rate the
// service accepted in the second before it (healthy answers in that second),
// cut to nine tenths, once per overload, then raised by a tenth per
// Retry-After period while requests wait for their turn. Requests start no
// closer together than the pace; there is no pace (no spacing at all) until
// the first 429. A service with a burst allowance (a token bucket) hides an
// excess until the bucket is empty, and refills it during a pause: growth
// holds for a period after each pause.

/** How many requests may be in flight. */
export type ConcurrencySetting = { mode: 'fixed'; limit: number } | { mode: 'auto'; max: number; start?: number };

/** Where `auto` starts (*chosen*: low enough that a strict limit costs few 429s). */
export const AUTO_START = 4;
/** The default cap of `auto` (`--max-concurrency`). */
export const DEFAULT_MAX_CONCURRENCY = 32;
/** Multiplicative decrease on overload (*chosen*, by bench/ratelimit.ts). */
const DECREASE = 0.8;
/** The pace's slowest rate, requests a second. */
const MIN_RATE = 1;
/** The pace after a 429, as a share of the rate accepted before it (*chosen*, by bench/ratelimit.ts: 0.8 left a slow service's allowance unused for seconds). */
const PACE_DECREASE = 0.9;
/** How far the pace grows per period of requests waiting on it (*chosen*, by bench/ratelimit.ts). */
const RATE_GROWTH = 0.1;
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
}

/** The limiter. */
export class Limiter {
  private limitNow: number;
  private readonly max: number;
  private readonly adaptive: boolean;
  private inFlight = 0;
  /** Healthy answers since the last change of the limit. */
  private healthy = 0;
  /** Bumped on every decrease: a slot granted before it does not cut again. */
  private epoch = 0;
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
  private lastRateChange = 0;
  /** At most one raise of the pace per this many ms: the last Retry-After period. */
  private paceEveryMs = DEFAULT_GROW_EVERY_MS;
  /** When healthy answers came in, for the accepted rate (oldest first, trimmed to the window). */
  private readonly accepted: number[] = [];
  private acceptedHead = 0;
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
  ) {
    this.adaptive = setting.mode === 'auto';
    this.max = setting.mode === 'auto' ? setting.max : setting.limit;
    this.limitNow = setting.mode === 'auto' ? Math.min(this.max, setting.start ?? AUTO_START) : setting.limit;
    this.stats = { limit: this.limitNow, peak: this.limitNow, decreases: 0, pauses: 0, paceCuts: 0, rate: Infinity };
  }

  /** The most requests this limiter will ever have in flight (connections to open). */
  get ceiling(): number {
    return this.max;
  }

  /** Wait for a slot; `key` (a brand id) decides whose turn it is. */
  acquire(key: string): Promise<Slot> {
    return new Promise<Slot>((grant) => {
      let queue = this.queues.get(key);
      if (queue === undefined) {
        queue = [];
        this.queues.set(key, queue);
        this.ring.push(key);
      }
      queue.push({ grant });
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
        // No credit for idle time: the pace never bursts.
        this.nextStart = Math.max(now, this.nextStart) + 1000 / this.rate;
      }
      this.firstGrant ??= now;
      const key = this.ring.shift() as string;
      const queue = this.queues.get(key) as Waiter[];
      const waiter = queue.shift() as Waiter;
      if (queue.length > 0) this.ring.push(key);
      else this.queues.delete(key);
      this.inFlight += 1;
      waiter.grant(this.slot());
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

  /** Healthy answers per second over the last window (or since the first request, when that is shorter). */
  private acceptedRate(now: number): number {
    while (this.acceptedHead < this.accepted.length && (this.accepted[this.acceptedHead] as number) <= now - RATE_WINDOW_MS) this.acceptedHead += 1;
    if (this.acceptedHead > 4096) {
      this.accepted.splice(0, this.acceptedHead);
      this.acceptedHead = 0;
    }
    const span = Math.min(RATE_WINDOW_MS, Math.max(1, now - (this.firstGrant ?? now)));
    return ((this.accepted.length - this.acceptedHead) * 1000) / span;
  }

  private slot(): Slot {
    const epoch = this.epoch;
    // At the limit when granted: only then does a healthy answer say the limit could be higher.
    const saturated = this.inFlight >= this.limitNow;
    let released = false;
    return {
      release: (signal, retryAfterMs) => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.observe(signal, epoch, saturated, retryAfterMs);
        this.dispatch();
      },
    };
  }

  private observe(signal: Signal, epoch: number, saturated: boolean, retryAfterMs: number | undefined): void {
    // A fixed limit behaves as it always has: each request waits out its own Retry-After.
    if (!this.adaptive) return;
    const now = this.now();
    if (signal === 'healthy') {
      this.accepted.push(now);
      // Requests waiting on the pace (not on the limit): the pace may be low.
      if (now >= this.holdUntil) this.growPace(now);
    }
    if (signal === 'limited') {
      // A rate limit is met by the pace, not by the limit in flight: the limit
      // stays and keeps growing as it did.
      // One cut of the pace per overload: 429s to requests sent before it say nothing new.
      if (epoch !== this.epoch) return;
      this.epoch += 1;
      const accepted = this.acceptedRate(now);
      this.rate = Math.max(MIN_RATE, PACE_DECREASE * Math.min(this.rate, accepted));
      this.stats.rate = this.rate;
      this.stats.decreases += 1;
      this.stats.paceCuts += 1;
      this.lastRateChange = now;
      this.trace?.(`limiter: 429 at ${this.at(now)}: pace ${this.rate.toFixed(1)}/s (accepted ${accepted.toFixed(1)}/s)`);
      if (retryAfterMs !== undefined && retryAfterMs > 0) {
        this.paceEveryMs = retryAfterMs;
        this.pause(now, retryAfterMs);
      }
      return;
    }
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
      if (this.healthy >= this.limitNow && this.limitNow < this.max && now - this.lastChange >= this.growEveryMs) {
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
    const mode = this.adaptive ? `auto (cap ${this.max})` : `fixed ${this.max}`;
    const pace = s.rate === Infinity ? 'none' : `${s.rate.toFixed(1)}/s`;
    return `limiter: ${mode}, limit ${s.limit} (peak ${s.peak}), pace ${pace}, ${s.paceCuts} pace cuts, ${s.decreases - s.paceCuts} limit cuts, ${s.pauses} pauses`;
  }

  /** Raise the pace by a tenth (at least one a second), once per Retry-After period, while requests wait on it. */
  private growPace(now: number): void {
    if (this.rate === Infinity || this.ring.length === 0 || now - this.lastRateChange < this.paceEveryMs) return;
    this.rate += Math.max(1, this.rate * RATE_GROWTH);
    this.stats.rate = this.rate;
    this.lastRateChange = now;
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
