// The controller's default retry backoff for a failed brand (docs/decisions.md,
// "Retrying a failed brand"): the first retry 2.5–5 s after the failure, each
// next one's ceiling doubled, capped at 5 minutes. The end-to-end recovery tests
// (test/controller/recovery.test.ts) pass a shorter base, so these bounds are checked here.

import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_BACKOFF, retryDelayMs } from '../../src/controller/retry-schedule.js';

describe('the default retry backoff of a failed brand', () => {
  it('is a 5 s base doubling up to 5 minutes', () => {
    expect(DEFAULT_RETRY_BACKOFF).toEqual({ baseMs: 5_000, maxMs: 300_000 });
  });

  it('draws the n-th wait in the upper half of min(5 min, 5 s·2^(n-1))', () => {
    const bounds: [number, number, number][] = [[1, 2_500, 5_000], [2, 5_000, 10_000], [3, 10_000, 20_000], [6, 80_000, 160_000], [7, 150_000, 300_000], [30, 150_000, 300_000], [200, 150_000, 300_000]];
    for (const [attempt, low, high] of bounds) {
      expect(retryDelayMs(DEFAULT_RETRY_BACKOFF, attempt, () => 0), `attempt ${attempt}`).toBe(low);
      expect(retryDelayMs(DEFAULT_RETRY_BACKOFF, attempt, () => 0.999999), `attempt ${attempt}`).toBe(high);
      const mid = retryDelayMs(DEFAULT_RETRY_BACKOFF, attempt, () => 0.5);
      expect(mid).toBeGreaterThanOrEqual(low);
      expect(mid).toBeLessThanOrEqual(high);
    }
  });
});
