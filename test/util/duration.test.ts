import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/util/duration.js';

describe('parseDuration', () => {
  it('reads every unit, a bare number as seconds', () => {
    expect([parseDuration('0'), parseDuration('500ms'), parseDuration('30s'), parseDuration('5m'), parseDuration('1h'), parseDuration('2')]).toEqual([0, 500, 30_000, 300_000, 3_600_000, 2000]);
    expect(parseDuration('14d', { maxMs: 30 * 86_400_000 })).toBe(14 * 86_400_000);
  });

  it('names the option it was given for, and its bound', () => {
    expect(() => parseDuration('soon')).toThrow(/--lock-timeout must be a duration/);
    expect(() => parseDuration('48h')).toThrow(/at most 24h/);
    expect(() => parseDuration('soon', { option: '--interval' })).toThrow(/--interval must be a duration/);
    expect(() => parseDuration('40d', { option: '--review-warning', maxMs: 30 * 86_400_000 })).toThrow(/--review-warning is at most 30d/);
  });
});
