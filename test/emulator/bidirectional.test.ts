// The bidirectional room routes: registering a room with a bidirectional ID,
// converting a sender-number room, changing and deleting them, with the
// public document's errors; and the sender-number list leaving chat rooms out.

import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, call, errorOf, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const CB = `/api/1.1/brand/${BRAND}/chatbot`;
const BIDI = `/api/1.1/brand/${BRAND}/bidirectional/chatbot`;
const chat = (over: Record<string, unknown> = {}) => ({ chatbotId: 'Coffee_Chat', service: 'chat', subTitle: 'Coffee chat', subNum: '0212345678', inputField: 1, ...over });

describe('registering a room with a bidirectional ID', () => {
  it('keeps the id in lower case with the bot- prefix, waiting for review, listed as bidirectional and not as a sender-number room', async () => {
    const a = await call(emu, 'POST', BIDI, { json: { chatbot: chat({ botAgencyId: 'agency', display: '11' }) } });
    expect(a.status).toBe(200);
    expect(a.body.result[0]).toMatchObject({ chatbotId: 'bot-coffee_chat', service: 'chat', subNum: '0212345678', subTitle: 'Coffee chat', approvalResult: '승인대기', botAgencyId: 'agency', display: '11', inputField: 1 });
    expect(a.body.result[0]).not.toHaveProperty('rcsReply');
    const list = (await call(emu, 'GET', BIDI)).body.result.map((c: { chatbotId: string }) => c.chatbotId);
    expect(list).toEqual(['bot-coffee_chat']);
    expect((await call(emu, 'GET', CB)).body.result.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0212345678', '0298765432']);
    expect((await call(emu, 'GET', `${BIDI}/bot-coffee_chat`)).body.result[0]).toMatchObject({ rcsReply: '1', service: 'chat', persistentMenu: [] });
    // An id already carrying the prefix is kept as it is; a taken one is refused.
    expect((await call(emu, 'POST', BIDI, { json: { chatbot: chat({ chatbotId: 'bot-two' }) } })).body.result[0].chatbotId).toBe('bot-two');
    expect(errorOf(await call(emu, 'POST', BIDI, { json: { chatbot: chat({ chatbotId: 'BOT-TWO' }) } }))).toEqual({ status: 400, code: '64366', message: 'chabotId is duplicated' });
  });

  it('refuses what the document refuses', async () => {
    const reg = (c: Record<string, unknown>) => call(emu, 'POST', BIDI, { json: { chatbot: c } });
    const { service: _s, ...noService } = chat();
    expect(errorOf(await reg(noService)).code).toBe('64368');
    const { subTitle: _t, ...noTitle } = chat();
    expect(errorOf(await reg(noTitle)).code).toBe('64372');
    const { subNum: _n, ...noNum } = chat();
    expect(errorOf(await reg(noNum)).code).toBe('64370');
    expect(errorOf(await reg(chat({ inputField: 2 }))).code).toBe('64364');
    expect(errorOf(await reg(chat({ chatbotId: 'has space' }))).code).toBe('64373');
    expect(errorOf(await reg(chat({ chatbotId: 'twelve_chars' }))).code).toBe('64373');
    // The reply number must be an approved sender-number room of the brand (0298765432 is under review).
    expect(errorOf(await reg(chat({ subNum: '0298765432' }))).code).toBe('64362');
    expect(errorOf(await reg(chat({ subNum: '0399999999' }))).code).toBe('64362');
    expect(errorOf(await reg(chat({ botAgencyId: 'nobody' }))).code).toBe('64363');
    expect(errorOf(await reg(chat({ subTitle: 'x'.repeat(21) }))).code).toBe('64304');
    expect((await call(emu, 'GET', BIDI)).body.pagination.total).toBe(0);
  });
});

describe('converting a sender-number room', () => {
  const convert = (over: Record<string, unknown> = {}) => call(emu, 'POST', BIDI, { json: { chatbot: { chatbotId: '0212345678', service: 'a2p', subTitle: 'Coffee Co', subNum: '0212345678', inputField: 1, botAgencyId: 'agency', ...over } } });

  it('links the agency and keeps the room approved when its name is kept; unlinking (DELETE) keeps the room', async () => {
    const a = await convert();
    expect(a.body.result[0]).toMatchObject({ chatbotId: '0212345678', service: 'a2p', botAgencyId: 'agency', approvalResult: '승인' });
    expect((await call(emu, 'GET', BIDI)).body.result.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0212345678']);
    expect(errorOf(await convert()).code).toBe('64366');
    expect((await call(emu, 'DELETE', `${BIDI}/0212345678`)).body.result).toEqual([{ chatbotId: '0212345678' }]);
    expect((await call(emu, 'GET', BIDI)).body.pagination.total).toBe(0);
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0]).toMatchObject({ approvalResult: '승인', service: 'a2p' });
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0]).not.toHaveProperty('botAgencyId');
  });

  it('sends a new name to review; refuses a room not approved, unknown, without an agency or with another reply number', async () => {
    expect((await convert({ subTitle: 'Coffee Chat' })).body.result[0]).toMatchObject({ approvalResult: '승인대기(수정)', subTitle: 'Coffee Chat' });
    await admin(emu, 'POST', 'reset');
    expect(errorOf(await convert({ chatbotId: '0298765432', subNum: '0298765432' })).code).toBe('64328');
    expect(errorOf(await convert({ chatbotId: '0399999999', subNum: '0399999999' })).code).toBe('64383');
    expect(errorOf(await convert({ botAgencyId: undefined })).code).toBe('64371');
    expect(errorOf(await convert({ subNum: '0298765432' })).code).toBe('64361');
  });
});

