// POST /ag/1.2/message over real HTTP: every send check with its {code, message}
// body, the success body, and the checks that follow the emulator's clock
// (replyId 24 hours, send files until D+365 00:00, a reissued agency key's grace).

import { describe, expect, it } from 'vitest';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { AGENCY, BRAND_KEY, admin, call, start, useEmulator } from './helpers.js';
import { BASE_MESSAGE, MESSAGING_SEED, sendMessage } from './messaging-helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: MESSAGING_SEED, reset: true });

const TWOWAY = { chatbotId: '0200000002' };
const VIDEO_THUMB = ',mediafile://f.img';
const actionChip = { action: { displayText: 'Visit', urlAction: { openUrl: { url: 'https://example.com' } } } };
const replyChip = { reply: { displayText: 'Yes', postback: { data: 'yes' } } };

async function newUserReplyId(userContact = '01000000001'): Promise<string> {
  await admin(emu, 'POST', 'messaging/room', { chatbotId: '0200000002', moMsgWebhookUrl: 'http://127.0.0.1:9/mo' });
  const a = await admin(emu, 'POST', 'messaging/user', { eventType: 'newUser', chatbotId: '0200000002', userContact });
  expect(a.status).toBe(200);
  return a.body.replyId as string;
}

function expectRefused(a: { status: number; body: any }, status: number, code: string): void {
  expect({ status: a.status, code: a.body?.code, hasMessage: typeof a.body?.message === 'string' && a.body.message !== '' }).toEqual({ status, code, hasMessage: true });
  expect(Object.keys(a.body).sort()).toEqual(['code', 'message']);
}

