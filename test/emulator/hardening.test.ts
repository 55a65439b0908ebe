// Emulator hardening: slow clients are closed by the header and request
// timeouts, and admin input is bounded so no call can break later answers.

import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, call, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;

/** Open a socket, write `text`, and resolve with how long until the server closed it (or undefined after `waitMs`). */
function heldFor(port: number, text: string, waitMs: number): Promise<{ closedAfterMs?: number; answer: string }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let answer = '';
    const s = connect(port, '127.0.0.1', () => s.write(text));
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ answer });
    }, waitMs);
    s.on('data', (d) => (answer += d.toString('utf8')));
    s.on('error', () => {});
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - t0, answer });
    });
  });
}

describe('slow clients are closed', () => {
  it('a request whose headers never finish is closed after the header timeout, with 408', async () => {
    const quick = await startEmulator({ port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      // Closed while we still watch (8 s, under the 10 s default: the option is honoured),
      // and not before the 300 ms it allows.
      const r = await heldFor(quick.port, `GET ${AR} HTTP/1.1\r\nHost: x\r\nX-Slow: `, 8000);
      expect(r.closedAfterMs).toBeGreaterThanOrEqual(290);
      expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await quick.close();
    }
  });

  it('a body that never finishes is closed after the request timeout', async () => {
    const quick = await startEmulator({ port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const head = `POST ${AR} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer emulator-master-token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`;
      // Closed while we still watch (20 s, far under the 120 s default), and not before the 600 ms it allows.
      const r = await heldFor(quick.port, head, 20_000);
      expect(r.closedAfterMs).toBeGreaterThanOrEqual(590);
      expect((await call(quick, 'GET', AR)).status).toBe(200);
    } finally {
      await quick.close();
    }
  });
});

describe('admin input is bounded', () => {
  it('the clock refuses a time that would overflow, and keeps answering', async () => {
    for (const body of [{ advanceSeconds: 1e300 }, { advanceSeconds: -1e15 }, { now: '9999-01-01T00:00:00.000+09' }, { now: '1970-01-01T00:00:00.000+09' }]) {
      const a = await admin(emu, 'POST', 'clock', body);
      expect(a.status).toBe(400);
      expect(a.body.error.message).toContain('the clock must stay from');
    }
    expect((await call(emu, 'GET', AR)).status).toBe(200);
    const ok = await admin(emu, 'POST', 'clock', { now: '2030-01-01T09:00:00.000+09', advanceSeconds: 60 });
    // Without a fixed clock in the seed, real milliseconds pass between setting and answering.
    expect(ok.body.now).toMatch(/^2030-01-01T09:01:00\.\d{3}\+09$/);
  });

  it('fault rules are bounded in count, latency, Retry-After and pattern length', async () => {
    const rules = (n: number) => Array.from({ length: n }, () => ({ kind: 'latency', rate: 0 }));
    expect((await admin(emu, 'POST', 'faults', { seed: 1, rules: rules(101) })).status).toBe(400);
    expect((await admin(emu, 'POST', 'faults', { seed: 1, rules: rules(100) })).status).toBe(200);
    expect((await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 1e9 }] })).status).toBe(400);
    expect((await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'rate-limit', rate: 1, retryAfter: 86400 }] })).status).toBe(400);
    expect((await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'error', rate: 1, path: 'a'.repeat(1001) }] })).status).toBe(400);
  });
});
