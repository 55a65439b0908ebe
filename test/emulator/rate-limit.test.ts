// The rate-limit fault: a token bucket per account, 429 69001 with Retry-After
// in whole seconds beyond it; set at start, by the admin API or by
// `rcsctl emulator --rate-limit`.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RateLimit } from '../../src/emulator/faults.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { AGENCY, BRAND, BRAND_KEY, admin, call, errorOf, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const CB = `/api/1.1/brand/${BRAND}/chatbot`;

describe('RateLimit (the bucket, on a clock the test moves)', () => {
  it('lets a full bucket through, refuses beyond it, and refills at the rate', () => {
    let now = 0;
    const limit = new RateLimit(4, () => now);
    const takes = () => Array.from({ length: 6 }, () => limit.take('a'));
    expect(takes()).toEqual([undefined, undefined, undefined, undefined, 1, 1]);
    now = 500; // half a second: two tokens back
    expect(takes()).toEqual([undefined, undefined, 1, 1, 1, 1]);
    now = 10_000; // a long pause refills one second's worth, no more
    expect(takes()).toEqual([undefined, undefined, undefined, undefined, 1, 1]);
    expect(limit.toJSON()).toEqual({ perSecond: 4, allowed: 10, limited: 8 });
  });

  it('keeps one bucket per account', () => {
    const limit = new RateLimit(1, () => 0);
    expect([limit.take('a'), limit.take('a'), limit.take('b'), limit.take('b')]).toEqual([undefined, 1, undefined, 1]);
  });

  it('says how many whole seconds until a token is back (at least 1)', () => {
    let now = 0;
    const limit = new RateLimit(1, () => now);
    limit.set(1);
    expect(limit.take('a')).toBeUndefined();
    now = 100;
    expect(limit.take('a')).toBe(1);
    const slow = new RateLimit(0, () => 0);
    expect(slow.take('a')).toBeUndefined(); // 0 is off
  });

  it('refuses a limit that is not a whole number in range', () => {
    const limit = new RateLimit();
    for (const bad of [-1, 1.5, '10', null, 2_000_000]) expect(() => limit.set(bad)).toThrow(/perSecond must be a whole number from 0/);
  });
});

describe('the rate limit over HTTP', () => {
  it('answers 429 69001 with Retry-After beyond the limit, per account, and counts both', async () => {
    expect((await admin(emu, 'POST', 'rate-limit', { perSecond: 2 })).body).toEqual({ perSecond: 2, allowed: 0, limited: 0 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(emu, 'GET', CB)));
    const limited = answers.filter((a) => a.status === 429);
    const served = answers.filter((a) => a.status === 200);
    expect(served.length + limited.length).toBe(10);
    expect(served.length).toBeGreaterThanOrEqual(2);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const a of limited) {
      expect(errorOf(a)).toEqual({ status: 429, code: '69001', message: 'Too many requests' });
      expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
    // Another account has its own bucket.
    expect((await call(emu, 'GET', CB, { token: AGENCY, brandKey: BRAND_KEY })).status).toBe(200);
    const counts = (await admin(emu, 'GET', 'rate-limit')).body;
    expect(counts).toEqual({ perSecond: 2, allowed: served.length + 1, limited: limited.length });
    // The request log names the fault.
    const log = (await admin(emu, 'GET', 'requests')).body.requests as { status: number; fault?: string }[];
    expect(log.filter((e) => e.fault === 'rate-limit').length).toBe(limited.length);
  });

  it('never limits the admin API; 0 turns the limit off; reset keeps the setting', async () => {
    await admin(emu, 'POST', 'rate-limit', { perSecond: 1 });
    for (let i = 0; i < 5; i++) expect((await admin(emu, 'GET', 'rate-limit')).status).toBe(200);
    await admin(emu, 'POST', 'reset');
    expect((await admin(emu, 'GET', 'rate-limit')).body).toEqual({ perSecond: 1, allowed: 0, limited: 0 });
    await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(emu, 'GET', CB)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  });

  it('refuses a bad setting naming the field', async () => {
    const a = await admin(emu, 'POST', 'rate-limit', { perSecond: 'fast' });
    expect(a.status).toBe(400);
    expect(a.text).toContain('perSecond must be a whole number');
  });

  it('is a start option', async () => {
    const limited = await startEmulator({ rateLimit: 1 });
    try {
      const statuses = (await Promise.all(Array.from({ length: 4 }, () => call(limited, 'GET', CB)))).map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});

describe('rcsctl emulator --rate-limit', () => {
  it('starts with the limit and says so; refuses a bad value', async () => {
    const ac = new AbortController();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d) => (out += d.toString()));
    const io = { stdout, stderr: new PassThrough(), env: {}, cwd: process.cwd(), signal: ac.signal };
    const run = main(['emulator', '--rate-limit', '7'], io);
    for (let i = 0; i < 500 && !out.includes('rate limit'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /^listening on (\S+)\n/.exec(out)?.[1] as string;
    expect(out).toContain('rate limit: 7 requests a second per account');
    expect((await call({ url } as never, 'GET', '/_emulator/rate-limit')).body).toMatchObject({ perSecond: 7 });
    ac.abort();
    expect(await run).toBe(0);

    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d) => (err += d.toString()));
    expect(await main(['emulator', '--rate-limit', 'lots'], { stdout: new PassThrough(), stderr, env: {}, cwd: process.cwd() })).toBe(1);
    expect(err).toContain('--rate-limit must be a whole number');
  });
});
