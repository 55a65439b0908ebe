// Retries against each fault kind the emulator injects. Faults are drawn from
// the emulator's seeded PRNG; `seedFor` picks a seed whose draws give exactly
// the pattern a test wants (fault on the first attempt, none on the second),
// so every test is deterministic.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiTransportError, OutcomeUnknownError, RcsApiError } from '../../src/api/index.js';
import type { AutoReplyRequest } from '../../src/api/index.js';
import { mulberry32 } from '../../src/emulator/faults.js';
import { BRAND, collect, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});
afterEach(async () => {
  await emu.admin('DELETE', '/faults');
});

/** A PRNG seed whose successive draws fault (true) or not (false) as `pattern` says, for one rule of `rate`. */
function seedFor(pattern: boolean[], rate = 0.5): number {
  for (let seed = 1; seed < 100_000; seed++) {
    const rand = mulberry32(seed);
    if (pattern.every((fault) => rand() < rate === fault)) return seed;
  }
  throw new Error('no seed found');
}

async function faults(pattern: boolean[], rule: Record<string, unknown>): Promise<void> {
  await emu.admin('POST', '/faults', { seed: seedFor(pattern), rules: [{ rate: 0.5, ...rule }] });
}

async function hits(method: string, path: RegExp): Promise<{ status: number; fault?: string }[]> {
  return (await emu.requests()).filter((r) => r.method === method && path.test(r.path)) as { status: number; fault?: string }[];
}

const request = (name: string): AutoReplyRequest => ({ autoReplyMsgName: name, messagebaseId: 'SCS00000', body: { description: name } });
const roomPath = '^/api/1\\.1/brand/[^/]+/chatbot/0212345678$';

