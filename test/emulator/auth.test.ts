import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { AGENCY, BRAND, BRAND_KEY, MASTER, admin, call, errorOf, start, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const CHATBOTS = `/api/1.1/brand/${BRAND}/chatbot`;

describe('token issuance (docs/decisions.md, "Token issuance")', () => {
  it('issues a token for a client id and secret, which then works', async () => {
    const a = await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'emulator-agency', clientSecret: 'emulator-secret' } });
    expect(a.status).toBe(200);
    expect(a.body.userId).toBe('agency');
    expect(a.body.allowedIp).toEqual(['127.0.0.1']);
    expect(a.body.expiresIn).toMatch(/^\d+$/);
    expect(Number(a.body.expiresIn) * 1000).toBeGreaterThan(Date.now() + 3500_000);
    const use = await call(emu, 'GET', CHATBOTS, { token: a.body.accessToken, brandKey: BRAND_KEY });
    expect(use.status).toBe(200);
  });

  it('refuses an unknown client id (61005) and a wrong secret (61006)', async () => {
    const id = await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'nobody', clientSecret: 'emulator-secret' } });
    expect(errorOf(id)).toEqual({ status: 401, code: '61005', message: 'Invalid client id' });
    const secret = await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'emulator-agency', clientSecret: 'wrong' } });
    expect(errorOf(secret)).toEqual({ status: 401, code: '61006', message: 'Invalid secret key' });
  });

  it('wants both fields (64336) within their lengths (64304)', async () => {
    const missing = await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'emulator-agency' } });
    expect(errorOf(missing)).toEqual({ status: 400, code: '64336', message: 'required value: [clientSecret]' });
    const long = await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'x'.repeat(21), clientSecret: 's' } });
    expect(errorOf(long)).toEqual({ status: 400, code: '64304', message: 'Over specified size (clientId)' });
  });

  it('expires issued tokens: 61004 after /_emulator/tokens/expire, and after the TTL on the clock', async () => {
    const t1 = (await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'emulator-agency', clientSecret: 'emulator-secret' } })).body.accessToken;
    await admin(emu, 'POST', 'tokens/expire');
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: t1, brandKey: BRAND_KEY }))).toEqual({ status: 401, code: '61004', message: 'Token has expired' });
    const t2 = (await call(emu, 'POST', '/api/1.1/token', { token: null, json: { clientId: 'emulator-agency', clientSecret: 'emulator-secret' } })).body.accessToken;
    expect((await call(emu, 'GET', CHATBOTS, { token: t2, brandKey: BRAND_KEY })).status).toBe(200);
    await admin(emu, 'POST', 'clock', { advanceSeconds: 3601 });
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: t2, brandKey: BRAND_KEY })).code).toBe('61004');
    // Seeded tokens never expire.
    expect((await call(emu, 'GET', CHATBOTS, { token: AGENCY, brandKey: BRAND_KEY })).status).toBe(200);
  });
});

describe('Authorization header', () => {
  it('61003 Invalid token without the header (the reference: "invalid or missing token"), for a bad scheme and for an unknown token', async () => {
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: null }))).toEqual({ status: 401, code: '61003', message: 'Invalid token' });
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: null, headers: { authorization: 'Basic abc' } }))).toEqual({ status: 401, code: '61003', message: 'Invalid token' });
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: 'nope' }))).toEqual({ status: 401, code: '61003', message: 'Invalid token' });
  });

  it('guards the agency interface with the same codes in the agency body shape', async () => {
    const a = await call(emu, 'GET', '/ag/1.2/file/x', { token: 'nope' });
    expect(a.status).toBe(401);
    expect(a.body).toEqual({ code: '61003', message: 'Invalid token' });
  });
});

