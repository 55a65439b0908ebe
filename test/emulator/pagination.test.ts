import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, errorOf, useEmulator } from './helpers.js';

// A brand with 25 auto-replies, seeded.
const seed = {
  accounts: [{ userId: 'm', role: 'master', token: 'tm', brands: [{ brandId: 'BR.p', role: 'operator' }, { brandId: 'BR.empty', role: 'operator' }] }],
  brands: [
    { brandId: 'BR.p', brandKey: 'BK.p', autoReplies: Array.from({ length: 25 }, (_, i) => ({ autoReplyMsgName: `A${i}`, messagebaseId: 'SCS00000', body: { description: `d${i}` } })) },
    { brandId: 'BR.empty', brandKey: 'BK.e' },
  ],
};

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: seed as never });

const path = '/api/1.1/brand/BR.p/autoreplymsg';
const list = (q: string) => call(emu, 'GET', `${path}${q}`, { token: 'tm' });
const link = (o: number, l: number) => `${emu.url}${path}?offset=${o}&limit=${l}`;

describe('pagination', () => {
  it('defaults to offset 0 and limit 100', async () => {
    const a = await list('');
    expect(a.body.pagination).toEqual({ total: 25, offset: 0, limit: 100 });
    expect(a.body.links).toEqual({ prev: null, next: null });
    expect(a.body.result).toHaveLength(25);
  });

  it('pages with absolute next and prev links', async () => {
    const first = await list('?offset=0&limit=10');
    expect(first.body.result.map((r: { autoReplyMsgName: string }) => r.autoReplyMsgName)).toEqual(Array.from({ length: 10 }, (_, i) => `A${i}`));
    expect(first.body.links).toEqual({ prev: null, next: link(10, 10) });
    const second = await list('?offset=10&limit=10');
    expect(second.body.links).toEqual({ prev: link(0, 10), next: link(20, 10) });
    const last = await list('?offset=20&limit=10');
    expect(last.body.result).toHaveLength(5);
    expect(last.body.links).toEqual({ prev: link(10, 10), next: null });
    expect((await list('?offset=30&limit=10')).body.result).toEqual([]);
  });

  it('keeps the documented quirk: prev is null when offset is positive and below limit', async () => {
    const a = await list('?offset=5&limit=10');
    expect(a.body.links).toEqual({ prev: null, next: link(15, 10) });
    expect(a.body.result[0].autoReplyMsgName).toBe('A5');
  });

  it('accepts limit 1000 and refuses 1001, 0, negatives and non-integers (64202)', async () => {
    expect((await list('?limit=1000')).status).toBe(200);
    expect(errorOf(await list('?limit=5000'))).toEqual({ status: 400, code: '64202', message: 'Invalid query parameter value (limit:5000)' });
    expect(errorOf(await list('?limit=1001')).code).toBe('64202');
    expect(errorOf(await list('?limit=0')).code).toBe('64202');
    expect(errorOf(await list('?offset=-1')).message).toBe('Invalid query parameter value (offset:-1)');
    expect(errorOf(await list('?offset=1.5')).code).toBe('64202');
    expect(errorOf(await list('?limit=abc')).code).toBe('64202');
  });

  it('answers an empty list with an empty page, or with 204 when noContentOnEmptyList is on', async () => {
    const empty = await call(emu, 'GET', '/api/1.1/brand/BR.empty/autoreplymsg', { token: 'tm' });
    expect(empty.status).toBe(200);
    expect(empty.body.pagination.total).toBe(0);
    expect((await admin(emu, 'POST', 'options', { noContentOnEmptyList: true })).body).toMatchObject({ noContentOnEmptyList: true });
    const none = await call(emu, 'GET', '/api/1.1/brand/BR.empty/autoreplymsg', { token: 'tm' });
    expect(none.status).toBe(204);
    expect(none.text).toBe('');
    expect((await list('')).status).toBe(200);
    await admin(emu, 'POST', 'options', { noContentOnEmptyList: false });
  });

  it('pages every list the same way (chatbots, logos, messagebases)', async () => {
    const mb = await call(emu, 'GET', '/api/1.1/messagebase/common?offset=2&limit=2', { token: 'tm' });
    expect(mb.body.pagination).toEqual({ total: 9, offset: 2, limit: 2 });
    expect(mb.body.links).toEqual({ prev: `${emu.url}/api/1.1/messagebase/common?offset=0&limit=2`, next: `${emu.url}/api/1.1/messagebase/common?offset=4&limit=2` });
    expect(errorOf(await call(emu, 'GET', '/api/1.1/brand/BR.p/chatbot?limit=2000', { token: 'tm' })).code).toBe('64202');
    expect(errorOf(await call(emu, 'GET', '/api/1.1/brand/BR.p/logo?limit=2000', { token: 'tm' })).code).toBe('64202');
  });
});
