import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, answerOrder, call, errorOf, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;
const CB = `/api/1.1/brand/${BRAND}/chatbot`;
const simple = { autoReplyMsgName: 'Hours', messagebaseId: 'SCS00000', body: { description: '9-18' } };

describe('faults', () => {
  it('latency delays matching service responses, and only those', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 1500, path: '/chatbot$' }] });
    let heldMs = 0;
    const held = async (): Promise<void> => {
      const t0 = Date.now();
      expect((await call(emu, 'GET', CB)).status).toBe(200);
      heldMs = Date.now() - t0;
    };
    // A path the rule does not match, sent while a matching one is held, answers first:
    // the hold is ten times the slowest unheld answer seen on a loaded machine.
    expect(await answerOrder(emu, held, CB, () => call(emu, 'GET', `${CB}/0212345678`))).toEqual(['next', 'held']);
    expect(heldMs).toBeGreaterThanOrEqual(1490);
  });

  it('error answers the chosen status in the error envelope', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'error', rate: 1, status: 503, method: 'GET' }] });
    expect(errorOf(await call(emu, 'GET', CB))).toEqual({ status: 503, code: '69999', message: 'Internal error' });
    // Method filter: a POST is not affected.
    expect((await call(emu, 'POST', AR, { json: simple })).status).toBe(200);
  });

  it('rate-limit answers 429 69001 with Retry-After', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'rate-limit', rate: 1, retryAfter: 7 }] });
    const a = await call(emu, 'GET', CB);
    expect(errorOf(a)).toEqual({ status: 429, code: '69001', message: 'Too many requests' });
    expect(a.headers['retry-after']).toBe('7');
  });

  it('reset destroys the connection before the handler runs: nothing is committed', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'reset', rate: 1, method: 'POST' }] });
    await expect(call(emu, 'POST', AR, { json: simple })).rejects.toThrow();
    await admin(emu, 'DELETE', 'faults');
    expect((await call(emu, 'GET', AR)).body.pagination.total).toBe(0);
  });

  it('drop-after-commit commits the change, then drops the connection without an answer', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'drop-after-commit', rate: 1, method: 'POST', path: 'autoreplymsg$' }] });
    await expect(call(emu, 'POST', AR, { json: simple })).rejects.toThrow();
    await admin(emu, 'DELETE', 'faults');
    const l = await call(emu, 'GET', AR);
    expect(l.body.result.map((r: { autoReplyMsgName: string }) => r.autoReplyMsgName)).toEqual(['Hours']);
    const log = (await admin(emu, 'GET', 'requests')).body.requests;
    expect(log.find((e: { method: string }) => e.method === 'POST')).toMatchObject({ path: AR, status: 0, fault: 'drop-after-commit' });
  });

  it('the same seed gives the same faults; another seed others', async () => {
    const pattern = async (seed: number) => {
      await admin(emu, 'POST', 'faults', { seed, rules: [{ kind: 'error', rate: 0.5, status: 502 }] });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await call(emu, 'GET', CB)).status);
      return out.join(',');
    };
    const a = await pattern(42);
    const b = await pattern(42);
    const c = await pattern(7);
    expect(a).toBe(b);
    expect(a).toMatch(/502/);
    expect(a).toMatch(/200/);
    expect(c).not.toBe(a);
  });

  it('never applies to admin routes', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'reset', rate: 1 }] });
    expect((await admin(emu, 'GET', 'store')).status).toBe(200);
    expect((await admin(emu, 'GET', 'faults')).body.rules).toHaveLength(1);
  });

  it('refuses bad rules with 400', async () => {
    for (const body of [{ rules: [] }, { seed: 1, rules: [{ kind: 'boom', rate: 1 }] }, { seed: 1, rules: [{ kind: 'error', rate: 2 }] }, { seed: 1, rules: [{ kind: 'error', rate: 1, path: '(' }] }, { seed: 1, rules: [{ kind: 'error', rate: 1, status: 200 }] }]) {
      const a = await admin(emu, 'POST', 'faults', body);
      expect(a.status).toBe(400);
      expect(a.body.error.code).toBe('60400');
    }
  });
});

