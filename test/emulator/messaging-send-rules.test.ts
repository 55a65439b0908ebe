// The agency messaging interface against the service reference's own words,
// over real HTTP:
// - Authentication: "Invalid or missing token: HTTP 401, error code 61003, message Invalid token".
// - Errors, Messaging interface: "Send failure body: {code: string of the form 4xxxx, message: string}";
//   agencyKey and brandKey are "Mandatory from August 2023".
// - Chatbot approvalResult: 승인 "messages can be sent"; 검수완료 "carrier
//   registration is incomplete; messages cannot be sent".
// - display values: "A room shown on the brand home can receive RCS messages; a room not shown there cannot."
// - Message header: "0 = informational message; 1 = advertising message. Some
//   messagebases refuse advertising." (which ones: the public OpenAPI document's
//   policyInfo.adHeaderAllowed false).

import { describe, expect, it } from 'vitest';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, form, png, useEmulator, type Answer } from './helpers.js';
import { BASE_MESSAGE } from './messaging-helpers.js';

const ROOM = '0200000001';
const SEED = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: ag1, role: agency, token: t-agency, brands: [{ brandId: BR.a, role: operator }] }
brands:
  - brandId: BR.a
    brandKey: BK.a
    chatbots:
      - { chatbotId: "${ROOM}", subTitle: Main, display: "11" }
      - { chatbotId: "0200000011", subTitle: Home and search, display: "11" }
      - { chatbotId: "0200000010", subTitle: Search only, display: "10" }
      - { chatbotId: "0200000002", subTitle: Home only, display: "01" }
      - { chatbotId: "0200000000", subTitle: Neither, display: "00" }
messagebases:
  - { messagebaseId: INFO0001, tmpltName: Informational only, productCode: chat, bodyFields: [description], policyInfo: { adHeaderAllowed: false } }
  - { messagebaseId: NOADTEXT, tmpltName: No advertising text, productCode: chat, bodyFields: [title1, description], policyInfo: { adBodyAllowed: false } }
messaging:
  agencies:
    - { agencyId: ag1, agencyKey: AK.one, brands: [BR.a] }
