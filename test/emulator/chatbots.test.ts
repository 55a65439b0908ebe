import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { AGENCY, BRAND, BRAND_KEY, admin, call, errorOf, form, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const CB = `/api/1.1/brand/${BRAND}/chatbot`;
const BIDI = `/api/1.1/brand/${BRAND}/bidirectional/chatbot`;
const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;
const cert = { subNumCertificate: { name: 'cert.pdf', bytes: Buffer.from('%PDF-1.4 cert'), type: 'application/pdf' } };

function updateForm(chatbot: Record<string, unknown>, withCert = false) {
  return form({ chatbot: JSON.stringify(chatbot) }, withCert ? cert : {});
}

describe('seeded rooms', () => {
  it('lists both example rooms with list fields only, and details with every field', async () => {
    const l = await call(emu, 'GET', CB);
    expect(l.body.result.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0212345678', '0298765432']);
    expect(l.body.result[0]).not.toHaveProperty('rcsReply');
    expect(l.body.result[0]).toMatchObject({ brandId: BRAND, subTitle: 'Coffee Co', display: '11', inputField: 1, psMenuUse: false, approvalResult: '승인', isMainNum: true });
    const d = (await call(emu, 'GET', `${CB}/0212345678`)).body.result[0];
    expect(d).toMatchObject({ chatbotId: '0212345678', subNum: '0212345678', service: 'a2p', rcsReply: '1', subDescr: 'Fresh coffee daily', saftyStatusYn: 'Y', status: 'published', persistentMenu: [], mediaUrl: [] });
    const d2 = (await call(emu, 'GET', `${CB}/0298765432`)).body.result[0];
    expect(d2).toMatchObject({ approvalResult: '검수시작', subTitle: 'Coffee Co Events', display: '10', inputField: 0, rcsReply: '0', subDescr: 'Event line' });
    expect(errorOf(await call(emu, 'GET', `${CB}/0000`))).toEqual({ status: 400, code: '64105', message: 'Invalid chatbotId on path parameter' });
  });
});

describe('chatbot register', () => {
  it('registers rooms in 승인대기 with defaults', async () => {
    const a = await call(emu, 'POST', CB, { form: form({ chatbots: JSON.stringify({ chatbots: [{ mdn: '0311112222', subTitle: 'Branch' }] }) }, cert) });
    expect(a.status).toBe(200);
    expect(a.body.result[0]).toMatchObject({ chatbotId: '0311112222', subNum: '0311112222', approvalResult: '승인대기', rcsReply: '1', display: '01', inputField: 1, saftyStatusYn: 'Y', service: 'a2p' });
    expect((await call(emu, 'GET', CB)).body.pagination.total).toBe(3);
  });

  it('needs the certificate (64305) of an allowed type (64355)', async () => {
    const chatbots = JSON.stringify({ chatbots: [{ mdn: '0311112222', subTitle: 'Branch' }] });
    expect(errorOf(await call(emu, 'POST', CB, { form: form({ chatbots }) }))).toEqual({ status: 400, code: '64305', message: 'Missing Certification document' });
    const bad = await call(emu, 'POST', CB, { form: form({ chatbots }, { subNumCertificate: { name: 'cert.exe', bytes: Buffer.from('x') } }) });
    expect(errorOf(bad).code).toBe('64355');
    const huge = await call(emu, 'POST', CB, { form: form({ chatbots }, { subNumCertificate: { name: 'cert.zip', bytes: Buffer.alloc(20 * 1024 * 1024 + 1) } }) });
    expect(errorOf(huge).code).toBe('64395');
  });

  it('checks fields: mdn and subTitle required, lengths, enums, duplicates, bad JSON', async () => {
    const reg = (chatbots: unknown) => call(emu, 'POST', CB, { form: form({ chatbots: JSON.stringify({ chatbots }) }, cert) });
    expect(errorOf(await reg([{ subTitle: 'x' }])).message).toBe('required value: [mdn]');
    expect(errorOf(await reg([{ mdn: '031' }])).message).toBe('required value: [subTitle]');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x'.repeat(21) }])).message).toBe('Over specified size (subTitle)');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x', subDescr: 'x'.repeat(51) }])).message).toBe('Over specified size (subDescr)');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x', display: '12' }])).message).toBe('Invalid type of Attribute (display)');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x', inputField: 2 }])).message).toBe('Invalid type of Attribute (inputField)');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x', rcsReply: 1 }])).message).toBe('Invalid type of Attribute (rcsReply)');
    expect(errorOf(await reg([{ mdn: '031', subTitle: 'x', saftyStatusYn: 'y' }])).message).toBe('Invalid type of Attribute (saftyStatusYn)');
    expect(errorOf(await reg([{ mdn: '0212345678', subTitle: 'dup' }])).message).toBe('Invalid type of Attribute (mdn)');
    expect(errorOf(await reg([])).message).toBe('Invalid type of Attribute (chatbots)');
    expect(errorOf(await call(emu, 'POST', CB, { form: form({ chatbots: '{not json' }, cert) })).code).toBe('64302');
  });
});