describe('brand roles and brand key', () => {
  const seed = {
    accounts: [
      { userId: 'm', role: 'master', token: 'tm', brands: [{ brandId: 'BR.a', role: 'representative' }] },
      { userId: 'g', role: 'manager', token: 'tg', brands: [] },
    ],
    brands: [{ brandId: 'BR.a', brandKey: 'BK.a' }, { brandId: 'BR.b', brandKey: 'BK.b' }],
  };

  it('403 63001 without a brand role, or on an unknown brand', async () => {
    const e = await start(seed as never);
    try {
      expect(errorOf(await call(e, 'GET', '/api/1.1/brand/BR.a/chatbot', { token: 'tg' }))).toEqual({ status: 403, code: '63001', message: 'No Brand Permission' });
      expect(errorOf(await call(e, 'GET', '/api/1.1/brand/BR.b/chatbot', { token: 'tm' })).code).toBe('63001');
      expect(errorOf(await call(e, 'GET', '/api/1.1/brand/BR.zzz/chatbot', { token: 'tm' })).code).toBe('63001');
      expect((await call(e, 'GET', '/api/1.1/brand/BR.a/chatbot', { token: 'tm' })).status).toBe(200);
    } finally {
      await e.close();
    }
  });

  it('an agency needs X-RCS-Brandkey (64001) and the right one (64002)', async () => {
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: AGENCY }))).toEqual({ status: 400, code: '64001', message: 'Missing X-RCS-BrandKey header' });
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: AGENCY, brandKey: 'BK.wrong' }))).toEqual({ status: 400, code: '64002', message: 'Invalid Brand Key' });
    expect((await call(emu, 'GET', CHATBOTS, { token: AGENCY, brandKey: BRAND_KEY })).status).toBe(200);
  });

  it('a master may omit the key, but a wrong one is still 64002', async () => {
    expect((await call(emu, 'GET', CHATBOTS, { token: MASTER })).status).toBe(200);
    expect(errorOf(await call(emu, 'GET', CHATBOTS, { token: MASTER, brandKey: 'BK.wrong' })).code).toBe('64002');
  });
});

describe('layout component list', () => {
  it('is for the agency role only (401 61003 otherwise) and pages', async () => {
    expect(errorOf(await call(emu, 'GET', '/api/1.1/baselayout/component', { token: MASTER }))).toEqual({ status: 401, code: '61003', message: 'Invalid token' });
    const all = await call(emu, 'GET', '/api/1.1/baselayout/component', { token: AGENCY });
    expect(all.status).toBe(200);
    expect(all.body.result.length).toBeGreaterThanOrEqual(5);
    expect(all.body.result[0]).toMatchObject({ componentId: expect.any(String), status: 'public', headerYn: expect.stringMatching(/^[YN]$/) });
    expect(all.body.result.some((c: { options: { maxCount?: number } | null }) => c.options?.maxCount === 5)).toBe(true);
    const page = await call(emu, 'GET', '/api/1.1/baselayout/component?offset=2&limit=3', { token: AGENCY });
    expect(page.body.result.map((c: { componentId: string }) => c.componentId)).toEqual(all.body.result.slice(2, 5).map((c: { componentId: string }) => c.componentId));
    expect(page.body.pagination).toEqual({ total: all.body.result.length, offset: 2, limit: 3 });
  });
});

describe('common messagebases', () => {
  it('lists the known bases with their body fields, and one by id', async () => {
    const a = await call(emu, 'GET', '/api/1.1/messagebase/common');
    const ids = a.body.result.map((m: { messagebaseId: string }) => m.messagebaseId);
    for (const id of ['SCS00000', 'SCL00000', 'SCwThM00', 'SCwThT00', 'CCwMhM0200', 'CCwMhM0300', 'CCwMhM0400', 'CCwMhM0500', 'CCwMhM0600']) expect(ids).toContain(id);
    const one = await call(emu, 'GET', '/api/1.1/messagebase/common/SCwThM00');
    expect(one.body.result[0]).toMatchObject({ messagebaseId: 'SCwThM00', productCode: 'chat', bodyFields: ['title', 'description', 'media'] });
    expect(errorOf(await call(emu, 'GET', '/api/1.1/messagebase/common/NOPE')).code).toBe('64303');
    expect(errorOf(await call(emu, 'GET', '/api/1.1/messagebase/common', { token: null })).code).toBe('61003');
  });
});
