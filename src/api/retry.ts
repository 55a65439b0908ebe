// When and how long to wait before trying a request again: capped, fully
// jittered exponential backoff (so a crowd of clients does not retry in step),
// Retry-After honoured, and a total deadline across all attempts. A 429 is no
// failure: the service did not act and says when to come back, so it spends
// no attempt and is tried again after its Retry-After until the rate-limit
// deadline, whatever the concurrency setting (issue 35). The transport
// supplies one attempt; `withRetries` decides whether there is another.

/** Retry settings; every field has a default. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 5. */
  maxAttempts?: number;
  /** First backoff ceiling. Default 250 ms. */
  baseDelayMs?: number;
  /** Largest backoff ceiling. Default 8 s. */
  maxDelayMs?: number;
  /** No attempt starts later than this after the first, time spent on 429s not counted. Default 60 s. */
  deadlineMs?: number;
  /**
   * A request answered 429 is tried again (after its Retry-After) while the
   * next attempt starts within this long of its first; 429s spend none of
   * `maxAttempts`. Default 10 min.
   */
  rateLimitDeadlineMs?: number;
}

/** RetryOptions with the defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults, documented in docs/configuration.md. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 8000, deadlineMs: 60_000, rateLimitDeadlineMs: 600_000 };

/** Fill in defaults. */
export function retryPolicy(opts: RetryOptions | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY, ...Object.fromEntries(Object.entries(opts ?? {}).filter(([, v]) => v !== undefined)) };
}

/** HTTP statuses worth another try: rate limited, or a gateway that may do better next time. */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Backoff before retry number `retry` (1 for the first retry): uniform in [0, min(max, base·2^(retry-1))]. */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After as milliseconds (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What one attempt came to. Failures that no retry can mend are thrown by the attempt itself. */
export type AttemptResult<T> =
  /** Done: the answer. */
  | { ok: T }
  /**
   * Failed in a way another attempt may mend; `error` is thrown once the
   * budget is spent. `limited`: a 429, retried until the rate-limit deadline
   * without spending an attempt.
   */
  | { retry: Error; retryAfterMs?: number; limited?: boolean }
  /** Try again at once without spending an attempt (a renewed credential). */
  | { again: true };

/**
 * Run `attempt` (numbered from 1, every attempt counted) until it succeeds,
 * throws, or the budget is spent, waiting Retry-After when given and backoff
 * otherwise. Failures other than 429: at most `maxAttempts` attempts, none
 * started later than `deadlineMs` after the first (the time a 429 took, from
 * its attempt to the end of its wait, not counted). 429s: any number, none
 * started later than `rateLimitDeadlineMs` after the first.
 * `onRetry` is told of every attempt beyond the first.
 */
export async function withRetries<T>(policy: RetryPolicy, attempt: (n: number) => Promise<AttemptResult<T>>, onRetry: () => void = () => undefined): Promise<T> {
  const start = Date.now();
  /** Attempts that spent the budget, and 429s in a row (for backoff without Retry-After). */
  let failures = 0;
  let limitedInRow = 0;
  /** Time spent on 429s, which the ordinary deadline does not count. */
  let limitedMs = 0;
  let n = 0;
  for (;;) {
    n += 1;
    const began = Date.now();
    const result = await attempt(n);
    if ('ok' in result) return result.ok;
    if ('again' in result) {
      n -= 1;
      onRetry();
      continue;
    }
    if (result.limited === true) {
      limitedInRow += 1;
      const delay = result.retryAfterMs ?? backoffMs(policy, limitedInRow);
      if (Date.now() + delay > start + policy.rateLimitDeadlineMs) throw result.retry;
      await sleep(delay);
      limitedMs += Date.now() - began;
      onRetry();
      continue;
    }
    limitedInRow = 0;
    failures += 1;
    if (failures >= policy.maxAttempts) throw result.retry;
    const delay = result.retryAfterMs ?? backoffMs(policy, failures);
    if (Date.now() + delay > start + limitedMs + policy.deadlineMs) throw result.retry;
    await sleep(delay);
    onRetry();
  }
}

/** Sleep for `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