describe('changing and deleting', () => {
  it('a name change on an approved room goes to review; the same request again is 64323; a room under review is refused (64328)', async () => {
    await call(emu, 'POST', BIDI, { json: { chatbot: chat() } });
    const id = 'bot-coffee_chat';
    expect(errorOf(await call(emu, 'PUT', `${BIDI}/${id}`, { json: { chatbot: { subDescr: 'x' } } })).code).toBe('64328');
    expect((await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id, action: 'complete' })).body.approvalResult).toBe('승인');
    const d = await call(emu, 'PUT', `${BIDI}/${id}`, { json: { chatbot: { display: '10' } } });
    expect(d.body.result[0]).toMatchObject({ display: '10', approvalResult: '승인' });
    expect(errorOf(await call(emu, 'PUT', `${BIDI}/${id}`, { json: { chatbot: { display: '10' } } })).code).toBe('64323');
    const r = await call(emu, 'PUT', `${BIDI}/${id}`, { json: { chatbot: { subTitle: 'Coffee talk' } } });
    expect(r.body.result[0]).toMatchObject({ subTitle: 'Coffee talk', approvalResult: '승인대기(수정)' });
    expect(errorOf(await call(emu, 'PUT', `${BIDI}/0298765432`, { json: { chatbot: { display: '10' } } })).code).toBe('64543');
    expect((await call(emu, 'DELETE', `${BIDI}/${id}`)).body.result).toEqual([{ chatbotId: id }]);
    expect(errorOf(await call(emu, 'GET', `${BIDI}/${id}`)).code).toBe('64105');
  });
});

describe("a room with a bidirectional ID's persistent menu", () => {
  it('is registered, replaced and deleted through the menu routes with its chatbotId, in any review state, and read in its bidirectional detail with postbackIds', async () => {
    expect((await call(emu, 'POST', BIDI, { json: { chatbot: chat({ chatbotId: 'bot-menu' }) } })).status).toBe(200);
    const MENU = `${BIDI}/bot-menu/persistentmenu`;
    const item = { type: 'feed', title: 'News', ordNo: 1, feedId: 'FEED-1' };
    // Under review (승인대기): a menu is not reviewed, and may change.
    expect((await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [item] } } })).body.result).toEqual([{ chatbotId: 'bot-menu' }]);
    const detail = (await call(emu, 'GET', `${BIDI}/bot-menu`)).body.result[0];
    expect(detail).toMatchObject({ approvalResult: '승인대기', persistentMenu: [{ ...item, postbackId: expect.stringMatching(/^PM\d+$/) }] });
    expect(errorOf(await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [item] } } })).code).toBe('64328');
    expect(errorOf(await call(emu, 'PUT', MENU, { json: { persistentMenu: { menu: [item] } } })).code).toBe('64323');
    expect((await call(emu, 'PUT', MENU, { json: { persistentMenu: { menu: [{ ...item, title: 'Brand news' }] } } })).status).toBe(200);
    expect((await call(emu, 'GET', `${BIDI}/bot-menu`)).body.result[0].persistentMenu).toMatchObject([{ title: 'Brand news' }]);
    // Every menu write moves the room's updateDate, in the list too (what the live cache serves a detail by).
    expect((await call(emu, 'GET', BIDI)).body.result[0].updateDate).not.toBe(detail.updateDate);
    expect((await call(emu, 'DELETE', MENU)).body.result).toEqual([{ chatbotId: 'bot-menu' }]);
    expect((await call(emu, 'GET', `${BIDI}/bot-menu`)).body.result[0]).toMatchObject({ service: 'chat', persistentMenu: [] });
  });
});

describe("an agency's access while a bidirectional room names it", () => {
  const PRIV = `/api/1.1/corp/master/brand/${BRAND}/privilege`;
  const agencies = async (): Promise<string[]> => (await call(emu, 'GET', PRIV)).body.result.filter((p: { privilegeType: string }) => p.privilegeType === 'Agency').map((p: { id: string }) => p.id);

  it('cannot be removed while a room with a bidirectional ID or a converted room names it (64393); once unlinked or deleted, it can', async () => {
    expect((await call(emu, 'POST', BIDI, { json: { chatbot: chat({ chatbotId: 'bot-linked', botAgencyId: 'agency' }) } })).status).toBe(200);
    expect(errorOf(await call(emu, 'DELETE', `${PRIV}/agency`))).toEqual({ status: 400, code: '64393', message: 'Unable to delete agency privilege (agencyId is registered in the twoway chatbot)' });
    expect(await agencies()).toEqual(['agency']);
    // Deleting the room frees it; a converted room holds it the same way, until unlinked.
    expect((await call(emu, 'DELETE', `${BIDI}/bot-linked`)).status).toBe(200);
    expect((await call(emu, 'POST', BIDI, { json: { chatbot: { chatbotId: '0212345678', service: 'a2p', subTitle: 'Coffee Co', subNum: '0212345678', inputField: 1, botAgencyId: 'agency' } } })).status).toBe(200);
    expect(errorOf(await call(emu, 'DELETE', `${PRIV}/agency`)).code).toBe('64393');
    expect((await call(emu, 'PUT', `${BIDI}/0212345678`, { json: { chatbot: { botAgencyId: '' } } })).status).toBe(200);
    expect((await call(emu, 'DELETE', `${PRIV}/agency`)).body.result).toEqual([{ privilegeType: 'Agency', id: 'agency', status: 'Ok' }]);
    expect(await agencies()).toEqual([]);
  });
});
