// Change notifications of chatbots and templates, over real HTTP: every change made
// through the management API or the admin review and state routes is posted to
// each agency of the brand (two here, each with its own webhook path on one
// receiver), never to an agency of another brand, and never for a refused call.
// The fields are the public OpenAPI document's NotiChatbot and NotiTemplate.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { TEMPLATE_FORMS } from '../../src/spec/template-forms.js';
import { admin, call, form, useEmulator } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

const SEED = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: master, role: master, token: t-master, brands: [{ brandId: BR.a, role: representative }] }
brands:
  - brandId: BR.a
    brandKey: BK.a
    chatbots:
      - { chatbotId: "0200000001", subTitle: Main }
  - brandId: BR.b
    brandKey: BK.b
    chatbots:
      - { chatbotId: "0300000001", subTitle: Other }
messaging:
  agencies:
    - { agencyId: ag1, agencyKey: AK.one, brands: [BR.a] }
    - { agencyId: ag2, agencyKey: AK.two, brands: [BR.b] }
    - { agencyId: ag3, agencyKey: AK.three, brands: [BR.a, BR.b] }
`;

let emu: RunningEmulator;
let rx: Receiver;
useEmulator((e) => (emu = e), { seed: SEED });
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
  await admin(emu, 'POST', 'messaging/options', { batchIntervalMs: 10 });
  for (const agencyId of ['ag1', 'ag2', 'ag3']) await admin(emu, 'POST', 'messaging/webhook', { agencyId, url: `${rx.url}/${agencyId}` });
  rx.calls.length = 0;
});

const AS_MASTER = { token: 't-master' };
const CHATBOTS = '/api/1.1/brand/BR.a/chatbot';
const TEMPLATES = '/api/1.1/brand/BR.a/messagebase';
const cert = { subNumCertificate: { name: 'cert.pdf', bytes: Buffer.from('%PDF-1.4 cert'), type: 'application/pdf' } };

/** The notifications an agency received, each checked to have come as a one-item array. */
function received(agencyId: string): any[] {
  return rx.on(`/${agencyId}`).map((c) => {
    expect(c.body).toHaveLength(1);
    return c.body[0];
  });
}

/** Waits until both agencies of BR.a have `n` notifications, and a little longer for any stray one. */
async function settle(n: number): Promise<void> {
  await rx.until(() => received('ag1').length >= n && received('ag3').length >= n);
  await new Promise((r) => setTimeout(r, 50));
}

/** Expects both agencies of BR.a to have received exactly `expected`, in order, and ag2 (BR.b only) nothing. */
function expectBoth(expected: unknown[]): void {
  expect(received('ag1')).toEqual(expected);
  expect(received('ag3')).toEqual(expected);
  expect(received('ag2')).toEqual([]);
}

const review = (kind: string, id: string, action: string, reason?: string) => admin(emu, 'POST', 'review', { kind, brandId: 'BR.a', id, action, ...(reason !== undefined ? { reason } : {}) });

describe('chatbot notifications', () => {
  it('created on registration and on approval, rejected with the reason, modified on update and cancel, deleted; nothing for a refused call', async () => {
    const id = '0200000009';
    const reg = await call(emu, 'POST', CHATBOTS, { ...AS_MASTER, form: form({ chatbots: JSON.stringify({ chatbots: [{ mdn: id, subTitle: 'Branch' }] }) }, cert) });
    expect(reg.status, reg.text).toBe(200);
    expect((await review('chatbot', id, 'reject', 'number unclear')).status).toBe(200);
    const update = (subTitle: string) => call(emu, 'PUT', `${CHATBOTS}/${id}`, { ...AS_MASTER, form: form({ chatbot: JSON.stringify({ subTitle }) }) });
    expect((await update('Branch 2')).status).toBe(200);
    expect((await review('chatbot', id, 'complete')).status).toBe(200);
    // Refused: nothing changed (64323), and a cancel with nothing pending.
    expect((await update('Branch 2')).status).toBe(400);
    expect((await call(emu, 'PUT', `${CHATBOTS}/${id}/cancel`, AS_MASTER)).status).toBe(400);
    expect((await update('Branch 3')).status).toBe(200);
    expect((await call(emu, 'PUT', `${CHATBOTS}/${id}/cancel`, AS_MASTER)).status).toBe(200);
    expect((await call(emu, 'DELETE', `${CHATBOTS}/${id}`, AS_MASTER)).status).toBe(200);
    await settle(7);
    const room = { notiType: 'chatbot', brandId: 'BR.a', chatbotId: id };
    expectBoth([
      { ...room, method: 'created' },
      { ...room, method: 'rejected', reason: 'number unclear' },
      { ...room, method: 'modified' },
      { ...room, method: 'created' },
      { ...room, method: 'modified' },
      { ...room, method: 'modified' },
      { ...room, method: 'deleted' },
    ]);
  });

  it('a forced state announces approval and rejection (with its reason), and nothing else', async () => {
    const force = (approvalResult: string, approvalReason?: string) => admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: 'BR.a', id: '0200000001', approvalResult, ...(approvalReason !== undefined ? { approvalReason } : {}) });
    expect((await force('검수시작')).status).toBe(200);
    expect((await force('반려', 'logo missing')).status).toBe(200);
    expect((await force('승인')).status).toBe(200);
    await settle(2);
    const room = { notiType: 'chatbot', brandId: 'BR.a', chatbotId: '0200000001' };
    expectBoth([
      { ...room, method: 'rejected', reason: 'logo missing' },
      { ...room, method: 'created' },
    ]);
  });

  it('a registration of several rooms announces each as created', async () => {
    const rooms = JSON.stringify({ chatbots: [{ mdn: '0200000007', subTitle: 'Seven' }, { mdn: '0200000008', subTitle: 'Eight' }] });
    const reg = await call(emu, 'POST', CHATBOTS, { ...AS_MASTER, form: form({ chatbots: rooms }, cert) });
    expect(reg.status, reg.text).toBe(200);
    await settle(2);
    expectBoth(['0200000007', '0200000008'].map((chatbotId) => ({ notiType: 'chatbot', brandId: 'BR.a', chatbotId, method: 'created' })));
  });
});

/** A description template (TADS001A) with its own text. */
function template(custTmpltId: string, text: string): Record<string, unknown> {
  const fs: any = structuredClone(TEMPLATE_FORMS.find((f) => f.messagebaseformId === 'TADS001A')?.formattedString);
  fs.RCSMessage.openrichcardMessage.layout.children[0].children[2].text = text;
  return { brandId: 'BR.a', custTmpltId, messagebaseformId: 'TADS001A', tmpltName: `Template ${custTmpltId}`, formattedString: fs };
}

describe('bidirectional room notifications', () => {
  it('created on registering a room with a bidirectional ID, modified on converting, changing and unlinking, deleted; nothing for a refused call', async () => {
    const BIDI = '/api/1.1/brand/BR.a/bidirectional/chatbot';
    const send = (method: string, path: string, chatbot?: unknown) => call(emu, method, path, { ...AS_MASTER, ...(chatbot !== undefined ? { json: { chatbot } } : {}) });
    expect((await send('POST', BIDI, { chatbotId: 'bot-n', service: 'chat', subTitle: 'Chat', subNum: '0200000001', inputField: 1 })).status).toBe(200);
    expect((await send('POST', BIDI, { chatbotId: '0200000001', service: 'a2p', subTitle: 'Main', subNum: '0200000001', inputField: 1, botAgencyId: 'ag3' })).status).toBe(200);
    // Refused: an agency that does not serve the brand (64363).
    expect((await send('PUT', `${BIDI}/0200000001`, { botAgencyId: 'ag2' })).status).toBe(400);
    expect((await review('chatbot', 'bot-n', 'complete')).status).toBe(200);
    expect((await send('PUT', `${BIDI}/bot-n`, { subDescr: 'Ask us' })).status).toBe(200);
    expect((await send('DELETE', `${BIDI}/bot-n`)).status).toBe(200);
    expect((await send('DELETE', `${BIDI}/0200000001`)).status).toBe(200);
    await settle(6);
    const n = (chatbotId: string, method: string) => ({ notiType: 'chatbot', brandId: 'BR.a', chatbotId, method });
    expectBoth([n('bot-n', 'created'), n('0200000001', 'modified'), n('bot-n', 'created'), n('bot-n', 'modified'), n('bot-n', 'deleted'), n('0200000001', 'modified')]);
  });
});

describe('template notifications', () => {
  it('created on registration and on approval, rejected with the reason, modified on update and cancel, deleted; nothing for a refused call', async () => {
    const reg = await call(emu, 'POST', TEMPLATES, { ...AS_MASTER, json: { regMessagebases: [template('ship01', 'Order {{order}} shipped.')] } });
    expect(reg.status, reg.text).toBe(200);
    const id = reg.body.result[0].messagebaseId as string;
    expect((await review('template', id, 'reject', 'variable unclear')).status).toBe(200);
    const modify = (text: string) => call(emu, 'PUT', `${TEMPLATES}/${id}`, { ...AS_MASTER, json: template('ship01', text) });
    expect((await modify('Order {{order}} is on its way.')).status).toBe(200);
    expect((await review('template', id, 'complete')).status).toBe(200);
    // Refused: the same content again (64323), and a cancel with nothing pending (64321).
    expect((await modify('Order {{order}} is on its way.')).status).toBe(400);
    expect((await call(emu, 'PUT', `${TEMPLATES}/${id}/cancel`, AS_MASTER)).status).toBe(400);
    expect((await modify('Order {{order}} left the shop.')).status).toBe(200);
    expect((await call(emu, 'PUT', `${TEMPLATES}/${id}/cancel`, AS_MASTER)).status).toBe(200);
    expect((await call(emu, 'DELETE', `${TEMPLATES}/${id}`, AS_MASTER)).status).toBe(200);
    await settle(7);
    const t = { notiType: 'template', brandId: 'BR.a', messagebaseId: id, messagebaseformId: 'TADS001A' };
    expectBoth([
      { ...t, method: 'created' },
      { ...t, method: 'rejected', reason: 'variable unclear' },
      { ...t, method: 'modified' },
      { ...t, method: 'created' },
      { ...t, method: 'modified' },
      { ...t, method: 'modified' },
      { ...t, method: 'deleted' },
    ]);
  });

  it('one notification per template of a registration, and none when one entry refuses the request', async () => {
    const two = [template('a01', 'A {{x}}'), template('b01', 'B {{x}}')];
    expect((await call(emu, 'POST', TEMPLATES, { ...AS_MASTER, json: { regMessagebases: [...two, { ...template('c01', 'C'), messagebaseformId: 'NOPE' }] } })).status).toBe(400);
    expect((await call(emu, 'POST', TEMPLATES, { ...AS_MASTER, json: { regMessagebases: two } })).status).toBe(200);
    await settle(2);
    expectBoth(['a01', 'b01'].map((c) => ({ notiType: 'template', brandId: 'BR.a', messagebaseId: `UBR.a-${c}`, messagebaseformId: 'TADS001A', method: 'created' })));
  });
});
