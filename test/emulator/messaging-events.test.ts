// User events played through the admin API and change notifications, over real
// HTTP: newUser, message (text, file, location), response to a menu reply (with
// the auto-reply the platform then sends) and to a chip or button reply, and
// notiType logo, autoreplymsg, brand and agencyKey.

import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, form, png } from './helpers.js';
import { BASE_MESSAGE, sendMessage, useMessaging } from './messaging-helpers.js';
import type { Receiver } from './webhook-receiver.js';

let emu: RunningEmulator;
let rx: Receiver;
useMessaging((e, r) => {
  emu = e;
  rx = r;
});

beforeEach(async () => {
  await admin(emu, 'POST', 'messaging/room', { chatbotId: '0200000002', moMsgWebhookUrl: `${rx.url}/mo/` });
  await admin(emu, 'POST', 'messaging/options', { batchIntervalMs: 10 });
});

const TS = '2026-11-21T10:00:00.000+09';
const WHO = { chatbotId: '0200000002', userContact: '01000000001' };
const play = (body: Record<string, unknown>) => admin(emu, 'POST', 'messaging/user', body);
const events = () => rx.on('/mo/', true);
const statusItems = () => rx.on('/msgstatus').flatMap((c) => c.body as any[]);
const notifications = () => rx.on('/').flatMap((c) => c.body as any[]);

/** Play an event and return the one item posted for it (checking it came as a one-item array). */
async function posted(body: Record<string, unknown>): Promise<any> {
  const before = events().length;
  const a = await play(body);
  expect(a.status).toBe(200);
  const call = await rx.until(() => events()[before]);
  expect(call.body).toHaveLength(1);
  expect(call.body[0]).toEqual(a.body.item);
  return { ...call.body[0], path: call.path };
}

