// `--concurrency N|auto` and `--max-concurrency N`: parsed once, refused with
// the flag named, and accepted by a real run.

import { describe, expect, it } from 'vitest';
import { concurrencyValue } from '../../src/cli/options.js';
import { cli, EXAMPLE } from './helpers.js';

describe('--concurrency and --max-concurrency', () => {
  it('a number is a fixed limit; auto is adaptive with a cap (default 32)', () => {
    expect(concurrencyValue('8', undefined)).toEqual({ setting: { mode: 'fixed', limit: 8 }, fanOut: 8 });
    expect(concurrencyValue('auto', undefined)).toEqual({ setting: { mode: 'auto', max: 32 }, fanOut: 32 });
    expect(concurrencyValue('auto', '6')).toEqual({ setting: { mode: 'auto', max: 6 }, fanOut: 6 });
  });

  it('refuses what is neither, naming the flag', () => {
    expect(() => concurrencyValue('fast', undefined)).toThrow('--concurrency must be "auto" or a whole number from 1 to 64, not "fast"');
    expect(() => concurrencyValue('0', undefined)).toThrow('--concurrency must be');
    expect(() => concurrencyValue('65', undefined)).toThrow('--concurrency must be');
    expect(() => concurrencyValue('auto', '100')).toThrow('--max-concurrency must be a whole number from 1 to 64, not "100"');
    expect(() => concurrencyValue('8', '16')).toThrow('--max-concurrency caps --concurrency auto');
  });

  it('plan runs with auto and a cap, and a bad value is a usage error', async () => {
    const ok = await cli(['--sandbox', 'plan', EXAMPLE, '--concurrency', 'auto', '--max-concurrency', '6']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const bad = await cli(['--sandbox', 'plan', EXAMPLE, '--concurrency', 'lots']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--concurrency must be "auto" or a whole number');
  });
});