describe('chatbot update, state rules and cancel', () => {
  it('a subTitle change on 승인 gives 승인대기(수정); cancel restores the name and 승인', async () => {
    const u = await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ subTitle: 'Coffee Company' }) });
    expect(u.status).toBe(200);
    expect(u.body.result[0]).toMatchObject({ subTitle: 'Coffee Company', approvalResult: '승인대기(수정)' });
    expect(errorOf(await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ subTitle: 'Again' }) })).code).toBe('64328');
    expect((await call(emu, 'PUT', `${CB}/0212345678/cancel`)).body.result).toEqual([{ chatbotId: '0212345678' }]);
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0]).toMatchObject({ subTitle: 'Coffee Co', approvalResult: '승인' });
  });

  it('other changes on 승인 keep 승인; an identical update is 64323', async () => {
    const u = await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ mdn: '0212345678', subDescr: 'Fresh beans', display: '10', inputField: 0 }) });
    expect(u.body.result[0]).toMatchObject({ approvalResult: '승인', subDescr: 'Fresh beans', display: '10', inputField: 0 });
    const same = await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ subTitle: 'Coffee Co', subDescr: 'Fresh beans', display: '10', inputField: 0, rcsReply: '1', saftyStatusYn: 'Y' }) });
    expect(errorOf(same)).toEqual({ status: 400, code: '64323', message: 'No changes' });
  });

  it('is refused outside 저장, 반려, 승인 (64328); on 반려 any update gives 승인대기', async () => {
    expect(errorOf(await call(emu, 'PUT', `${CB}/0298765432`, { form: updateForm({ subDescr: 'x' }) }))).toEqual({ status: 400, code: '64328', message: 'Not allowed modification' });
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0298765432', action: 'reject', reason: 'number unclear' });
    const d = (await call(emu, 'GET', `${CB}/0298765432`)).body.result[0];
    expect(d).toMatchObject({ approvalResult: '반려', approvalReason: 'number unclear' });
    const u = await call(emu, 'PUT', `${CB}/0298765432`, { form: updateForm({ subDescr: 'Events and news' }, true) });
    expect(u.body.result[0].approvalResult).toBe('승인대기');
    await call(emu, 'PUT', `${CB}/0298765432/cancel`);
    expect((await call(emu, 'GET', `${CB}/0298765432`)).body.result[0].approvalResult).toBe('저장');
    expect((await call(emu, 'PUT', `${CB}/0298765432`, { form: updateForm({ subDescr: 'Saved edit' }) })).body.result[0].approvalResult).toBe('저장');
  });

  it('checks update fields and parts', async () => {
    expect(errorOf(await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ mdn: '0299999999' }) })).message).toBe('Invalid type of Attribute (mdn)');
    expect(errorOf(await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ subTitle: 'x'.repeat(21) }) })).code).toBe('64304');
    expect(errorOf(await call(emu, 'PUT', `${CB}/0212345678`, { form: form({ other: 'x' }) })).message).toBe('required value: [chatbot]');
    expect(errorOf(await call(emu, 'PUT', `${CB}/0212345678`, { form: updateForm({ display: 11 }) })).code).toBe('64303');
    expect(errorOf(await call(emu, 'PUT', `${CB}/nope`, { form: updateForm({ subDescr: 'x' }) })).code).toBe('64105');
  });

  it('a room has no 검수시작(수정): the admin API refuses to force it or to start a modification review into it', async () => {
    const forced = await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: BRAND, id: '0212345678', approvalResult: '검수시작(수정)' });
    expect(forced.status).toBe(400);
    expect(forced.text).not.toMatch(/approvalResult must be one of [^"]*검수시작\(수정\)/);
    await admin(emu, 'POST', 'state', { kind: 'chatbot', brandId: BRAND, id: '0212345678', approvalResult: '승인대기(수정)' });
    expect((await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0212345678', action: 'start' })).status).toBe(409);
  });

  it('the review flow reaches 승인 through the admin API', async () => {
    expect((await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0298765432', action: 'approve' })).body.approvalResult).toBe('검수완료');
    expect((await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0298765432', action: 'complete' })).body.approvalResult).toBe('승인');
    expect((await call(emu, 'GET', `${CB}/0298765432`)).body.result[0].approvalDate).not.toBeNull();
  });

  it('deletes a room with the service spelling releatedChatbots', async () => {
    const d = await call(emu, 'DELETE', `${CB}/0298765432`);
    expect(d.body.result).toEqual([{ chatbotId: '0298765432', releatedChatbots: [] }]);
    expect(errorOf(await call(emu, 'GET', `${CB}/0298765432`)).code).toBe('64105');
  });

  it('an agency with the brand key may update (role check)', async () => {
    const u = await call(emu, 'PUT', `${CB}/0212345678`, { token: AGENCY, brandKey: BRAND_KEY, form: updateForm({ subDescr: 'By agency' }) });
    expect(u.status).toBe(200);
    expect(u.body.result[0].updateId).toBe('agency');
  });
});

describe('persistent menu and bidirectional rooms', () => {
  const MENU = `${BIDI}/0212345678/persistentmenu`;
  async function autoReply() {
    return (await call(emu, 'POST', AR, { json: { autoReplyMsgName: 'Hours', messagebaseId: 'SCS00000', body: { description: '9-18' } } })).body.result[0].autoReplyMsgId as string;
  }
  const call_ = { type: 'action', title: 'Call us', ordNo: 2, actionType: 'dialerAction', action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } };

  it('creates a menu: postbackIds assigned, psMenuUse true, room now bidirectional, state unchanged', async () => {
    expect((await call(emu, 'GET', BIDI)).body.pagination.total).toBe(0);
    const id = await autoReply();
    const p = await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [call_, { type: 'reply', title: 'Opening hours', ordNo: 1, autoReplyMsgId: id }] } } });
    expect(p.body.result).toEqual([{ chatbotId: '0212345678' }]);
    const d = (await call(emu, 'GET', `${BIDI}/0212345678`)).body.result[0];
    expect(d.psMenuUse).toBe(true);
    expect(d.approvalResult).toBe('승인');
    expect(d.persistentMenu.map((m: { title: string }) => m.title)).toEqual(['Opening hours', 'Call us']);
    expect(d.persistentMenu[0]).toMatchObject({ type: 'reply', autoReplyMsgId: id, postbackId: expect.stringMatching(/^PM\d+$/) });
    const l = await call(emu, 'GET', BIDI);
    expect(l.body.result.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0212345678']);
    expect(l.body.result[0]).not.toHaveProperty('persistentMenu');
    expect(l.body.result[0]).not.toHaveProperty('rcsReply');
  });

  it('POST on an existing menu is 64328; PUT replaces; identical PUT is 64323; DELETE removes', async () => {
    await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [call_] } } });
    expect(errorOf(await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [call_] } } })).code).toBe('64328');
    const feed = { type: 'feed', title: 'News', ordNo: 1 };
    expect((await call(emu, 'PUT', MENU, { json: { persistentMenu: { menu: [feed] } } })).status).toBe(200);
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0].persistentMenu).toEqual([{ postbackId: expect.any(String), ...feed }]);
    expect(errorOf(await call(emu, 'PUT', MENU, { json: { persistentMenu: { menu: [feed] } } })).code).toBe('64323');
    expect((await call(emu, 'DELETE', MENU)).body.result).toEqual([{ chatbotId: '0212345678' }]);
    const d = (await call(emu, 'GET', `${CB}/0212345678`)).body.result[0];
    expect([d.persistentMenu, d.psMenuUse]).toEqual([[], false]);
    expect(errorOf(await call(emu, 'DELETE', MENU)).code).toBe('64323');
  });

  it('pause toggles psMenuUse; only the relay agency of the room may pause (64390); 64388 without a menu; 64389 bad isPause', async () => {
    const room = emu.store.brands.get(BRAND)?.chatbots.get('0212345678');
    if (room === undefined) throw new Error('seed room missing');
    room.botAgencyId = 'agency';
    const asAgency = { token: AGENCY, brandKey: BRAND_KEY };
    expect(errorOf(await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: { isPause: true } }))).toEqual({ status: 400, code: '64388', message: 'This chatbot dose not using the persistentMenu' });
    await call(emu, 'POST', MENU, { json: { persistentMenu: { menu: [call_] } } });
    // The master account is not the room's relay agency.
    expect(errorOf(await call(emu, 'PUT', `${MENU}/pause`, { json: { isPause: true } }))).toEqual({ status: 400, code: '64390', message: 'This agency dose not support relay' });
    room.botAgencyId = 'another-agency';
    expect(errorOf(await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: { isPause: true } })).code).toBe('64390');
    room.botAgencyId = 'agency';
    const p = await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: { isPause: true } });
    expect(p.body.result[0]).toMatchObject({ chatbotId: '0212345678', isPause: true, pausedDate: expect.stringMatching(/\+09$/) });
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0].psMenuUse).toBe(false);
    const r = await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: { isPause: false } });
    expect(r.body.result[0]).toMatchObject({ isPause: false, resumeDate: expect.any(String) });
    expect((await call(emu, 'GET', `${CB}/0212345678`)).body.result[0].psMenuUse).toBe(true);
    expect(errorOf(await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: { isPause: 'yes' } }))).toEqual({ status: 400, code: '64389', message: 'Invalid isPause format' });
    expect(errorOf(await call(emu, 'PUT', `${MENU}/pause`, { ...asAgency, json: {} })).code).toBe('64389');
  });

  it('refuses bad menus', async () => {
    const put = (menu: unknown) => call(emu, 'POST', MENU, { json: { persistentMenu: { menu } } });
    const six = Array.from({ length: 6 }, (_, i) => ({ type: 'feed', title: `F${i}`, ordNo: i }));
    expect(errorOf(await put(six))).toEqual({ status: 400, code: '64377', message: 'Invalid_menu_format [menu]' });
    expect(errorOf(await put([{ type: 'menu', title: 'Sub', ordNo: 1 }])).message).toBe('Invalid_menu_format [type]');
    expect(errorOf(await put([{ type: 'app', title: 'App', ordNo: 1 }])).message).toBe('Invalid_menu_format [type]');
    expect(errorOf(await put([{ type: 'feed', title: 'x'.repeat(26), ordNo: 1 }])).message).toBe('Over specified size (title)');
    expect(errorOf(await put([{ type: 'feed', ordNo: 1 }]))).toEqual({ status: 400, code: '64376', message: 'Missing Menu Title' });
    expect(errorOf(await put([{ type: 'feed', title: 'a' }])).message).toBe('required value: [ordNo]');
    expect(errorOf(await put([{ type: 'reply', title: 'a', ordNo: 1, autoReplyMsgId: 'ARM404' }]))).toEqual({ status: 400, code: '64375', message: 'AutoReplyMsgId not found' });
    expect(errorOf(await put([{ ...call_, actionType: 'urlAction' }])).message).toBe('Invalid_menu_format [actionType]');
    expect(errorOf(await put([{ ...call_, action: {} }])).message).toBe('Invalid_menu_format [action]');
    expect(errorOf(await call(emu, 'POST', MENU, { json: {} })).message).toBe('required value: [persistentMenu]');
    // Only rooms with rcsReply "1".
    const other = await call(emu, 'POST', `${BIDI}/0298765432/persistentmenu`, { json: { persistentMenu: { menu: [call_] } } });
    expect(errorOf(other).message).toBe('Invalid_menu_format [rcsReply]');
    expect(errorOf(await call(emu, 'POST', `${BIDI}/nope/persistentmenu`, { json: { persistentMenu: { menu: [] } } })).code).toBe('64105');
  });
});
