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
//
// Not every 429 is a limit: another tenant's burst or a carrier's hiccup
// refuses a share of requests whatever the rate, and cutting the pace on each
// drove it to the floor (issue 36: 5% of 429s at random made a controller
// pass 77 times as long). So a 429 must show that it follows the pace:
// - The first pace is set at once, and undone once the requests that were in
//   flight with its 429 have answered, when three or more were and at most a
//   quarter of them were refused too: a limit, its allowance spent, refuses
//   most of what was sent at the rate that spent it; chance refuses few. As
//   one of `peers`, none of them: shards ramp up so as to send little over
//   the limit they share, and it refused a fifth of one shard's requests in
//   flight (issue 38).
//   Two such lone 429s give the share that comes at random (lone 429s ÷
//   answers), and from then on a 429 sets or cuts nothing while the share of
//   429s in the last second (over at least 20 answers) is within twice it.
// - Each run of cuts is on trial over the next 40 answers to requests sent
//   after its first: when a quarter or more of them (of the last 20, or of
//   all once 8 or more were 429s) were refused, the 429s did not follow the
//   pace down, and the run is undone: the pace goes back to what it was
//   before it, and that share is the one that comes at random. Under a real
//   limit the cuts bring the pace under it and its 429s stop.
// - In slow start, a 429 within the last cut's Retry-After and before five
//   answers since it cuts nothing: shards joining an account their
//   neighbours spent met the neighbours' overload, cut four times in half a
//   second, and crawled alone after the others finished (issue 38).
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
/**
 * A first 429 whose pace is undone (*chosen*, by the model in
 * test/api/limiter-noise.test.ts): when SIBLINGS or more requests were in
 * flight with it and at most SIBLINGS_LIMITED of each of them were
 * answered 429 too. A real limit, its allowance spent, refuses most requests
 * sent at the rate that spent it (37–90% in bench/ratelimit.ts's runs); 429s
 * at random (5%) leave seven of eight in flight alone 96% of the time.
 */
const SIBLINGS = 3;
const SIBLINGS_LIMITED = 0.25;
/**
 * The same, as one of several processes sharing the account (`peers`): none
 * of the requests in flight with the first 429 refused (*chosen*, by the
 * shard model in test/api/limiter-shards.test.ts). A limit the shards share
 * refuses what all of them send over it, and the shards ramp up together so
 * as to send little over it when its allowance runs out: one shard's
 * requests in flight were refused a fifth at a time, 1 of 5, which a quarter
 * took for chance. The shard sent on unpaced, kept the account's bucket
 * empty, and its neighbours' paces were halved on each 429 until they
 * crawled (four shards starting together at 200 req/s: 0.80 of the limit).
 */
const PEER_SIBLINGS_LIMITED = 0;
/**
 * Answers to requests sent after a cut that judge it (*chosen*, as
 * SIBLINGS): the share of 429s among the second half of them says
 * whether the 429s followed the pace down.
 */
const TRIAL_ANSWERS = 40;
/**
 * A cut is undone when the share of 429s in the second half of its trial is
 * at least this (*chosen*, as SIBLINGS): under a real limit the cuts
 * bring the pace under it and its 429s stop; 429s that stay at a quarter or
 * more whatever the pace do not follow it (fewer, at random, are seen by the
 * first pace's check and the share check; a real limit's cuts by shards of
 * one account left up to a fifth of a trial's last 20 answers refused in the
 * shard model, and 0.25 undid none of them).
 */