describe('POST /ag/1.2/message', () => {
  it('accepts a valid message with {status:"200", data:{msgId, clientMsgId}}', async () => {
    const a = await sendMessage(emu, BASE_MESSAGE);
    expect([a.status, a.body]).toEqual([200, { status: '200', data: { msgId: 'MSG000000000001', clientMsgId: 'c-1' } }]);
  });

  it.each([
    ['no Authorization header (the reference: "invalid or missing token")', { token: null }, 401, '61003'],
    ['an unknown token', { token: 'nope' }, 401, '61003'],
  ])('needs a token: %s', async (_name, opts, status, code) => {
    expectRefused(await call(emu, 'POST', '/ag/1.2/message', { ...opts, json: BASE_MESSAGE }), status, code);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ['a missing clientMsgId', { clientMsgId: undefined }, 400, '41005'],
    ['a missing agencyKey', { agencyKey: undefined }, 400, '41005'],
    ['a missing body', { body: undefined }, 400, '41005'],
    ['a clientMsgId over 40 characters', { clientMsgId: 'x'.repeat(41) }, 400, '41004'],
    ['an unknown agencyId', { agencyId: 'nobody' }, 403, '40002'],
    ['an agency without permission on the room', { agencyId: 'ag2', agencyKey: 'AK.two' }, 403, '40002'],
    ['an unknown chatbotId', { chatbotId: '0999999999' }, 403, '40002'],
    ['an agencyKey of another agency', { agencyKey: 'AK.two' }, 400, '40003'],
    ['a brandKey of another brand', { brandKey: 'BK.b' }, 400, '40004'],
    ['an unknown messagebaseId', { messagebaseId: 'NOPE0000' }, 400, '40019'],
    ['a messagebase restricted to other sender numbers', { messagebaseId: 'SCwThM00', body: { title: 't', description: 'd', media: 'mediafile://f.img' } }, 400, '40006'],
    ['a productCode other than the messagebase one', { productCode: 'sms' }, 400, '40005'],
    ['an advertising header without a footer', { header: '1' }, 400, '40007'],
    ['an advertising header with a blank footer', { header: '1', footer: ' ' }, 400, '40007'],
    ['a header other than 0 or 1', { header: '2' }, 400, '41003'],
    ['an expiryOption outside 1 to 4', { expiryOption: 5 }, 400, '41003'],
    ['an expiryOption given as a string', { expiryOption: '2' }, 400, '41003'],
    ['a send file that does not exist', { body: { media: 'mediafile://f.none' } }, 400, '40001'],
    ['a send file past D+365', { body: { media: 'mediafile://f.old' } }, 400, '40001'],
    ['a media value that is not a file reference', { body: { media: 'f.img' } }, 400, '41003'],
    ['a logo id as a send file', { body: { media: 'mediafile://BLG-BR.a-aaaa' } }, 400, '40009'],
    ['a send file as mTitleMedia', { body: { mTitleMedia: 'mediafile://f.img' } }, 400, '40009'],
    ['a send file as itemMedia', { body: { itemMedia: 'f.img' } }, 400, '40009'],
    ['a logo not yet approved as itemMedia', { body: { itemMedia: 'BLG-BR.a-pend' } }, 400, '40009'],
    ['a video URL with extra parameters (partial match)', { body: { media1: `https://www.youtube.com/watch?v=abc123&t=5${VIDEO_THUMB}` } }, 400, '40008'],
    ['a video URL over http', { body: { media1: `http://youtu.be/abc123${VIDEO_THUMB}` } }, 400, '40008'],
    ['a video URL without www', { body: { media1: `https://youtube.com/watch?v=abc123${VIDEO_THUMB}` } }, 400, '40008'],
    ['a video without a thumbnail', { body: { media1: 'https://youtu.be/abc123' } }, 400, '40008'],
    ['a video with an unknown thumbnail', { body: { media1: 'https://youtu.be/abc123,mediafile://f.none' } }, 400, '40008'],
    ['a video with an expired thumbnail', { body: { media1: 'https://youtu.be/abc123,mediafile://f.old' } }, 400, '40008'],
    ['a video thumbnail that is not a file reference', { body: { media1: 'https://youtu.be/abc123,f.img' } }, 400, '40008'],
    ['a video in subMedia', { body: { subMedia1: `https://youtu.be/abc123${VIDEO_THUMB}` } }, 400, '40008'],
    ['a chipList in a one-way room', { chipList: [actionChip] }, 400, '40012'],
    ['a reply chip in an A2P message', { ...TWOWAY, chipList: [replyChip] }, 400, '40014'],
    ['a reply button in an A2P message', { buttons: [{ suggestions: [replyChip] }] }, 400, '40014'],
    ['an unknown replyId', { replyId: 'RPL999' }, 400, '40013'],
  ])('refuses %s', async (_name, patch, status, code) => {
    expectRefused(await sendMessage(emu, { ...BASE_MESSAGE, ...patch }), status, code);
  });

  it.each<[string, Record<string, unknown>]>([
    ['the standard watch URL', { body: { media1: `https://www.youtube.com/watch?v=abc_123-X${VIDEO_THUMB}` } }],
    ['the short URL', { body: { media1: `https://youtu.be/abc123${VIDEO_THUMB}` } }],
    ['the mobile watch URL', { body: { media3: `https://m.youtube.com/watch?v=abc123${VIDEO_THUMB}` } }],
    ['a file referenced as maapfile:// (the public document form)', { body: { media: 'maapfile://f.img', subMedia1: 'mediafile://f.img' } }],
    ['a video whose thumbnail is a maapfile:// reference', { body: { media2: 'https://youtu.be/abc123,maapfile://f.img' } }],
    ['an approved logo as mTitleMedia and itemMedia', { body: { mTitleMedia: 'mediafile://BLG-BR.a-aaaa', itemMedia: 'BLG-BR.a-aaaa', description: 'd' } }],
    ['an advertising header with a footer', { header: '1', footer: '080-000-0000' }],
    ['the messagebase productCode', { productCode: 'chat' }],
    ['a restricted messagebase from its sender number', { ...TWOWAY, messagebaseId: 'SCwThM00', body: { title: 't', description: 'd', media: 'mediafile://f.img' } }],
    ['action chips in a bidirectional room', { ...TWOWAY, chipList: [actionChip] }],
    ['expiryOption 4 (3600 s)', { expiryOption: 4 }],
  ])('accepts %s', async (_name, patch) => {
    const a = await sendMessage(emu, { ...BASE_MESSAGE, ...patch });
    expect([a.status, a.body?.status]).toEqual([200, '200']);
  });

  it('takes a replyId for 24 hours on the emulator clock (a session message may carry reply chips), then refuses it', async () => {
    const replyId = await newUserReplyId();
    const session = { ...BASE_MESSAGE, ...TWOWAY, replyId, chipList: [replyChip] };
    expect((await sendMessage(emu, session)).status).toBe(200);
    await admin(emu, 'POST', 'clock', { advanceSeconds: 24 * 3600 - 1 });
    expect((await sendMessage(emu, session)).status).toBe(200);
    await admin(emu, 'POST', 'clock', { advanceSeconds: 1 });
    expectRefused(await sendMessage(emu, session), 400, '40013');
  });

  it('refuses a replyId given to another handset or room', async () => {
    const replyId = await newUserReplyId('01099999999');
    expectRefused(await sendMessage(emu, { ...BASE_MESSAGE, ...TWOWAY, replyId }), 400, '40013');
    expectRefused(await sendMessage(emu, { ...BASE_MESSAGE, userContact: '01099999999', replyId }), 400, '40013');
  });

  it('sends a file until 00:00 of D+365 on the emulator clock', async () => {
    const withFile = { ...BASE_MESSAGE, body: { media: 'mediafile://f.img' } };
    await admin(emu, 'POST', 'clock', { now: '2027-11-20T23:59:59.999+09' });
    expect((await sendMessage(emu, withFile)).status).toBe(200);
    await admin(emu, 'POST', 'clock', { now: '2027-11-21T00:00:00.000+09' });
    expectRefused(await sendMessage(emu, withFile), 400, '40001');
    // The file itself reads as expired, not gone, until D+456.
    expect((await call(emu, 'GET', '/ag/1.2/file/f.img', { token: 't-agency' })).body.data.fileInfo.status).toBe('expired');
  });

  it('keeps a reissued agency key valid for 24 hours beside the new one', async () => {
    const issued = await admin(emu, 'POST', 'messaging/agency-key', { agencyId: 'ag1', agencyKey: 'AK.new' });
    expect(issued.body).toEqual({ agencyId: 'ag1', agencyKey: 'AK.new', previousKeyValidUntil: '2026-11-22T10:00:00.000+09' });
    expect((await sendMessage(emu, { ...BASE_MESSAGE, agencyKey: 'AK.new' })).status).toBe(200);
    expect((await sendMessage(emu, BASE_MESSAGE)).status).toBe(200);
    await admin(emu, 'POST', 'clock', { advanceSeconds: 24 * 3600 });
    expectRefused(await sendMessage(emu, BASE_MESSAGE), 400, '40003');
    expect((await sendMessage(emu, { ...BASE_MESSAGE, agencyKey: 'AK.new' })).status).toBe(200);
  });

  it('answers malformed bodies with the agency error body', async () => {
    expectRefused(await call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', raw: '{' }), 400, '41002');
    expectRefused(await call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', raw: '[1]' }), 400, '41003');
    expectRefused(await sendMessage(emu, { ...BASE_MESSAGE, chipList: 'x' }), 400, '41003');
    expectRefused(await sendMessage(emu, { ...BASE_MESSAGE, body: { description: 5 } }), 400, '41003');
  });
});

describe('the messaging seed', () => {
  it('of the example seed lets the agency account send from the example room', async () => {
    const e = await start();
    try {
      const a = await call(e, 'POST', '/ag/1.2/message', { token: AGENCY, json: { ...BASE_MESSAGE, chatbotId: '0212345678', agencyId: 'agency', agencyKey: 'AK.demo0000000001', brandKey: BRAND_KEY } });
      expect([a.status, a.body.status]).toEqual([200, '200']);
    } finally {
      await e.close();
    }
  });

  it.each([
    ['messaging: { agencies: [{ agencyKey: k }] }', 'seed: messaging.agencies[0].agencyId is required (a string)'],
    ['messaging: { agencies: [{ agencyId: a, agencyKey: k, webhookUrl: "http://10.1.1.1/x" }] }', 'seed: messaging.agencies[0].webhookUrl must be on the loopback interface (127.0.0.1, localhost or [::1])'],
    ['messaging: { rooms: [{ chatbotId: "1" }] }', 'seed: messaging.rooms[0].moMsgWebhookUrl is required (a string)'],
    ['messaging: { handsets: [{ userContact: "1", outcome: lost }] }', 'seed: messaging.handsets[0].outcome must be one of success, fail, offline'],
    ['messaging: { messagebaseSenders: { SCS00000: "0200000001" } }', 'seed: messaging.messagebaseSenders.SCS00000 must be a list'],
  ])('names the bad field: %s', (yaml, message) => {
    expect(() => loadSeed(`accounts: []\n${yaml}\n`)).toThrow(message);
  });
});