describe('user events', () => {
  it('newUser: a fixed greeting, posted under the handset carrier segment', async () => {
    await admin(emu, 'POST', 'messaging/handset', { userContact: '01000000001', outcome: 'success', carrier: 'carrier2' });
    expect(await posted({ eventType: 'newUser', ...WHO })).toEqual({ replyId: 'RPL000000000001', eventType: 'newUser', displayText: '대화방에 입장하였습니다', ...WHO, timestamp: TS, path: '/mo/carrier2' });
  });

  it('message: text, file and location bodies, each with its own replyId', async () => {
    const text = await posted({ eventType: 'message', ...WHO, text: 'hi' });
    expect(text).toEqual({ replyId: 'RPL000000000001', eventType: 'message', messageBody: { textMessage: 'hi' }, ...WHO, timestamp: TS, path: '/mo/carrier1' });
    const file = await posted({ eventType: 'message', ...WHO, file: { fileUrl: 'http://127.0.0.1/f.jpg', fileMIMEType: 'image/jpeg' } });
    expect(file.messageBody).toEqual({ fileMessage: { fileUrl: 'http://127.0.0.1/f.jpg', fileMIMEType: 'image/jpeg' } });
    const location = await posted({ eventType: 'message', ...WHO, location: { label: 'Shop', pos: '37.5665 126.978', radius: 10 } });
    expect(location.messageBody).toEqual({ geolocationPushMessage: { label: 'Shop', timestamp: TS, timeOffset: 540, pos: '37.5665 126.978', radius: 10 } });
    expect(new Set([text.replyId, file.replyId, location.replyId]).size).toBe(3);
  });

  it('response to a menu reply with an auto-reply: the event, then the msgstatus of the auto-reply the platform sent', async () => {
    const event = await posted({ eventType: 'response', ...WHO, title: 'Hours' });
    expect(event).toEqual({ replyId: expect.any(String), eventType: 'response', postbackId: expect.stringMatching(/^PM/), displayText: 'Hours', ...WHO, timestamp: TS, path: '/mo/carrier1' });
    await rx.until(() => statusItems().length === 1);
    expect(statusItems()[0]).toEqual({ clientMsgId: 'ARS000000000001', status: 'success', timestamp: TS, autoReplyMsgId: 'ARM-hours', postbackId: event.postbackId, ...WHO, bill: 1 });
    // The same tap by postbackId; this handset is scripted to fail: the auto-reply fails, unbilled.
    await admin(emu, 'POST', 'messaging/handset', { userContact: '01000000001', outcome: 'fail' });
    await posted({ eventType: 'response', ...WHO, postbackId: event.postbackId });
    await rx.until(() => statusItems().length === 2);
    expect(statusItems()[1]).toMatchObject({ status: 'fail', error: { code: '40000', message: 'Not delivered to the handset' }, autoReplyMsgId: 'ARM-hours', bill: 0 });
    // Both taps are counted in the brand's menu statistics, on the emulator's day.
    const day = '20261121';
    const stats = await call(emu, 'GET', `/api/1.1/statQuery/persistentMenu/BR.a?startDate=${day}&endDate=${day}&chatbotId=${WHO.chatbotId}`, { token: 't-master' });
    expect(stats.status).toBe(200);
    expect(stats.body.result).toEqual([{ statDate: day, brandId: 'BR.a', chatbotId: WHO.chatbotId, menuList: [{ postbackId: event.postbackId, menuType: 'autoreply', title: 'Hours', clickCount: 2 }] }]);
  });

  it('a menu reply whose auto-reply is gone: the auto-reply item fails', async () => {
    expect((await call(emu, 'DELETE', '/api/1.1/brand/BR.a/autoreplymsg/ARM-hours', { token: 't-master' })).status).toBe(200);
    await posted({ eventType: 'response', ...WHO, title: 'Hours' });
    await rx.until(() => statusItems().length === 1);
    expect(statusItems()[0]).toMatchObject({ status: 'fail', error: { code: '40000', message: 'Auto-reply not found' }, bill: 0 });
  });

  it('response to a menu reply without an auto-reply sends no msgstatus', async () => {
    const event = await posted({ eventType: 'response', ...WHO, title: 'Chat' });
    expect(event.displayText).toBe('Chat');
    await new Promise((r) => setTimeout(r, 60));
    expect(statusItems()).toEqual([]);
  });

  it('response to a chip or button reply of a session message carries the postbackData given at send time', async () => {
    const { replyId } = (await play({ eventType: 'newUser', ...WHO })).body;
    const sent = await sendMessage(emu, {
      ...BASE_MESSAGE,
      ...WHO,
      clientMsgId: 'ask',
      replyId,
      chipList: [{ reply: { displayText: 'Yes', postback: { data: 'answer=yes' } } }],
      buttons: [{ suggestions: [{ reply: { displayText: 'Later', postback: { data: 'answer=later' } } }] }],
    });
    expect(sent.status).toBe(200);
    const chip = await posted({ eventType: 'response', clientMsgId: 'ask', displayText: 'Yes' });
    expect(chip).toEqual({ replyId: expect.any(String), eventType: 'response', postbackData: 'answer=yes', displayText: 'Yes', ...WHO, timestamp: TS, path: '/mo/carrier1' });
    const button = await posted({ eventType: 'response', msgId: sent.body.data.msgId, displayText: 'Later' });
    expect(button.postbackData).toBe('answer=later');
    expect(chip.replyId).not.toBe(button.replyId);
  });

  it.each<[string, Record<string, unknown>, number]>([
    ['an unknown eventType', { eventType: 'typing', ...WHO }, 400],
    ['a message with two bodies', { eventType: 'message', ...WHO, text: 'a', file: { fileUrl: 'u', fileMIMEType: 't' } }, 400],
    ['a location without two coordinates', { eventType: 'message', ...WHO, location: { pos: '37.5' } }, 400],
    ['an unknown room', { eventType: 'newUser', chatbotId: '0999', userContact: '1' }, 404],
    ['a room that is not bidirectional', { eventType: 'newUser', chatbotId: '0200000001', userContact: '1' }, 409],
    ['an unknown menu item', { eventType: 'response', ...WHO, title: 'Nope' }, 404],
    ['a menu item that is not a reply', { eventType: 'response', ...WHO, title: 'Call' }, 409],
    ['a reply not in the message', { eventType: 'response', clientMsgId: 'none', displayText: 'Yes' }, 404],
  ])('refuses %s', async (_name, body, status) => {
    const a = await play(body);
    expect([a.status, a.body.error.code]).toEqual([status, `60${status}`]);
    expect(events()).toEqual([]);
  });

  it('refuses a room not shown on the brand home (display 10 or 00): it cannot receive RCS messages', async () => {
    await admin(emu, 'POST', 'messaging/room', { chatbotId: '0200000010', moMsgWebhookUrl: `${rx.url}/mo/` });
    const a = await play({ eventType: 'newUser', chatbotId: '0200000010', userContact: '01000000001' });
    expect([a.status, a.body.error.code]).toEqual([409, '60409']);
    expect(a.body.error.message).toContain('room 0200000010 is not shown on the brand home (display 10) and cannot receive RCS messages');
    expect(events()).toEqual([]);
  });

  it('refuses a room without moMsgWebhookUrl, and a paused menu', async () => {
    await admin(emu, 'POST', 'messaging/room', { chatbotId: '0200000002', moMsgWebhookUrl: null });
    expect((await play({ eventType: 'newUser', ...WHO })).body.error.message).toContain('has no moMsgWebhookUrl');
    await admin(emu, 'POST', 'messaging/room', { chatbotId: '0200000002', moMsgWebhookUrl: rx.url });
    expect((await call(emu, 'PUT', '/api/1.1/brand/BR.a/bidirectional/chatbot/0200000002/persistentmenu/pause', { token: 't-agency', brandKey: 'BK.a', json: { isPause: true } })).status).toBe(200);
    expect((await play({ eventType: 'response', ...WHO, title: 'Hours' })).body.error.message).toContain('paused');
  });
});

