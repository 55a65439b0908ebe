// When and how long to wait before trying a request again: capped, fully
// jittered exponential backoff (so a crowd of clients does not retry in step),
// Retry-After honoured, and a total deadline across all attempts.

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

/** Sleep for `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
