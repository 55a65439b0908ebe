import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, call, errorOf, form, png, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;
const simple = { autoReplyMsgName: 'Hours', messagebaseId: 'SCS00000', body: { description: 'Mon-Fri 9-18' } };

async function upload(name = 'hero-abc123.png', bytes = png(600, 400)) {
  return call(emu, 'POST', `${AR}/file`, { form: form({}, { file: { name, bytes, type: 'image/png' } }) });
}

describe('auto-reply create, detail, list, update, delete', () => {
  it('creates one straight into 등록완료 with deterministic ids and full detail', async () => {
    const c = await call(emu, 'POST', AR, { json: simple });
    expect(c.status).toBe(200);
    expect(c.body).toEqual({ code: '20000000', status: 200, desc: null, result: [{ autoReplyMsgId: 'ARM000000000001' }] });
    const d = await call(emu, 'GET', `${AR}/ARM000000000001`);
    expect(d.body.result[0]).toMatchObject({
      brandId: BRAND,
      autoReplyMsgId: 'ARM000000000001',
      autoReplyMsgName: 'Hours',
      messagebaseId: 'SCS00000',
      approvalResult: '등록완료',
      registerId: 'master',
      updateId: 'master',
      status: 'ACTIVE',
      aprvRet: 'OK',
      autoReplyMsgType: 'SCL',
      cardCount: 0,
      copyAllowed: true,
      body: { description: 'Mon-Fri 9-18' },
    });
    expect(d.body.result[0].registerDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09$/);
    const l = await call(emu, 'GET', AR);
    expect(l.body.result).toEqual([
      { brandId: BRAND, autoReplyMsgId: 'ARM000000000001', autoReplyMsgName: 'Hours', messagebaseId: 'SCS00000', approvalResult: '등록완료', registerDate: d.body.result[0].registerDate, updateDate: d.body.result[0].updateDate, registerId: 'master', updateId: 'master' },
    ]);
    expect(l.body.pagination).toEqual({ total: 1, offset: 0, limit: 100 });
  });

  it('allows two auto-replies with the same name (the planner must notice)', async () => {
    await call(emu, 'POST', AR, { json: simple });
    expect((await call(emu, 'POST', AR, { json: simple })).status).toBe(200);
    expect((await call(emu, 'GET', AR)).body.pagination.total).toBe(2);
  });

  it('stores messagebase aliases as their canonical id and types cards and sliders', async () => {
    const f = (await upload()).body.result[0].fileId;
    const cases: [string, Record<string, string>, string, string][] = [
      ['SCL00000', { description: 'd' }, 'SCS00000', 'SCL'],
      ['SCwThT00', { title: 't', description: 'd', media: f }, 'SCwThM00', 'CARD'],
      ['CCwMhM0200', { title1: 'a', description1: 'b', media1: f, title2: 'c', description2: 'd', media2: f }, 'CCwMhM0200', 'SLIDER'],
      ['CCwMhM0300', { title1: 'a', media1: f, title2: 'c', media2: f, title3: 'e', media3: f }, 'CCwMhM0300', 'SLIDER'],
      ['CCwMhM0600', { title6: 'f', description6: 'g', media6: f }, 'CCwMhM0600', 'SLIDER'],
    ];
    for (const [base, body, stored, type] of cases) {
      const id = (await call(emu, 'POST', AR, { json: { autoReplyMsgName: base, messagebaseId: base, body } })).body.result[0].autoReplyMsgId;
      const d = (await call(emu, 'GET', `${AR}/${id}`)).body.result[0];
      expect([d.messagebaseId, d.autoReplyMsgType]).toEqual([stored, type]);
    }
  });

  it('accepts media as a bare fileId or as maapfile://, and answers in the form its behaviour names', async () => {
    const f = (await upload()).body.result[0].fileId;
    const card = (media: string) => ({ autoReplyMsgName: media, messagebaseId: 'SCwThM00', body: { title: 't', description: 'd', media } });
    const bare = (await call(emu, 'POST', AR, { json: card(f) })).body.result[0].autoReplyMsgId;
    const prefixed = (await call(emu, 'POST', AR, { json: card(`maapfile://${f}`) })).body.result[0].autoReplyMsgId;
    expect(errorOf(await call(emu, 'POST', AR, { json: card('maapfile://ARF-none') })).code).toBe('64397');
    for (const id of [bare, prefixed]) expect((await call(emu, 'GET', `${AR}/${id}`)).body.result[0].body.media).toBe(f);
    expect((await admin(emu, 'POST', 'options', { mediaForm: 'maapfile' })).body).toMatchObject({ mediaForm: 'maapfile' });
    for (const id of [bare, prefixed]) expect((await call(emu, 'GET', `${AR}/${id}`)).body.result[0].body.media).toBe(`maapfile://${f}`);
    expect((await admin(emu, 'POST', 'options', { mediaForm: 'url' })).status).toBe(400);
  });

  it('fills empty postback.data as postbackId=<id>;; on read and keeps given data', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    const json = {
      ...simple,
      autoReplyMsgName: 'Menu',
      buttons: [{ suggestions: [{ action: { displayText: 'Map', urlAction: { openUrl: { url: 'https://example.com/map' } } } }] }, {}],
      chipList: [{ action: { displayText: 'Call', postback: { data: 'mine' }, dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } }, { reply: { autoReplyMsgId: id, displayText: 'Hours', postback: { data: '' } } }],
    };
    const id2 = (await call(emu, 'POST', AR, { json })).body.result[0].autoReplyMsgId;
    const d = (await call(emu, 'GET', `${AR}/${id2}`)).body.result[0];
    expect(d.buttons[0].suggestions[0].action.postback.data).toMatch(/^postbackId=PB\d+;;$/);
    expect(d.buttons[1]).toEqual({});
    expect(d.chipList[0].action.postback.data).toBe('mine');
    expect(d.chipList[1].reply).toMatchObject({ autoReplyMsgId: id, displayText: 'Hours', postback: { data: expect.stringMatching(/^postbackId=PB\d+;;$/) } });
    // Stable across reads.
    expect((await call(emu, 'GET', `${AR}/${id2}`)).body.result[0]).toEqual(d);
  });

  it('updates, answers 64323 for an identical update (after normalisation), and deletes', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    await admin(emu, 'POST', 'clock', { advanceSeconds: 60 });
    const u = await call(emu, 'PUT', `${AR}/${id}`, { json: { ...simple, body: { description: 'Mon-Sat 9-18' } } });
    expect(u.body.result).toEqual([{ autoReplyMsgId: id }]);
    const d = (await call(emu, 'GET', `${AR}/${id}`)).body.result[0];
    expect(d.body.description).toBe('Mon-Sat 9-18');
    expect(d.updateDate > d.registerDate).toBe(true);
    const same = await call(emu, 'PUT', `${AR}/${id}`, { json: { ...simple, copyAllowed: true, buttons: [], body: { description: 'Mon-Sat 9-18' } } });
    expect(errorOf(same)).toEqual({ status: 400, code: '64323', message: 'No changes' });
    // An alias of the stored base is no change either.
    const alias = await call(emu, 'PUT', `${AR}/${id}`, { json: { ...simple, messagebaseId: 'SCL00000', body: { description: 'Mon-Sat 9-18' } } });
    expect(errorOf(alias).code).toBe('64323');
    const del = await call(emu, 'DELETE', `${AR}/${id}`);
    expect(del.body.result).toEqual([{ autoReplyMsgId: id }]);
    expect(errorOf(await call(emu, 'GET', `${AR}/${id}`))).toEqual({ status: 400, code: '64108', message: 'Invalid autoReplyMsgId on path parameter' });
  });

  it('refuses update (64328) and delete (64327) while 처리중', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    expect((await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: BRAND, id, approvalResult: '처리중' })).status).toBe(200);
    const d = (await call(emu, 'GET', `${AR}/${id}`)).body.result[0];
    expect([d.approvalResult, d.status, d.aprvRet]).toEqual(['처리중', 'APRV_MOD', 'INSPECTED']);
    expect(errorOf(await call(emu, 'PUT', `${AR}/${id}`, { json: { ...simple, body: { description: 'x' } } }))).toEqual({ status: 400, code: '64328', message: 'Not allowed modification' });
    expect(errorOf(await call(emu, 'DELETE', `${AR}/${id}`))).toEqual({ status: 400, code: '64327', message: 'Not allowed delete' });
  });

  it('unknown ids get 64108 on detail, update and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const a = await call(emu, method, `${AR}/ARM999`, method === 'PUT' ? { json: simple } : {});
      expect(errorOf(a).code).toBe('64108');
    }
  });
});