describe('idempotent requests are retried', () => {
  for (const status of [502, 503, 504]) {
    it(`retries a GET answered ${status}`, async () => {
      await faults([true, false], { method: 'GET', path: roomPath, kind: 'error', status });
      const client = emu.client();
      expect((await client.chatbots.get(BRAND, '0212345678')).chatbotId).toBe('0212345678');
      expect(client.stats).toEqual({ requests: 2, retries: 1 });
    });
  }

  it('retries after a connection reset', async () => {
    await faults([true, false], { method: 'GET', path: roomPath, kind: 'reset' });
    const client = emu.client();
    expect((await client.chatbots.get(BRAND, '0212345678')).chatbotId).toBe('0212345678');
    expect(client.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('retries after a response timeout (latency beyond the headers timeout)', async () => {
    // undici checks timeouts on a ~0.5 s tick, so a 200 ms timeout fires within about a second.
    await faults([true, false], { method: 'GET', path: roomPath, kind: 'latency', ms: 2500 });
    const client = emu.client({ timeouts: { headersMs: 200 } });
    expect((await client.chatbots.get(BRAND, '0212345678')).chatbotId).toBe('0212345678');
    expect(client.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('gives up after maxAttempts with the last failure named', async () => {
    await emu.admin('POST', '/faults', { seed: 1, rules: [{ method: 'GET', path: roomPath, kind: 'latency', ms: 2500, rate: 1 }] });
    const client = emu.client({ timeouts: { headersMs: 200 }, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    const err = await rejection(client.chatbots.get(BRAND, '0212345678'));
    expect(err).toBeInstanceOf(ApiTransportError);
    expect((err as Error).message).toBe(`get chatbot 0212345678 failed: response timeout at 127.0.0.1:${new URL(emu.url).port} (after 2 attempts)`);
    expect(client.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('honours Retry-After on 429', async () => {
    await faults([true, false], { method: 'GET', path: roomPath, kind: 'rate-limit', retryAfter: 1 });
    const client = emu.client();
    const t0 = Date.now();
    await client.chatbots.get(BRAND, '0212345678');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(client.stats.retries).toBe(1);
  });

  it('stops at once when Retry-After passes the deadline, mapping 429 69001', async () => {
    // Waiting for the Retry-After (an hour) or to the deadline (ten minutes) would outlast the
    // test's timeout: answering at all shows it stopped at once.
    await emu.admin('POST', '/faults', { seed: 1, rules: [{ method: 'GET', path: roomPath, kind: 'rate-limit', retryAfter: 3600, rate: 1 }] });
    const client = emu.client({ retry: { deadlineMs: 600_000 } });
    const err = await rejection(client.chatbots.get(BRAND, '0212345678'));
    expect(client.stats).toEqual({ requests: 1, retries: 0 });
    expect(err).toBeInstanceOf(RcsApiError);
    expect(err).toMatchObject({ httpStatus: 429, serviceCode: '69001', serviceMessage: 'Too many requests' });
  });

  it('does not retry 500 69999 (a server fault, not a transient gateway error)', async () => {
    await faults([true, false], { method: 'GET', path: roomPath, kind: 'error', status: 500 });
    const client = emu.client();
    const err = await rejection(client.chatbots.get(BRAND, '0212345678'));
    expect(err).toMatchObject({ httpStatus: 500, serviceCode: '69999', serviceMessage: 'Internal error' });
    expect(client.stats).toEqual({ requests: 1, retries: 0 });
  });

  it('treats 64323 (No changes) answered to a retried PUT as success', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, request('Retried update'));
    // The first PUT is committed, then its answer is dropped; the retry finds nothing to change.
    await faults([true, false], { method: 'PUT', path: `/autoreplymsg/${id}$`, kind: 'drop-after-commit' });
    await emu.admin('DELETE', '/requests');
    const out = await client.autoReplies.update(BRAND, id, { ...request('Retried update'), body: { description: 'changed' } });
    expect(out).toEqual({ autoReplyMsgId: id });
    const puts = await hits('PUT', new RegExp(`${id}$`));
    expect(puts.map((p) => p.status)).toEqual([0, 400]);
    expect((await client.autoReplies.get(BRAND, id)).body.description).toBe('changed');
  });

  it('treats an unknown id answered to a retried DELETE as success', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, request('Retried delete'));
    await faults([true, false], { method: 'DELETE', path: `/autoreplymsg/${id}$`, kind: 'drop-after-commit' });
    await client.autoReplies.delete(BRAND, id, 'Retried delete');
    expect(client.stats.retries).toBe(1);
    expect((await collect(client.autoReplies.list(BRAND))).map((a) => a.autoReplyMsgId)).not.toContain(id);
  });

  it('retries a PUT answered 503 (idempotent)', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, request('PUT 503'));
    await faults([true, false], { method: 'PUT', path: `/autoreplymsg/${id}$`, kind: 'error', status: 503 });
    await client.autoReplies.update(BRAND, id, { ...request('PUT 503'), body: { description: 'after 503' } });
    expect(client.stats.retries).toBe(1);
  });
});

describe('a POST is never repeated blindly', () => {
  const createPath = '/autoreplymsg$';

  for (const [kind, extra] of [
    ['error', { status: 502 }],
    ['error', { status: 503 }],
    ['error', { status: 504 }],
    ['reset', {}],
    ['latency', { ms: 2500 }],
  ] as const) {
    it(`reports outcome unknown, without a second attempt, on ${kind} ${JSON.stringify(extra)}`, async () => {
      await emu.admin('POST', '/faults', { seed: 1, rules: [{ method: 'POST', path: createPath, kind, rate: 1, ...extra }] });
      await emu.admin('DELETE', '/requests');
      const client = emu.client({ timeouts: { headersMs: 200 } });
      const err = await rejection(client.autoReplies.create(BRAND, request(`POST ${kind}`)));
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(err).toMatchObject({ method: 'POST', path: `/api/1.1/brand/${BRAND.id}/autoreplymsg`, entity: `auto-reply "POST ${kind}"`, code: 'E_OUTCOME_UNKNOWN' });
      expect(client.stats).toEqual({ requests: 1, retries: 0 });
      expect(await hits('POST', /autoreplymsg$/)).toHaveLength(1);
    });
  }

  it('reports a POST whose answer was dropped after the commit as outcome unknown; the object exists', async () => {
    await emu.admin('POST', '/faults', { seed: 1, rules: [{ method: 'POST', path: createPath, kind: 'drop-after-commit', rate: 1 }] });
    const client = emu.client();
    const err = await rejection(client.autoReplies.create(BRAND, request('Dropped create')));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/^create auto-reply "Dropped create": outcome unknown \(.+\); the request may have taken effect, read back before trying again$/);
    expect(client.stats).toEqual({ requests: 1, retries: 0 });
    await emu.admin('DELETE', '/faults');
    const names = (await collect(client.autoReplies.list(BRAND))).map((a) => a.autoReplyMsgName);
    expect(names.filter((n) => n === 'Dropped create')).toHaveLength(1);
  });

  it('does send a POST again after 429, which says the service did not act', async () => {
    await faults([true, false], { method: 'POST', path: createPath, kind: 'rate-limit', retryAfter: 0 });
    const client = emu.client();
    await client.autoReplies.create(BRAND, request('After 429'));
    expect(client.stats).toEqual({ requests: 2, retries: 1 });
    const names = (await collect(client.autoReplies.list(BRAND))).map((a) => a.autoReplyMsgName);
    expect(names.filter((n) => n === 'After 429')).toHaveLength(1);
  });

  it('sends a POST again when the connection was refused (it never left)', async () => {
    const client = emu.client({ baseUrl: 'http://127.0.0.1:9', retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const err = await rejection(client.autoReplies.create(BRAND, request('Refused')));
    expect(err).toBeInstanceOf(ApiTransportError);
    expect((err as Error).message).toBe('create auto-reply "Refused" failed: connection refused at 127.0.0.1:9 (after 2 attempts)');
  });
});

describe('debug trace', () => {
  it('traces method, path, status, duration and retry count', async () => {
    await faults([true, false], { method: 'GET', path: roomPath, kind: 'error', status: 503 });
    const lines: string[] = [];
    const client = emu.client({ debug: (l) => lines.push(l) });
    await client.chatbots.get(BRAND, '0212345678');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^http GET /api/1\\.1/brand/${BRAND.id.replace('.', '\\.')}/chatbot/0212345678 503 \\d+ms retry=0$`));
    expect(lines[1]).toMatch(/ 200 \d+ms retry=1$/);
  });
});