const NOISE_SHARE = 0.25;
/** A trial ends early, the cuts undone, once this many of its answers were 429s, NOISE_SHARE or more of them (*chosen*, as SIBLINGS). */
const TRIAL_LIMITED = 8;
/** While 429s at random are known, a 429 counts only when the share of 429s in the last window is over this multiple of theirs (*chosen*). */
const NOISE_MARGIN = 2;
/** The share of 429s in the last window counts at least this many answers (*chosen*): one 429 among three answers is not a third refused. */
const SHARE_SAMPLES = 20;

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
  /** 429s that set and cut nothing: within the share known to come at random, or in slow start within the last cut's Retry-After. */
  ignored: number;
  /** Cuts undone: the share of 429s did not fall after them. */
  paceUndos: number;
  /** The share of 429s known to come whatever the pace (0: none known). */
  noise: number;
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
  /** No cut of the pace before this: the last cut's Retry-After. */
  private cutHoldUntil = 0;
  /** Slow start: the pace doubles every second of waiting until the next 429 (after a first 429 with too few answers to measure). */
  private probing = false;
  /** Healthy answers since the first request, for the first 429's estimate. */
  private answered = 0;
  /** The union of the gaps so far, ms, and the end of the latest: busy time for the first 429's estimate. */
  private gapMs = 0;
  private gapEnd = 0;
  /** When 429s came in, for the share of 429s in the last window (oldest first). */
  private readonly refused: number[] = [];
  private refusedHead = 0;
  /** The share of 429s that did not follow the pace when it was cut (random ones, another tenant's): 0 until a cut is undone. */
  private noise = 0;
  /** First paces undone: lone 429s among the requests in flight with them. */
  private lone = 0;
  /** The first pace, until the requests that were in flight with its 429 (sent before it) have answered. */
  private first: { epoch: number; siblings: number; healthy: number; limited: number } | undefined;
  /** The cut on trial: the pace before the first cut of its run, and the answers to requests sent after it (the second half counted apart). */
  private trial: { rate: number; probing: boolean; epoch: number; healthy: number; limited: number; lateLimited: number } | undefined;
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
    this.stats = { limit: this.limitNow, peak: this.limitNow, decreases: 0, pauses: 0, paceCuts: 0, rate: Infinity, ignored: 0, paceUndos: 0, noise: 0 };
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
      if (this.first !== undefined && epoch < this.first.epoch) this.sibling(now, false);
      if (this.trial !== undefined && epoch >= this.trial.epoch) this.judge(now, false);
      // Requests waiting on the pace (not on the limit): the pace may be low.
      if (now >= this.holdUntil) this.growPace(now, waited);
    }
    if (signal === 'limited') {
      // A rate limit is met by the pace, not by the limit in flight: the limit
      // stays and keeps growing as it did.
      this.refused.push(now);
      if (this.first !== undefined && epoch < this.first.epoch) this.sibling(now, true);
      if (this.trial !== undefined && epoch >= this.trial.epoch) this.judge(now, true);
      // One cut of the pace per overload: 429s to requests sent before it say nothing new.
      if (epoch !== this.epoch) return;
      // In slow start, a 429 within the last cut's Retry-After and before five answers since it
      // is the account's overload still going on (shards joining an account their neighbours
      // spent): cut on it, and the next, and a shard's pace fell four times in half a second
      // to a crawl it never left while its neighbours finished.
      if (this.probing && now < this.cutHoldUntil && this.sinceCut < MIN_SAMPLES) {
        this.stats.ignored += 1;
        return;
      }
      const share = this.refusedShare(now);
      if (this.noise > 0 && share <= NOISE_MARGIN * this.noise) {
        // No more 429s than come whatever the pace: cutting it would not make them fewer.
        this.stats.ignored += 1;
        this.trace?.(`limiter: 429 at ${this.at(now)}: ${(share * 100).toFixed(1)}% answered 429, within the ${(this.noise * 100).toFixed(1)}% that do not follow the pace`);
        return;
      }
      this.epoch += 1;
      this.trial ??= { rate: this.rate, probing: this.probing, epoch: this.epoch, healthy: 0, limited: 0, lateLimited: 0 };
      const { rate: accepted, answers } = this.acceptedRate(now);
      if (this.rate === Infinity) {
        // The first: the sustained rate the answers so far say; slow start when they are too few to say it.
        this.rate = Math.max(MIN_RATE, this.firstEstimate(now, retryAfterMs));
        this.probing = this.answered < MIN_SAMPLES;
        // The requests in flight with it were sent at the same rate: a limit refuses most of them, chance few.
        this.first = this.inFlight >= SIBLINGS ? { epoch: this.epoch, siblings: this.inFlight, healthy: 0, limited: 0 } : undefined;
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
      this.cutHoldUntil = now + (retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : DEFAULT_GROW_EVERY_MS);
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

  /**
   * The share of 429s among the answers of the last window (this one
   * included), over at least SHARE_SAMPLES answers: a lone 429 among a few is
   * not a large share.
   */
  private refusedShare(now: number): number {
    while (this.refusedHead < this.refused.length && (this.refused[this.refusedHead] as number) <= now - RATE_WINDOW_MS) this.refusedHead += 1;
    if (this.refusedHead > 4096) {
      this.refused.splice(0, this.refusedHead);
      this.refusedHead = 0;
    }
    let first = this.acceptedHead;
    while (first < this.accepted.length && (this.accepted[first] as number) <= now - RATE_WINDOW_MS) first += 1;
    const limited = this.refused.length - this.refusedHead;
    return limited / Math.max(SHARE_SAMPLES, limited + this.accepted.length - first);
  }

  /**
   * Count an answer to a request that was in flight with the first 429; once
   * all have answered, judge the first pace: with SIBLINGS or more of them and
   * at most SIBLINGS_LIMITED of them refused too (none, as one of `peers`), the 429 came alone: chance,
   * not a limit (a limit refuses what was sent at the rate that met it). The
   * pace is undone; two such say how many 429s come at random.
   */
  private sibling(now: number, refused: boolean): void {
    const first = this.first as NonNullable<Limiter['first']>;
    if (refused) first.limited += 1;
    else first.healthy += 1;
    if (first.healthy + first.limited < first.siblings) return;
    this.first = undefined;
    if (first.limited > (this.peers > 1 ? PEER_SIBLINGS_LIMITED : SIBLINGS_LIMITED) * first.siblings || this.epoch !== first.epoch) return;
    this.lone += 1;
    if (this.lone >= 2) this.setNoise(Math.max(this.noise, this.lone / (this.lone + this.answered)));
    this.trial = undefined;
    this.rate = Infinity;
    this.probing = false;
    this.nextStart = 0;
    this.stats.rate = Infinity;
    this.stats.paceUndos += 1;
    this.rewake();
    this.trace?.(`limiter: first pace undone at ${this.at(now)}: ${first.limited} of the ${first.siblings} requests in flight with its 429 refused${this.noise > 0 ? `; ${(this.noise * 100).toFixed(1)}% come at random` : ''}`);
  }

  /**
   * Count an answer to a request sent after the cut on trial; once
   * TRIAL_ANSWERS came, judge it: when NOISE_SHARE or more of the second half
   * were 429s, the 429s did not follow the pace down (random ones, another
   * tenant's): the cuts are undone, and that share is the noise under which
   * later 429s cut nothing. Else the cuts stand.
   */
  private judge(now: number, refused: boolean): void {
    const trial = this.trial as NonNullable<Limiter['trial']>;
    const n = trial.healthy + trial.limited;
    if (refused) {
      trial.limited += 1;
      if (n >= TRIAL_ANSWERS / 2) trial.lateLimited += 1;
    } else trial.healthy += 1;
    const share = trial.limited / (n + 1);
    // Many 429s after the cuts, and no fewer as the pace fell: no need to wait for the rest.
    const early = trial.limited >= TRIAL_LIMITED && share >= NOISE_SHARE;
    if (n + 1 < TRIAL_ANSWERS && !early) return;
    this.trial = undefined;
    const late = early ? share : trial.lateLimited / (TRIAL_ANSWERS / 2);
    if (late < NOISE_SHARE) {
      // The 429s followed the pace: a real limit. What was taken for noise was less than this.
      if (this.noise > 0 && late < this.noise / 2) this.setNoise(this.noise / 2);
      return;
    }
    this.setNoise(this.noise === 0 ? late : (this.noise + late) / 2);
    this.rate = trial.rate;
    this.probing = trial.probing;
    this.stats.rate = this.rate;
    this.stats.paceUndos += 1;
    this.lastRateChange = now;
    if (this.rate === Infinity) this.nextStart = 0;
    this.nextStart = Math.min(this.nextStart, now + 1000 / this.rate);
    this.rewake();
    this.trace?.(`limiter: cut undone at ${this.at(now)}: ${(late * 100).toFixed(1)}% answered 429 after it; pace ${this.rate === Infinity ? 'none' : `${this.rate.toFixed(1)}/s`}`);
  }

  /** The wait on the pace was for a slower one: dispatch anew (the caller's release does). */
  private rewake(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setNoise(share: number): void {
    this.noise = share < 0.01 ? 0 : share;
    this.stats.noise = this.noise;
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
    const noise = s.paceUndos > 0 || s.noise > 0 ? `, ${s.paceUndos} pace cuts undone, ${(s.noise * 100).toFixed(1)}% of 429s at random` : '';
    return `limiter: ${mode}, limit ${s.limit} (peak ${s.peak}), pace ${pace}, ${s.paceCuts} pace cuts, ${s.decreases - s.paceCuts} limit cuts, ${s.pauses} pauses${noise}`;
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