describe('auto-reply validation', () => {
  const cases: [string, unknown, string, string][] = [
    ['missing name', { messagebaseId: 'SCS00000', body: {} }, '64336', 'required value: [autoReplyMsgName]'],
    // 64336 only for the name (the reference); the public document's 64397 for the rest.
    ['missing messagebaseId', { autoReplyMsgName: 'a', body: {} }, '64397', 'required messagebaseId'],
    ['missing body', { autoReplyMsgName: 'a', messagebaseId: 'SCS00000' }, '64397', 'required body'],
    ['body not an object', { ...simple, body: 'text' }, '64397', 'invalid body body'],
    ['name too long', { ...simple, autoReplyMsgName: 'x'.repeat(101) }, '64304', 'Over specified size (autoReplyMsgName)'],
    ['messagebaseId too long', { ...simple, messagebaseId: 'x'.repeat(41) }, '64304', 'Over specified size (messagebaseId)'],
    ['name not a string', { ...simple, autoReplyMsgName: 5 }, '64303', 'Invalid type of Attribute (autoReplyMsgName)'],
    ['copyAllowed not boolean', { ...simple, copyAllowed: 'yes' }, '64303', 'Invalid type of Attribute (copyAllowed)'],
    ['body field not a string', { ...simple, body: { description: 1 } }, '64397', 'invalid body body.description'],
    ['buttons not a list', { ...simple, buttons: {} }, '64303', 'Invalid type of Attribute (buttons)'],
    ['unknown messagebase', { ...simple, messagebaseId: 'NOPE0000' }, '64303', 'Invalid type of Attribute (messagebaseId)'],
    ['media not an uploaded file', { ...simple, messagebaseId: 'SCwThM00', body: { title: 't', description: 'd', media: 'ARF999' } }, '64397', 'invalid body body.media'],
    ['reply to an unknown auto-reply', { ...simple, chipList: [{ reply: { autoReplyMsgId: 'ARM999', displayText: 'x' } }] }, '64375', 'AutoReplyMsgId not found'],
  ];
  for (const [name, json, code, message] of cases) {
    it(`${name} → ${code}`, async () => {
      const a = await call(emu, 'POST', AR, { json });
      expect(errorOf(a)).toEqual({ status: 400, code, message });
    });
  }

  it('the same checks apply on update, 64336 and 64397 included', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    expect(errorOf(await call(emu, 'PUT', `${AR}/${id}`, { json: { messagebaseId: 'SCS00000', body: {} } })).code).toBe('64336');
    expect(errorOf(await call(emu, 'PUT', `${AR}/${id}`, { json: { autoReplyMsgName: 'a', body: {} } })).code).toBe('64397');
  });

  it('an update may link an auto-reply to itself', async () => {
    const id = (await call(emu, 'POST', AR, { json: simple })).body.result[0].autoReplyMsgId;
    const u = await call(emu, 'PUT', `${AR}/${id}`, { json: { ...simple, chipList: [{ reply: { autoReplyMsgId: id, displayText: 'again' } }] } });
    expect(u.status).toBe(200);
  });
});

