// Brand templates as the messagebaseId of a send (POST /ag/1.2/message) and of an
// agency file registration (POST /ag/1.2/file), over real HTTP. Written from the
// service reference:
// - Message: "messagebaseId: Message format ID"; "chatbotId: … A messagebaseId
//   restricted to particular sender numbers fails when used with another";
//   "productCode: … must equal the productCode registered for the messagebaseId,
//   otherwise the send fails"; "header: … Some messagebases refuse advertising"
//   (the public document's PolicyInfo.adHeaderAllowed false: header 1 fails).
// - Template approvalResult 승인 (the public document): "messages can be sent";
//   any other state cannot send.
// - Agency message file: "messagebaseId: … The image width and height are
//   validated against this messagebase"; Errors: "A file registration with a
//   messagebaseId fails when the image width or height does not fit the template".
// - The public document's ParamInfo: imageWidth/imageHeight "an image of the
//   given size must be registered to send", and "size fields <= 0 are not checked";
//   isMandatory "when the relay's send request lacks the field, the send fails".

import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, form, png, useEmulator, type Answer } from './helpers.js';

const NOTICE = 'UBR.a-notice01';
const AUTUMN = 'UBR.a-autumn01';
const WAITING = 'UBR.a-waiting01';
const OTHER = 'UBR.b-other01';

/** The text form's layout with the two variables a send must fill. */
const noticeText = { RCSMessage: { openrichcardMessage: { layout: { widget: 'LinearLayout', children: [{ widget: 'TextView', text: 'Hello {{name}}, order {{order}} ships today.' }] } } } };

// JSON is YAML; written out over several lines, the text is taken as a seed, not a path.
const SEED = JSON.stringify({
  clock: '2026-11-21T10:00:00.000+09',
  accounts: [
    { userId: 'ag1', role: 'agency', token: 't-agency', brands: [{ brandId: 'BR.a', role: 'operator' }] },
    { userId: 'master', role: 'master', token: 't-master', brands: [{ brandId: 'BR.a', role: 'representative' }] },
  ],
  brands: [
    {
      brandId: 'BR.a',
      brandKey: 'BK.a',
      chatbots: [
        { chatbotId: '0200000001', subTitle: 'One', approvalResult: '승인', display: '11' },
        { chatbotId: '0200000002', subTitle: 'Two', approvalResult: '승인', display: '11' },
      ],
      templateFiles: [{ fileId: 'LT-BR.a-hero', fileName: 'hero.png', imageWidth: 900, imageHeight: 560 }],
      templates: [
        { custTmpltId: 'notice01', tmpltName: 'Notice', messagebaseformId: 'TADS001A', formattedString: noticeText },
        {
          custTmpltId: 'autumn01',
          tmpltName: 'Autumn',
          messagebaseformId: 'ITHI001V',
          body: [
            { param: 'media', value: 'maapfile://LT-BR.a-hero' },
            { param: 'title', value: 'Autumn sale' },
            { param: 'description', value: 'Up to {{rate}}% off.' },
          ],
        },
        { custTmpltId: 'waiting01', tmpltName: 'Waiting', messagebaseformId: 'TADS001A', formattedString: noticeText, approvalResult: '승인대기' },
      ],
    },
    { brandId: 'BR.b', brandKey: 'BK.b', chatbots: [{ chatbotId: '0300000001', subTitle: 'Other' }], templates: [{ custTmpltId: 'other01', tmpltName: 'Other', messagebaseformId: 'TADS001A', formattedString: noticeText }] },
  ],
  messaging: {
    agencies: [
      { agencyId: 'ag1', agencyKey: 'AK.one', brands: ['BR.a'] },
      { agencyId: 'ag2', agencyKey: 'AK.two', brands: ['BR.b'] },
    ],
    messagebaseSenders: { [AUTUMN]: ['0200000002'] },
  },
}, null, 1);

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: SEED, reset: true });