`;

/** The helpers' message that passes every check, from ROOM. */
const MESSAGE = { ...BASE_MESSAGE, chatbotId: ROOM };
const FOOTER = '080-000-0000';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: SEED, reset: true });

function send(message: Record<string, unknown>, opts: { token?: string | null } = {}): Promise<Answer> {
  return call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', json: message, ...opts });
}

function registerFile(fields: Record<string, string>, opts: { token?: string | null } = {}): Promise<Answer> {
  return call(emu, 'POST', '/ag/1.2/file', { token: 't-agency', form: form(fields, { file: { name: 'a.png', bytes: png(10, 10), type: 'image/png' } }), ...opts });
}

/** A refusal in the agency body: `{code, message}` and nothing else, the code of the 4xxxx form. */
function expect4xxxx(a: Answer, status: number): string {
  expect(a.status).toBe(status);
  expect(Object.keys(a.body).sort()).toEqual(['code', 'message']);
  expect(a.body.code).toMatch(/^4\d{4}$/);
  expect(a.body.message).not.toBe('');
  return a.body.code as string;
}

async function forceRoom(chatbotId: string, approvalResult: string): Promise<void> {
  const a = await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: 'BR.a', id: chatbotId, approvalResult });
  expect(a.status).toBe(200);
}

describe('a missing token (the reference: HTTP 401, 61003, Invalid token)', () => {
  it.each<[string, () => Promise<Answer>]>([
    ['POST /ag/1.2/message', () => send(MESSAGE, { token: null })],
    ['POST /ag/1.2/file', () => registerFile({ fileId: 'f.1', mimeType: 'image/png' }, { token: null })],
    ['GET /ag/1.2/file/{fileId}', () => call(emu, 'GET', '/ag/1.2/file/f.1', { token: null })],
  ])('%s answers 401 {code: "61003", message: "Invalid token"}', async (_route, request) => {
    const a = await request();
    expect([a.status, a.body]).toEqual([401, { code: '61003', message: 'Invalid token' }]);
  });

  it('is 61003 on the management interface too, in its error envelope', async () => {
    const a = await call(emu, 'GET', '/api/1.1/brand/BR.a/chatbot', { token: null });
    expect([a.status, a.body]).toEqual([401, { error: { code: '61003', message: 'Invalid token' }, status: 401 }]);
  });
});

describe('every refusal on the agency interface has a code of the form 4xxxx', () => {
  const without = (field: string): Record<string, unknown> => Object.fromEntries(Object.entries(MESSAGE).filter(([k]) => k !== field));

  it.each<[string, Record<string, unknown>, string]>([
    ['without agencyKey (mandatory since August 2023)', without('agencyKey'), 'agencyKey'],
    ['without brandKey (mandatory since August 2023)', without('brandKey'), 'brandKey'],
    ['without clientMsgId', without('clientMsgId'), 'clientMsgId'],
    ['without body', without('body'), 'body'],
  ])('a send %s, naming the field', async (_name, message, field) => {
    const a = await send(message);
    expect4xxxx(a, 400);
    expect(a.body.message).toContain(field);
  });

  it.each<[string, () => Promise<Answer>, number]>([
    ['a send whose body is not JSON', () => call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', raw: '{', headers: { 'content-type': 'application/json' } }), 400],
    ['a send whose body is empty', () => call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', raw: '', headers: { 'content-type': 'application/json' } }), 400],
    ['a send not declared as JSON', () => call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', raw: JSON.stringify(MESSAGE), headers: { 'content-type': 'text/plain' } }), 400],
    ['a send with a clientMsgId of 41 characters', () => send({ ...MESSAGE, clientMsgId: 'x'.repeat(41) }), 400],
    ['a send with a header other than "0" or "1"', () => send({ ...MESSAGE, header: '2' }), 400],
    ['a send with a malformed button', () => send({ ...MESSAGE, buttons: [{ suggestions: [{ action: { displayText: 5 } }] }] }), 400],
    ['a send with a malformed chip', () => send({ ...MESSAGE, chipList: [{ action: 'x' }] }), 400],
    ['a send with an unknown messagebaseId', () => send({ ...MESSAGE, messagebaseId: 'NOPE0000' }), 400],
    ['a send by GET', () => call(emu, 'GET', '/ag/1.2/message', { token: 't-agency' }), 405],
    ['a file registration without fileId', () => registerFile({ mimeType: 'image/png' }), 400],
    ['a file registration of a text file', () => registerFile({ fileId: 'f.t', mimeType: 'text/plain' }), 400],
    ['a file registration that is not multipart', () => call(emu, 'POST', '/ag/1.2/file', { token: 't-agency', json: { fileId: 'f.j' } }), 400],
    ['a file registration with an unknown messagebaseId', () => registerFile({ fileId: 'f.m', mimeType: 'image/png', messagebaseId: 'NOPE0000' }), 400],
    ['a file status of an unknown fileId', () => call(emu, 'GET', '/ag/1.2/file/f.none', { token: 't-agency' }), 400],
    ['an unknown path under /ag/', () => call(emu, 'GET', '/ag/1.2/nothing', { token: 't-agency' }), 404],
  ])('%s', async (_name, request, status) => {
    expect4xxxx(await request(), status);
  });

  it('also when the interface is rate-limiting or failing (injected faults)', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'rate-limit', rate: 1, retryAfter: 2, path: '^/ag/1.2/message$' }, { kind: 'error', rate: 1, status: 503, path: '^/ag/1.2/file' }] });
    try {
      const limited = await send(MESSAGE);
      expect4xxxx(limited, 429);
      expect(limited.headers['retry-after']).toBe('2');
      expect4xxxx(await call(emu, 'GET', '/ag/1.2/file/f.1', { token: 't-agency' }), 503);
    } finally {
      await admin(emu, 'DELETE', 'faults');
    }
  });

  it('while the management interface keeps its own codes', async () => {
    const missing = await call(emu, 'POST', '/api/1.1/brand/BR.a/autoreplymsg', { token: 't-agency', brandKey: 'BK.a', json: { messagebaseId: 'SCS00000', body: { description: 'x' } } });
    expect([missing.status, missing.body.error?.code]).toEqual([400, '64336']);
  });
});

describe('sending from a room in each approval state of the reference', () => {
  it.each([
    ['승인', 'review complete and registered with the three carriers; messages can be sent'],
    ['승인대기(수정)', 'an approved room whose modification waits for review: its carrier registration stands'],
    ['검수완료(수정)', 'an approved room renamed, the new name not yet registered: the name shown may differ by carrier'],
  ])('sends from %s (%s)', async (state) => {
    await forceRoom(ROOM, state);
    const a = await send(MESSAGE);
    expect([a.status, a.body.status]).toEqual([200, '200']);
  });

  it.each([
    ['검수완료', 'carrier registration is incomplete; messages cannot be sent'],
    ['저장', 'saved without an approval request: never registered with the carriers'],
    ['승인대기', 'registered, before review'],
    ['검수시작', 'review started'],
    ['반려', 'rejected in review'],
  ])('refuses a send from %s (%s) with 40015, naming the state', async (state) => {
    await forceRoom(ROOM, state);
    const a = await send(MESSAGE);
    expect(expect4xxxx(a, 400)).toBe('40015');
    expect(a.body.message).toContain(state);
  });

  it('sends again once the room is approved', async () => {
    await forceRoom(ROOM, '검수완료');
    expect((await send(MESSAGE)).status).toBe(400);
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: 'BR.a', id: ROOM, action: 'complete' });
    expect((await send(MESSAGE)).status).toBe(200);
  });
});

describe('a room not shown on the brand home cannot receive RCS messages', () => {
  it.each([
    ['0200000011', '11'],
    ['0200000002', '01'],
  ])('sends from room %s (display %s: shown on the brand home)', async (chatbotId) => {
    expect((await send({ ...MESSAGE, chatbotId })).status).toBe(200);
  });

  it.each([
    ['0200000010', '10'],
    ['0200000000', '00'],
  ])('refuses room %s (display %s: not shown on the brand home) with 40016', async (chatbotId, display) => {
    const a = await send({ ...MESSAGE, chatbotId });
    expect(expect4xxxx(a, 400)).toBe('40016');
    expect(a.body.message).toContain(`display ${display}`);
  });

  it('follows a room update that takes the room off the brand home', async () => {
    const update = form({ chatbot: JSON.stringify({ display: '10' }) });
    const put = await call(emu, 'PUT', `/api/1.1/brand/BR.a/chatbot/${ROOM}`, { token: 't-agency', brandKey: 'BK.a', form: update });
    expect(put.status).toBe(200);
    expect(expect4xxxx(await send(MESSAGE), 400)).toBe('40016');
  });
});

describe('messagebases that refuse advertising (policyInfo.adHeaderAllowed false)', () => {
  it('refuses header "1" with 40017, footer or not', async () => {
    expect(expect4xxxx(await send({ ...MESSAGE, messagebaseId: 'INFO0001', header: '1', footer: FOOTER }), 400)).toBe('40017');
    expect(expect4xxxx(await send({ ...MESSAGE, messagebaseId: 'INFO0001', header: '1' }), 400)).toBe('40017');
  });

  it('sends header "0", and no header (informational by default)', async () => {
    expect((await send({ ...MESSAGE, messagebaseId: 'INFO0001', header: '0' })).status).toBe(200);
    expect((await send({ ...MESSAGE, messagebaseId: 'INFO0001' })).status).toBe(200);
  });

  it('sends header "1" with a footer on a common messagebase, which takes advertising', async () => {
    expect((await send({ ...MESSAGE, header: '1', footer: FOOTER })).status).toBe(200);
  });

  it('gives every common messagebase a policyInfo in its detail, saying whether it takes advertising', async () => {
    const list = await call(emu, 'GET', '/api/1.1/messagebase/common', { token: 't-agency' });
    const policies: Record<string, unknown> = {};
    for (const { messagebaseId } of list.body.result as { messagebaseId: string }[]) {
      const detail = await call(emu, 'GET', `/api/1.1/messagebase/common/${messagebaseId}`, { token: 't-agency' });
      policies[messagebaseId] = detail.body.result[0].policyInfo?.adHeaderAllowed;
    }
    expect(policies).toMatchObject({ INFO0001: false, SCS00000: true, SCwThM00: true, CCwMhM0200: true });
    expect(Object.values(policies).every((v) => typeof v === 'boolean')).toBe(true);
  });

  it('refuses a body that starts with "(광고)" on a messagebase with adBodyAllowed false: 40021, naming the field, whatever the header', async () => {
    // The public document: adBodyAllowed false fails a send whose body starts with "(광고)".
    const a = await send({ ...MESSAGE, messagebaseId: 'NOADTEXT', body: { description: '(광고) Autumn sale' } });
    expect(expect4xxxx(a, 400)).toBe('40021');
    expect(a.body.message).toContain('description');
    const b = await send({ ...MESSAGE, messagebaseId: 'NOADTEXT', header: '1', footer: FOOTER, body: { title1: '  (광고)Sale', description: 'Ten percent off' } });
    expect(expect4xxxx(b, 400)).toBe('40021');
    expect(b.body.message).toContain('title1');
  });

  it('sends the label anywhere but at the start, and any body on a messagebase that allows advertising text', async () => {
    expect((await send({ ...MESSAGE, messagebaseId: 'NOADTEXT', body: { description: 'Ten percent off (광고)' } })).status).toBe(200);
    expect((await send({ ...MESSAGE, messagebaseId: 'NOADTEXT', body: { description: 'Opening hours' } })).status).toBe(200);
    // INFO0001 refuses the header only; the common messagebases allow both.
    expect((await send({ ...MESSAGE, messagebaseId: 'INFO0001', body: { description: '(광고) Autumn sale' } })).status).toBe(200);
    expect((await send({ ...MESSAGE, header: '1', footer: FOOTER, body: { description: '(광고) Autumn sale' } })).status).toBe(200);
  });

  it('names a seed messagebase policy field of the wrong type', () => {
    expect(() => loadSeed('accounts: []\nmessagebases:\n  - { messagebaseId: X1, policyInfo: { adHeaderAllowed: "no" } }\n')).toThrow('seed: messagebases[0].policyInfo.adHeaderAllowed must be a boolean');
  });
});
