// The pure parts of the retry policy: backoff bounds and Retry-After parsing.

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { backoffMs, DEFAULT_RETRY, retryAfterMs, retryPolicy, withRetries } from '../../src/api/retry.js';

describe('backoff', () => {
  it('stays within [0, min(max, base * 2^(n-1))] for any retry and any random draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const ms = backoffMs(DEFAULT_RETRY, n, () => r);
        const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (n - 1));
        return ms >= 0 && ms <= ceiling;
      }),
    );
    expect(backoffMs(DEFAULT_RETRY, 1, () => 0.999)).toBeLessThanOrEqual(250);
    expect(backoffMs(DEFAULT_RETRY, 30, () => 0.999)).toBe(7992);
  });

  it('fills in defaults but keeps what is given', () => {
    expect(retryPolicy({ maxAttempts: 2, deadlineMs: undefined })).toEqual({ ...DEFAULT_RETRY, maxAttempts: 2 });
  });
});

describe('Retry-After', () => {
  it('reads delta seconds and HTTP dates, and ignores junk', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(['0.5'])).toBe(500);
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('withRetries', () => {
  const quick = { ...DEFAULT_RETRY, baseDelayMs: 1, maxDelayMs: 2 };

  it('stops after maxAttempts and throws the last attempt\'s error', async () => {
    const seen: number[] = [];
    let retries = 0;
    const run = withRetries(quick, async (n) => {
      seen.push(n);
      return { retry: new Error(`attempt ${n}`) };
    }, () => (retries += 1));
    await expect(run).rejects.toThrow('attempt 5');
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(retries).toBe(4);
  });

  it('does not spend an attempt on "again", but counts it as a retry', async () => {
    const seen: number[] = [];
    let retries = 0;
    const value = await withRetries(quick, async (n) => {
      seen.push(n);
      if (seen.length === 1) return { again: true };
      if (seen.length === 2) return { retry: new Error('x') };
      return { ok: 'done' };
    }, () => (retries += 1));
    expect(value).toBe('done');
    expect(seen).toEqual([1, 1, 2]);
    expect(retries).toBe(2);
  });

  it('gives up at once when Retry-After reaches past the deadline', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      let settled = false;
      const run = withRetries({ ...quick, deadlineMs: 1000 }, async () => {
        calls += 1;
        return { retry: new Error('limited'), retryAfterMs: 5000 };
      }).finally(() => (settled = true));
      run.catch(() => undefined);
      // No simulated time passes: a sleep first, to the deadline or the Retry-After, would leave it pending.
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(true);
      await expect(run).rejects.toThrow('limited');
      expect(calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a 429 spends no attempt: twenty in a row, then success (issue 35)', async () => {
    const seen: number[] = [];
    const value = await withRetries(quick, async (n) => {
      seen.push(n);
      return n <= 20 ? { retry: new Error('429'), retryAfterMs: 0, limited: true } : { ok: 'done' };
    });
    expect(value).toBe('done');
    expect(seen).toHaveLength(21);
  });

  it('429s do not spend the attempts of other failures, nor their 60 s: four 503s and many 429s still succeed', async () => {
    const value = await withRetries({ ...quick, deadlineMs: 50 }, async (n) => {
      if (n % 5 === 0 && n < 25) return { retry: new Error('503') };
      if (n < 25) return { retry: new Error('429'), retryAfterMs: 5, limited: true };
      return { ok: n };
    });
    expect(value).toBe(25);
  });

  it('429s stop at the rate-limit deadline, throwing the 429', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const run = withRetries({ ...quick, rateLimitDeadlineMs: 10_000 }, async () => {
        calls += 1;
        return { retry: new Error('still limited'), retryAfterMs: 1000, limited: true };
      });
      run.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(20_000);
      await expect(run).rejects.toThrow('still limited');
      // Attempts at 0, 1 s, … 10 s; the next would start past the deadline.
      expect(calls).toBe(11);
    } finally {
      vi.useRealTimers();
    }
  });
});
