// Credentials and the authentication errors: a ready token, the client id and
// secret exchange, renewal before expiry and after 61004 (shared by concurrent
// requests), and the mapping of 61003 (also for a missing header), 61004, 61005, 61006, 63001,
// 64001 and 64002.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError } from '../../src/api/index.js';
import { Redaction } from '../../src/util/redaction.js';
import { DEFAULT_RETRY } from '../../src/api/retry.js';
import { createTransport, DEFAULT_TIMEOUTS } from '../../src/api/transport.js';
import { AGENCY_TOKEN, BRAND, CLIENT_ID, CLIENT_SECRET, collect, rejection, startTestEmulator, STRANGER_TOKEN, testSeed, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

async function tokenCalls(e: TestEmulator): Promise<number> {
  return (await e.requests()).filter((r) => r.path === '/api/1.1/token').length;
}

function apiError(err: unknown): RcsApiError {
  expect(err).toBeInstanceOf(RcsApiError);
  return err as RcsApiError;
}

describe('client id and secret', () => {
  it('exchanges them once at /token and reuses the token', async () => {
    const before = await tokenCalls(emu);
    const client = emu.client({ credentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
    for (let i = 0; i < 3; i++) await collect(client.autoReplies.list(BRAND));
    expect(await tokenCalls(emu)).toBe(before + 1);
  });

  it('renews once after 61004, shared by 12 concurrent requests', async () => {
    const client = emu.client({ credentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
    await collect(client.autoReplies.list(BRAND));
    const before = await tokenCalls(emu);
    await emu.admin('POST', '/tokens/expire');
    const rooms = await Promise.all(Array.from({ length: 12 }, () => client.chatbots.get(BRAND, '0212345678')));
    expect(rooms.every((r) => r.chatbotId === '0212345678')).toBe(true);
    expect(await tokenCalls(emu)).toBe(before + 1);
    const log = await emu.requests();
    expect(log.filter((r) => r.status === 401).length).toBeGreaterThan(0);
  });

  it('renews shortly before the announced expiry, without waiting for a 61004', async () => {
    // Tokens live 3 s (announced in whole seconds, so 2-3 s); the client renews
    // a short-lived token halfway, so by 1.5 s, well before the service expires it.
    const e = await startTestEmulator(testSeed({}, { tokenTtlSeconds: 3 }));
    try {
      const client = e.client({ credentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
      await collect(client.autoReplies.list(BRAND));
      expect(await tokenCalls(e)).toBe(1);
      await collect(client.autoReplies.list(BRAND));
      expect(await tokenCalls(e)).toBe(1);
      await new Promise((r) => setTimeout(r, 1700));
      await collect(client.autoReplies.list(BRAND));
      expect(await tokenCalls(e)).toBe(2);
      expect((await e.requests()).filter((r) => r.status === 401)).toEqual([]);
    } finally {
      await e.close();
    }
  });

  it('maps 61005 (client id) and 61006 (secret) without showing the secret', async () => {
    const badId = apiError(await rejection(collect(emu.client({ credentials: { clientId: 'nobody', clientSecret: CLIENT_SECRET } }).autoReplies.list(BRAND))));
    expect(badId.message).toBe('get an access token (POST /api/1.1/token) failed: 401 61005 Invalid client id');
    const badSecret = apiError(await rejection(collect(emu.client({ credentials: { clientId: CLIENT_ID, clientSecret: 'wrong-secret-9' } }).autoReplies.list(BRAND))));
    expect([badSecret.httpStatus, badSecret.serviceCode, badSecret.serviceMessage]).toEqual([401, '61006', 'Invalid secret key']);
    expect(JSON.stringify(badSecret)).not.toContain('wrong-secret-9');
  });
});

describe('authentication errors', () => {
  it('maps 61003 (invalid token)', async () => {
    const err = apiError(await rejection(collect(emu.client({ credentials: { token: 'not-a-real-token' } }).autoReplies.list(BRAND))));
    expect(err.message).toBe(`list auto-replies of ${BRAND.id} failed: 401 61003 Invalid token`);
  });

  it('maps 61004 for an expired ready token (no renewal is possible)', async () => {
    const res = await fetch(`${emu.url}/api/1.1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }) });
    const { accessToken } = (await res.json()) as { accessToken: string };
    await emu.admin('POST', '/tokens/expire');
    const client = emu.client({ credentials: { token: accessToken } });
    const err = apiError(await rejection(client.chatbots.get(BRAND, '0212345678')));
    expect([err.httpStatus, err.serviceCode, err.serviceMessage]).toEqual([401, '61004', 'Token has expired']);
    expect(client.stats).toEqual({ requests: 1, retries: 0 });
  });

  it('maps 61003 for a request without an Authorization header, as the reference says for a missing token', async () => {
    const transport = createTransport({
      baseUrl: emu.url,
      concurrency: 1,
      insecureHttp: false,
      timeouts: DEFAULT_TIMEOUTS,
      retry: DEFAULT_RETRY,
      redactor: new Redaction(),
    });
    try {
      const err = apiError(await rejection(transport.send({ method: 'GET', path: `/api/1.1/brand/${BRAND.id}/autoreplymsg`, auth: false })));
      expect([err.httpStatus, err.serviceCode, err.serviceMessage]).toEqual([401, '61003', 'Invalid token']);
    } finally {
      await transport.close();
    }
  });

  it('maps 63001 (no permission on the brand)', async () => {
    const err = apiError(await rejection(emu.client({ credentials: { token: STRANGER_TOKEN } }).autoReplies.get(BRAND, 'ARM1')));
    expect([err.httpStatus, err.serviceCode, err.serviceMessage]).toEqual([403, '63001', 'No Brand Permission']);
  });

  it('sends X-RCS-Brandkey per brand: 64001 without it for an agency, 64002 when wrong', async () => {
    const agency = emu.client({ credentials: { token: AGENCY_TOKEN } });
    const missing = apiError(await rejection(collect(agency.autoReplies.list({ id: BRAND.id }))));
    expect([missing.httpStatus, missing.serviceCode]).toEqual([400, '64001']);
    const wrong = apiError(await rejection(collect(agency.autoReplies.list({ id: BRAND.id, key: 'BK.wrong' }))));
    expect([wrong.httpStatus, wrong.serviceCode, wrong.serviceMessage]).toEqual([400, '64002', 'Invalid Brand Key']);
    expect(Array.isArray(await collect(agency.autoReplies.list(BRAND)))).toBe(true);
  });
});