/** A send of the text template from room 0200000001 with both variables. */
const NOTICE_SEND = { clientMsgId: 'c-1', chatbotId: '0200000001', messagebaseId: NOTICE, userContact: '01000000001', agencyId: 'ag1', agencyKey: 'AK.one', brandKey: 'BK.a', body: { name: 'Kim', order: 'A-1' } };
const AUTUMN_SEND = { ...NOTICE_SEND, chatbotId: '0200000002', messagebaseId: AUTUMN, body: { rate: '30' } };

function send(message: Record<string, unknown>): Promise<Answer> {
  return call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', json: message });
}

function register(fileId: string, messagebaseId: string, image: Buffer): Promise<Answer> {
  return call(emu, 'POST', '/ag/1.2/file', { token: 't-agency', form: form({ fileId, mimeType: 'image/png', messagebaseId }, { file: { name: `${fileId}.png`, bytes: image, type: 'image/png' } }) });
}

function refusal(a: Answer): { status: number; code: string } {
  expect(Object.keys(a.body ?? {}).sort()).toEqual(['code', 'message']);
  return { status: a.status, code: a.body.code };
}

describe('a brand template as the messagebaseId of a send', () => {
  it('an approved template of the sending brand is a valid messagebaseId: text and image templates send', async () => {
    const text = await send(NOTICE_SEND);
    expect([text.status, text.body.data?.clientMsgId]).toEqual([200, 'c-1']);
    const image = await send({ ...AUTUMN_SEND, clientMsgId: 'c-2' });
    expect([image.status, image.body.data?.clientMsgId]).toEqual([200, 'c-2']);
    const sent = (await admin(emu, 'GET', 'messaging')).body.messages.map((m: { clientMsgId: string }) => m.clientMsgId);
    expect(sent).toEqual(['c-1', 'c-2']);
  });

  it('its productCode applies: the form registers tmplt (text) and itmpl (image); another productCode fails', async () => {
    expect((await send({ ...NOTICE_SEND, productCode: 'tmplt' })).status).toBe(200);
    expect((await send({ ...AUTUMN_SEND, productCode: 'itmpl' })).status).toBe(200);
    expect(refusal(await send({ ...NOTICE_SEND, productCode: 'chat' }))).toEqual({ status: 400, code: '40005' });
    expect(refusal(await send({ ...AUTUMN_SEND, productCode: 'tmplt' }))).toEqual({ status: 400, code: '40005' });
  });

  it('its sender-number restriction applies: a template restricted to 0200000002 fails from 0200000001', async () => {
    expect(refusal(await send({ ...AUTUMN_SEND, chatbotId: '0200000001' }))).toEqual({ status: 400, code: '40006' });
    expect((await send(AUTUMN_SEND)).status).toBe(200);
  });

  it("its adHeaderAllowed applies: the text form's policy refuses advertising (40017), the image form's takes it", async () => {
    const ad = { header: '1', footer: '080-000-0000' };
    expect(refusal(await send({ ...NOTICE_SEND, ...ad }))).toEqual({ status: 400, code: '40017' });
    expect((await send({ ...NOTICE_SEND, header: '0' })).status).toBe(200);
    expect((await send({ ...AUTUMN_SEND, ...ad })).status).toBe(200);
  });

  it('its variables apply: a send that leaves one out fails with 40020 naming it', async () => {
    const a = await send({ ...NOTICE_SEND, body: { name: 'Kim' } });
    expect(refusal(a)).toEqual({ status: 400, code: '40020' });
    expect(a.body.message).toContain('order');
    const b = await send({ ...AUTUMN_SEND, body: {} });
    expect(refusal(b)).toEqual({ status: 400, code: '40020' });
    expect(b.body.message).toContain('rate');
  });

  it('a template not yet approved is refused with 40018; once review completes (승인) it sends', async () => {
    const waiting = await send({ ...NOTICE_SEND, messagebaseId: WAITING });
    expect(refusal(waiting)).toEqual({ status: 400, code: '40018' });
    expect(waiting.body.message).toContain('승인대기');
    expect((await admin(emu, 'POST', 'review', { kind: 'template', brandId: 'BR.a', id: WAITING, action: 'approve' })).status).toBe(200);
    // 검수완료: approved by the operator, carriers pending: still not sendable.
    expect(refusal(await send({ ...NOTICE_SEND, messagebaseId: WAITING }))).toEqual({ status: 400, code: '40018' });
    expect((await admin(emu, 'POST', 'review', { kind: 'template', brandId: 'BR.a', id: WAITING, action: 'complete' })).status).toBe(200);
    expect((await send({ ...NOTICE_SEND, messagebaseId: WAITING })).status).toBe(200);
  });

  it('while a modification of an approved template waits for review, the approved version is sent: its variables, not the new ones', async () => {
    const modified = await call(emu, 'POST', `/api/1.1/brand/BR.a/v2/messagebase/${AUTUMN}`, {
      token: 't-master',
      json: { brandId: 'BR.a', tmpltName: 'Autumn', body: [{ param: 'media', value: 'maapfile://LT-BR.a-hero' }, { param: 'description', value: 'Up to {{rate}}% off for {{member}}.' }] },
    });
    expect(modified.status).toBe(200);
    const detail = await call(emu, 'GET', `/api/1.1/brand/BR.a/messagebase/${AUTUMN}`, { token: 't-master' });
    expect(detail.body.result[0].approvalResult).toBe('승인대기(수정)');
    expect((await send(AUTUMN_SEND)).status).toBe(200);
  });

  it("another brand's template is no messagebase of the sending brand: answered as an unknown messagebaseId", async () => {
    const unknown = await send({ ...NOTICE_SEND, messagebaseId: 'UBR.a-nothing' });
    expect(unknown.status).toBe(400);
    const other = await send({ ...NOTICE_SEND, messagebaseId: OTHER });
    expect([other.status, other.body]).toEqual([unknown.status, unknown.body]);
  });
});

