// When and how long to wait before trying a request again: capped, fully
// jittered exponential backoff (so a crowd of clients does not retry in step),
// Retry-After honoured, and a total deadline across all attempts. The
// transport supplies one attempt; `withRetries` decides whether there is another.

/** Retry settings; every field has a default. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 5. */
  maxAttempts?: number;
  /** First backoff ceiling. Default 250 ms. */
  baseDelayMs?: number;
  /** Largest backoff ceiling. Default 8 s. */
  maxDelayMs?: number;
  /** No attempt starts later than this after the first. Default 60 s. */
  deadlineMs?: number;
}

/** RetryOptions with the defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults, documented in docs/configuration.md. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 8000, deadlineMs: 60_000 };

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
  /** Failed in a way another attempt may mend; `error` is thrown once the budget is spent. */
  | { retry: Error; retryAfterMs?: number }
  /** Try again at once without spending an attempt (a renewed credential). */
  | { again: true };

/**
 * Run `attempt` (numbered from 1) until it succeeds, throws, or the budget is
 * spent: at most `maxAttempts` attempts, none started later than `deadlineMs`
 * after the first, waiting Retry-After when given and backoff otherwise.
 * `onRetry` is told of every attempt beyond the first.
 */
export async function withRetries<T>(policy: RetryPolicy, attempt: (n: number) => Promise<AttemptResult<T>>, onRetry: () => void = () => undefined): Promise<T> {
  const deadline = Date.now() + policy.deadlineMs;
  let n = 0;
  for (;;) {
    n += 1;
    const result = await attempt(n);
    if ('ok' in result) return result.ok;
    if ('again' in result) {
      n -= 1;
      onRetry();
      continue;
    }
    if (n >= policy.maxAttempts) throw result.retry;
    const delay = result.retryAfterMs ?? backoffMs(policy, n);
    if (Date.now() + delay > deadline) throw result.retry;
    await sleep(delay);
    onRetry();
  }
}

/** Sleep for `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
