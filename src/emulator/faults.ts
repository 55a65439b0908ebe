// Fault injection for service routes (never the admin API): reproducible from
// a seed through a small PRNG (mulberry32), one draw per matching rule per
// request, so the same seed and the same request sequence give the same faults.

import { RE2JS } from '@bufbuild/re2';
import { failEmulator } from './service-error.js';

/** Kinds of fault (docs/emulator.md, Faults). */
export type FaultKind = 'latency' | 'error' | 'rate-limit' | 'reset' | 'drop-after-commit';

/** One rule as posted to /_emulator/faults. */
export interface FaultRule {
  method?: string;
  /** An RE2 regular expression matched against the path (linear time: no backreference, no lookaround). */
  path?: string;
  kind: FaultKind;
  /** Probability in [0, 1]. */
  rate: number;
  /** error: the HTTP status (default 500). */
  status?: number;
  /** latency: milliseconds (default 100). */
  ms?: number;
  /** rate-limit: Retry-After seconds (default 1). */
  retryAfter?: number;
}

/** What the server does to one request. */
export interface FaultDecision {
  delayMs: number;
  /** The first non-latency rule that fired, if any. */
  fault?: FaultRule;
}

/** Bounds on admin input, so no rule can stall or break the server (*chosen*). */
const MAX_RULES = 100;
const MAX_PATH_PATTERN = 1000;
const MAX_FIELD: Record<'status' | 'ms' | 'retryAfter', number> = { status: 599, ms: 60_000, retryAfter: 3600 };

const KINDS: readonly FaultKind[] = ['latency', 'error', 'rate-limit', 'reset', 'drop-after-commit'];

/** The active rules and their PRNG. */
export class FaultPlan {
  private rules: (FaultRule & { re?: RE2JS })[] = [];
  private rand: () => number = () => 1;
  private seed = 0;

  /** Replace the rules; throws an admin error naming the bad field. */
  set(seed: unknown, rules: unknown): void {
    if (typeof seed !== 'number' || !Number.isInteger(seed)) failEmulator('badAdminRequest', 'seed must be an integer');
    if (!Array.isArray(rules)) failEmulator('badAdminRequest', 'rules must be a list');
    if (rules.length > MAX_RULES) failEmulator('badAdminRequest', `at most ${MAX_RULES} rules`);
    const parsed = rules.map((r, i) => parseRule(r, i));
    this.rules = parsed;
    this.seed = seed;
    this.rand = mulberry32(seed);
  }

  /** Remove every rule. */
  clear(): void {
    this.rules = [];
    this.rand = () => 1;
  }

  /** The rules as JSON, for the store dump. */
  toJSON(): unknown {
    return { seed: this.seed, rules: this.rules.map(({ re: _re, ...r }) => r) };
  }

  /** Decide the faults of one request. */
  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { delayMs: 0 };
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (rule.re !== undefined && !rule.re.test(path)) continue;
      if (this.rand() >= rule.rate) continue;
      if (rule.kind === 'latency') decision.delayMs += rule.ms ?? 100;
      else if (decision.fault === undefined) decision.fault = rule;
    }
    return decision;
  }
}

function parseRule(raw: unknown, i: number): FaultRule & { re?: RE2JS } {
  const bad = (why: string): never => failEmulator('badAdminRequest', `rules[${i}]: ${why}`);
  if (typeof raw !== 'object' || raw === null) bad('must be an object');
  const r = raw as Record<string, unknown>;
  if (!KINDS.includes(r.kind as FaultKind)) bad(`kind must be one of ${KINDS.join(', ')}`);
  if (typeof r.rate !== 'number' || r.rate < 0 || r.rate > 1) bad('rate must be a number from 0 to 1');
  const rule: FaultRule & { re?: RE2JS } = { kind: r.kind as FaultKind, rate: r.rate as number };
  if (r.method !== undefined) {
    if (typeof r.method !== 'string') bad('method must be a string');
    rule.method = (r.method as string).toUpperCase();
  }
  if (r.path !== undefined) {
    if (typeof r.path !== 'string') bad('path must be a string');
    if ((r.path as string).length > MAX_PATH_PATTERN) bad(`path must be at most ${MAX_PATH_PATTERN} characters`);
    // RE2, not RegExp: a pattern like ^/(a+)+$ would backtrack for seconds on
    // one request and stall every other request the emulator serves.
    try {
      rule.re = RE2JS.compile(r.path as string);
    } catch (err) {
      bad(`path is not a valid RE2 regular expression (${err instanceof Error ? err.message : String(err)})`);
    }
    rule.path = r.path as string;
  }
  for (const k of ['status', 'ms', 'retryAfter'] as const) {
    const v = r[k];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_FIELD[k]) bad(`${k} must be a whole number from 0 to ${MAX_FIELD[k]}`);
    rule[k] = v as number;
  }
  if (rule.status !== undefined && (rule.status < 400 || rule.status > 599)) bad('status must be 400 to 599');
  return rule;
}

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Highest rate limit the admin API accepts (*chosen*: far above what one emulator serves). */
const MAX_RATE = 1_000_000;

/**
 * The rate-limit fault: a token bucket per account of `perSecond` requests a
 * second, holding at most one second's worth, so a quiet account may burst
 * that much. A request finding the bucket empty is answered 429 with
 * Retry-After in whole seconds (at least 1) until a token is back. 0 is off.
 * Time is the process's monotonic clock, never the service clock the admin
 * API moves.
 */
export class RateLimit {
  private perSecond = 0;
  private buckets = new Map<string, { tokens: number; at: number }>();
  /** Requests let through and refused since the limit was last set. */
  private counts = { allowed: 0, limited: 0 };

  constructor(
    perSecond = 0,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.set(perSecond);
  }

  /** Set the limit (0: off); throws an admin error for anything but a whole number in range. Counters restart. */
  set(perSecond: unknown): void {
    if (typeof perSecond !== 'number' || !Number.isInteger(perSecond) || perSecond < 0 || perSecond > MAX_RATE) {
      failEmulator('badAdminRequest', `perSecond must be a whole number from 0 (off) to ${MAX_RATE}`);
    }
    this.perSecond = perSecond;
    this.buckets.clear();
    this.counts = { allowed: 0, limited: 0 };
  }

  /** The limit and its counters, for the admin API. */
  toJSON(): { perSecond: number; allowed: number; limited: number } {
    return { perSecond: this.perSecond, ...this.counts };
  }

  /** Take a token for `account`: undefined when the request may go on, else the Retry-After seconds. */
  take(account: string): number | undefined {
    if (this.perSecond === 0) return undefined;
    const now = this.clock();
    const bucket = this.buckets.get(account) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(account, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.counts.allowed += 1;
      return undefined;
    }
    this.counts.limited += 1;
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