describe('admin routes', () => {
  it('request log records method, path, status and time; reset clears it, restores the seed and clears faults', async () => {
    await call(emu, 'GET', CB);
    await call(emu, 'POST', AR, { json: simple });
    await call(emu, 'GET', `${AR}/ARM404`);
    const log = (await admin(emu, 'GET', 'requests')).body.requests;
    expect(log.map((e: { method: string; path: string; status: number }) => [e.method, e.path, e.status])).toEqual([
      ['GET', CB, 200],
      ['POST', AR, 200],
      ['GET', `${AR}/ARM404`, 400],
    ]);
    expect(log[0].time).toMatch(/\+09$/);
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'error', rate: 1 }] });
    await admin(emu, 'POST', 'reset');
    expect((await admin(emu, 'GET', 'requests')).body.requests).toEqual([]);
    expect((await call(emu, 'GET', AR)).body.pagination.total).toBe(0);
    // Ids restart from the seed's counters.
    expect((await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId).toBe('ARM000000000001');
  });

  it('store dump holds the seeded brand, and emulator.store is the same live data', async () => {
    await call(emu, 'POST', AR, { json: simple });
    const dump = (await admin(emu, 'GET', 'store')).body;
    const brand = dump.brands[0];
    expect(brand).toMatchObject({ brandId: BRAND, brandKey: 'BK.demo0000000001' });
    expect(brand.chatbots.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0212345678', '0298765432']);
    expect(brand.autoReplies[0].autoReplyMsgName).toBe('Hours');
    expect(dump.accounts.map((a: { userId: string }) => a.userId)).toEqual(['master', 'agency']);
    expect(JSON.stringify(dump)).not.toContain('emulator-secret');
    expect(emu.store.brands.get(BRAND)?.autoReplies.size).toBe(1);
  });

  it('state forces a state and refuses unknown ones', async () => {
    const a = await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: BRAND, id: '0212345678', approvalResult: '반려', approvalReason: 'test' });
    expect(a.body).toMatchObject({ from: '승인', approvalResult: '반려' });
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0]).toMatchObject({ approvalResult: '반려', approvalReason: 'test' });
    expect((await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: BRAND, id: '0212345678', approvalResult: '등록완료' })).status).toBe(400);
    expect((await admin(emu, 'POST', 'state', { kind: 'thing', brandId: BRAND, id: 'x', approvalResult: '저장' })).status).toBe(400);
    expect((await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: 'BR.none', id: 'x', approvalResult: '저장' })).status).toBe(404);
  });

  it('review moves auto-replies between 등록완료, 처리중 and 저장', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    expect((await admin(emu, 'POST', 'review', { kind: 'autoReply', brandId: BRAND, id, action: 'start' })).body.approvalResult).toBe('처리중');
    expect((await admin(emu, 'POST', 'review', { kind: 'autoReply', brandId: BRAND, id, action: 'reject' })).body.approvalResult).toBe('저장');
    expect((await admin(emu, 'POST', 'review', { kind: 'autoReply', brandId: BRAND, id, action: 'complete' })).body.approvalResult).toBe('등록완료');
    expect((await admin(emu, 'POST', 'review', { kind: 'autoReply', brandId: BRAND, id, action: 'fly' })).status).toBe(400);
  });

  it('clock sets and advances the service time', async () => {
    const set = await admin(emu, 'POST', 'clock', { now: '2030-01-01T09:00:00.000+09' });
    expect(set.body.now).toMatch(/^2030-01-01T09:00:0\d\.\d{3}\+09$/);
    const adv = await admin(emu, 'POST', 'clock', { advanceSeconds: 86400 });
    expect(adv.body.now).toMatch(/^2030-01-02T09:00/);
    await call(emu, 'POST', AR, { json: simple });
    expect((await call(emu, 'GET', AR)).body.result[0].registerDate).toMatch(/^2030-01-02T09:00/);
    expect((await admin(emu, 'POST', 'clock', { now: 'yesterday' })).status).toBe(400);
  });

  it('unknown admin paths are 404 and a bad admin body is 400', async () => {
    expect((await admin(emu, 'GET', 'nothing')).status).toBe(404);
    const bad = await call(emu, 'POST', '/_emulator/review', { token: null, raw: '{oops' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('60400');
  });
});