describe('auto-reply files', () => {
  it('uploads keeping the file name, serves detail and the bytes at its url', async () => {
    const bytes = png(600, 400, 7);
    const up = await upload('hero-0123456789ab.png', bytes);
    expect(up.status).toBe(200);
    const f = up.body.result[0];
    expect(f).toMatchObject({ fileId: 'ARF000000000001', fileName: 'hero-0123456789ab.png' });
    expect(f.url).toBe(`${emu.url}/files/ARF000000000001/hero-0123456789ab.png`);
    const d = await call(emu, 'GET', `${AR}/file/${f.fileId}`);
    expect(d.body.result).toEqual([f]);
    const got = await request(f.url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(Buffer.from(await got.body.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('checks extension (64355), size (64395), presence (64336); unknown file id is 64109', async () => {
    expect(errorOf(await upload('notes.txt', Buffer.from('hi'))).code).toBe('64355');
    expect(errorOf(await upload('big.png', Buffer.alloc(1024 * 1024 + 1)))).toEqual({ status: 400, code: '64395', message: 'file is up to 1Mb' });
    expect(errorOf(await call(emu, 'POST', `${AR}/file`, { form: form({ other: 'x' }) })).code).toBe('64336');
    expect(errorOf(await call(emu, 'GET', `${AR}/file/ARF404`))).toEqual({ status: 400, code: '64109', message: 'Invalid fileId on path parameter' });
  });

  it('a JSON body on the upload route is refused with an error envelope', async () => {
    const a = await call(emu, 'POST', `${AR}/file`, { json: { file: 'x' } });
    expect(errorOf(a)).toEqual({ status: 400, code: '64303', message: 'Invalid type of Attribute (Content-Type: multipart/form-data)' });
  });
});