describe('a file registration with a messagebaseId: the image must fit it', () => {
  it('an image template takes its form param size (ITHI001V media 900x560): a fit is registered, a misfit refused with 40011', async () => {
    expect((await register('f.fit', AUTUMN, png(900, 560))).status).toBe(200);
    const misfit = await register('f.misfit', AUTUMN, png(800, 600));
    expect(refusal(misfit)).toEqual({ status: 400, code: '40011' });
    expect(misfit.body.message).toContain('800x600');
    expect(misfit.body.message).toContain('900x560');
    expect((await call(emu, 'GET', '/ag/1.2/file/f.misfit', { token: 't-agency' })).body.code).toBe('40001');
  });

  it('a common messagebase with an image carries a size too: 10x10 does not fit SCwThM00, 900x560 does', async () => {
    expect(refusal(await register('f.tiny', 'SCwThM00', png(10, 10)))).toEqual({ status: 400, code: '40011' });
    expect((await register('f.card', 'SCwThM00', png(900, 560))).status).toBe(200);
    expect((await register('f.slide', 'CCwMhM0300', png(900, 560))).status).toBe(200);
  });

  it('a messagebase without an image fits none, and a template not yet approved is refused (40018)', async () => {
    expect(refusal(await register('f.text', NOTICE, png(900, 560)))).toEqual({ status: 400, code: '40011' });
    expect(refusal(await register('f.text', 'SCS00000', png(900, 560)))).toEqual({ status: 400, code: '40011' });
    expect(refusal(await register('f.wait', WAITING, png(900, 560)))).toEqual({ status: 400, code: '40018' });
  });

  it('without a messagebaseId no size is checked', async () => {
    const a = await call(emu, 'POST', '/ag/1.2/file', { token: 't-agency', form: form({ fileId: 'f.free', mimeType: 'image/png' }, { file: { name: 'f.png', bytes: png(10, 10), type: 'image/png' } }) });
    expect(a.status).toBe(200);
  });
});

describe('40002 says why', () => {
  it('an unknown agencyId is said to be unknown; a known agency without the room keeps "no permission"', async () => {
    const unknown = await send({ ...NOTICE_SEND, agencyId: 'nobody' });
    expect([unknown.status, unknown.body]).toEqual([403, { code: '40002', message: 'Unknown agencyId' }]);
    const foreign = await send({ ...NOTICE_SEND, agencyId: 'ag2', agencyKey: 'AK.two' });
    expect([foreign.status, foreign.body]).toEqual([403, { code: '40002', message: 'Agency has no permission on the chatbotId' }]);
  });
});
