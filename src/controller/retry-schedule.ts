// A failed brand is tried again by itself, with capped exponential backoff
// and jitter (as Argo CD's syncPolicy.retry): the n-th retry after
// `base·2^(n-1)` capped at `max`, drawn in the upper half of that ceiling, so
// the first comes within `base` and a crowd of brands failed together does not
// retry in step. A pass that succeeds resets the count (docs/decisions.md,
// "Retrying a failed brand").

/** The backoff's bounds. */
export interface RetryBackoff {
  /** The first retry's ceiling (default 5 s: the first retry comes 2.5–5 s after the failure). */
  baseMs: number;
  /** The largest wait (default 5 minutes). */
  maxMs: number;
}

/** The defaults (*chosen*, docs/decisions.md). */
export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { baseMs: 5_000, maxMs: 300_000 };

/** The wait before retry number `attempt` (1 for the first): uniform in [ceiling/2, ceiling], ceiling = min(max, base·2^(attempt-1)). */
export function retryDelayMs(backoff: RetryBackoff, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A brand's pending retry, as /status shows it. */
export interface RetryState {
  /** Passes failed in a row. */
  attempt: number;
  /** When the next one starts (ISO 8601). */
  nextAt: string;
}

/** The retries of every failed brand. */
export class RetrySchedule {
  private readonly pending = new Map<string, { attempt: number; nextAt: number; timer: NodeJS.Timeout | undefined }>();
  private stopped = false;

  constructor(
    private readonly backoff: RetryBackoff,
    /** Ask for the retry's pass. */
    private readonly due: (brandId: string) => void,
    private readonly random: () => number = Math.random,
  ) {}

  /** The brand's pass failed: count it and schedule the next try; what /status shows. */
  failed(brandId: string): RetryState {
    const prev = this.pending.get(brandId);
    if (prev?.timer !== undefined) clearTimeout(prev.timer);
    const attempt = (prev?.attempt ?? 0) + 1;
    const delay = retryDelayMs(this.backoff, attempt, this.random);
    const entry = { attempt, nextAt: Date.now() + delay, timer: undefined as NodeJS.Timeout | undefined };
    if (!this.stopped) {
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.due(brandId);
      }, delay);
    }
    this.pending.set(brandId, entry);
    return { attempt, nextAt: new Date(entry.nextAt).toISOString() };
  }

  /** The brand's pass succeeded (or it left the manifests): no retry, and the count starts again. */
  reset(brandId: string): void {
    const prev = this.pending.get(brandId);
    if (prev?.timer !== undefined) clearTimeout(prev.timer);
    this.pending.delete(brandId);
  }

  /** Brands waiting for a retry. */
  get size(): number {
    return this.pending.size;
  }

  /** No more retries (the controller is stopping). */
  stop(): void {
    this.stopped = true;
    for (const p of this.pending.values()) if (p.timer !== undefined) clearTimeout(p.timer);
  }
}