describe('notifications', () => {
  it('logo: created on registration and approval, rejected with the reason, modified, deleted', async () => {
    const reg = await call(emu, 'POST', '/api/1.1/brand/BR.a/logo', { token: 't-master', form: form({ name: 'New' }, { file: { name: 'l.png', bytes: png(300, 300) } }) });
    const fileId = reg.body.result[0].fileId as string;
    await admin(emu, 'POST', 'review', { kind: 'logo', brandId: 'BR.a', id: fileId, action: 'reject', reason: 'blurry' });
    await call(emu, 'PUT', `/api/1.1/brand/BR.a/logo/${fileId}`, { token: 't-master', form: form({ name: 'Sharper' }) });
    await admin(emu, 'POST', 'review', { kind: 'logo', brandId: 'BR.a', id: fileId, action: 'complete' });
    await call(emu, 'DELETE', `/api/1.1/brand/BR.a/logo/${fileId}`, { token: 't-master' });
    await rx.until(() => notifications().length === 5);
    const logo = { notiType: 'logo', brandId: 'BR.a', fileId };
    expect(notifications()).toEqual([
      { ...logo, method: 'created' },
      { ...logo, method: 'rejected', reason: 'blurry' },
      { ...logo, method: 'modified' },
      { ...logo, method: 'created' },
      { ...logo, method: 'deleted' },
    ]);
  });

  it('autoreplymsg: created, modified, deleted; only to the agencies of the brand; never for a refused call', async () => {
    const body = { autoReplyMsgName: 'Hi', messagebaseId: 'SCS00000', body: { description: 'hi' } };
    const created = await call(emu, 'POST', '/api/1.1/brand/BR.a/autoreplymsg', { token: 't-master', json: body });
    const id = created.body.result[0].autoReplyMsgId as string;
    expect((await call(emu, 'PUT', `/api/1.1/brand/BR.a/autoreplymsg/${id}`, { token: 't-master', json: body })).status).toBe(400);
    await call(emu, 'PUT', `/api/1.1/brand/BR.a/autoreplymsg/${id}`, { token: 't-master', json: { ...body, autoReplyMsgName: 'Hello' } });
    await call(emu, 'DELETE', `/api/1.1/brand/BR.a/autoreplymsg/${id}`, { token: 't-master' });
    await rx.until(() => notifications().length === 3);
    await new Promise((r) => setTimeout(r, 30));
    expect(notifications()).toEqual(['created', 'modified', 'deleted'].map((method) => ({ notiType: 'autoreplymsg', brandId: 'BR.a', autoReplyMsgId: id, method })));
  });

  it('brand: modified on a page change, rejected with the reason, modified on approval; never for a refused call', async () => {
    const page = { name: 'BR.a', description: 'BR.a', tel: '15880000', categoryId: 'ETC', subCategoryId: 'ETC001' };
    const put = (regBrand: Record<string, unknown>) => {
      const f = form({});
      f.append('regBrand', new Blob([JSON.stringify({ regBrand })], { type: 'application/json' }), 'regBrand.json');
      return call(emu, 'PUT', '/api/1.1/corp/master/brand/BR.a', { token: 't-master', form: f });
    };
    expect((await put(page)).status).toBe(400);
    expect((await put({ ...page, tel: '0211112222' })).status).toBe(200);
    expect((await put({ ...page, name: 'Brand A' })).body.result[0].status).toBe('승인대기(수정)');
    await admin(emu, 'POST', 'review', { kind: 'brand', brandId: 'BR.a', id: 'BR.a', action: 'reject', reason: 'name taken' });
    await put({ ...page, name: 'Brand Ay' });
    await admin(emu, 'POST', 'review', { kind: 'brand', brandId: 'BR.a', id: 'BR.a', action: 'complete' });
    await rx.until(() => notifications().length === 5);
    await new Promise((r) => setTimeout(r, 30));
    const brand = { notiType: 'brand', brandId: 'BR.a' };
    expect(notifications()).toEqual([
      { ...brand, method: 'modified' },
      { ...brand, method: 'modified' },
      { ...brand, method: 'rejected', reason: 'name taken' },
      { ...brand, method: 'modified' },
      { ...brand, method: 'modified' },
    ]);
  });

  it('agencyKey: posted to the agency when its key is reissued', async () => {
    await admin(emu, 'POST', 'messaging/agency-key', { agencyId: 'ag1' });
    await rx.until(() => notifications().length === 1);
    expect(notifications()[0]).toEqual({ notiType: 'agencyKey', agencyKey: 'AK.000000000000001', method: 'created', date: TS, userName: 'emulator' });
  });
});
