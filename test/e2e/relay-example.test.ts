// The example relay (examples/relay/) against the emulator over real HTTP:
// a send and its msgstatus, a send with an approved brand template, a menu tap with the response event and the
// auto-reply's msgstatus, and a reply within the session using the replyId.
// Every send the relay makes and every answer it gets is checked against the
// service contract when the emulator closes (test/contract-recorder.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Relay } from '../../examples/relay/relay.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withContract } from '../contract-recorder.js';
import { admin } from '../emulator/helpers.js';

let emu: RunningEmulator;
let relay: Relay;

beforeAll(async () => {
  const { opts, adopt } = withContract({ seed: 'examples/relay/seed.yaml' });
  emu = adopt(await startEmulator(opts));
  relay = await Relay.start({ serviceUrl: emu.url, token: 'emulator-agency-token', agencyId: 'demo-agency', agencyKey: 'AK.demo0000000001', brandKey: 'BK.demo0000000001' });
  expect((await admin(emu, 'POST', 'messaging/webhook', { agencyId: 'demo-agency', url: relay.url })).status).toBe(200);
  expect((await admin(emu, 'POST', 'messaging/room', { chatbotId: '0212345678', moMsgWebhookUrl: `${relay.url}/mo` })).status).toBe(200);
});

afterAll(async () => {
  await emu?.close();
  await relay?.close();
});

describe('the example relay', () => {
  it('sends a message and receives its msgstatus', async () => {
    const sent = await relay.send({ clientMsgId: 'promo-1', chatbotId: '0212345678', messagebaseId: 'SCwThM00', userContact: '01011112222', body: { title: 'Spring', description: 'New beans', media: 'mediafile://BR.demo000001.banner' } });
    expect(sent).toEqual({ status: 200, body: { status: '200', data: { msgId: expect.stringMatching(/^MSG\d+$/), clientMsgId: 'promo-1' } } });
    const item = await relay.until(() => relay.statuses.find((s) => s.clientMsgId === 'promo-1'));
    expect(item).toEqual({ clientMsgId: 'promo-1', status: 'success', timestamp: '2026-11-21T10:00:00.000+09' });
  });

  it('sends with an approved brand template, its variables in the body, and receives its msgstatus', async () => {
    const sent = await relay.sendTemplate({ clientMsgId: 'ready-1', chatbotId: '0212345678', messagebaseId: 'UBR.demo000001-ready01', userContact: '01011112222', variables: { name: 'Mina', order: 'A-1024' } });
    expect(sent).toEqual({ status: 200, body: { status: '200', data: { msgId: expect.stringMatching(/^MSG\d+$/), clientMsgId: 'ready-1' } } });
    const item = await relay.until(() => relay.statuses.find((s) => s.clientMsgId === 'ready-1'));
    expect(item).toEqual({ clientMsgId: 'ready-1', status: 'success', timestamp: '2026-11-21T10:00:00.000+09' });
    // A variable left out: the template cannot be sent as it stands.
    const short = await relay.sendTemplate({ clientMsgId: 'ready-2', chatbotId: '0212345678', messagebaseId: 'UBR.demo000001-ready01', userContact: '01011112222', variables: { name: 'Mina' } });
    expect([short.status, short.body.code]).toEqual([400, '40020']);
  });

  it('taps a menu item: the response event, then the msgstatus of the auto-reply the platform sent', async () => {
    const tap = await admin(emu, 'POST', 'messaging/user', { eventType: 'response', chatbotId: '0212345678', userContact: '01011112222', title: 'Opening hours' });
    expect(tap.status).toBe(200);
    const event = await relay.until(() => relay.events.find((e) => e.eventType === 'response'));
    expect(event).toEqual({ replyId: tap.body.replyId, eventType: 'response', postbackId: expect.stringMatching(/^PM/), displayText: 'Opening hours', userContact: '01011112222', chatbotId: '0212345678', timestamp: '2026-11-21T10:00:00.000+09', carrier: 'carrier1' });
    const autoReply = await relay.until(() => relay.statuses.find((s) => s.autoReplyMsgId !== undefined));
    expect(autoReply).toEqual({ clientMsgId: expect.any(String), status: 'success', timestamp: '2026-11-21T10:00:00.000+09', autoReplyMsgId: 'ARM-hours', postbackId: event.postbackId, userContact: '01011112222', chatbotId: '0212345678', bill: 1 });
  });

  it('answers a user text within the session with the replyId; the reply is billed', async () => {
    const said = await admin(emu, 'POST', 'messaging/user', { eventType: 'message', chatbotId: '0212345678', userContact: '01033334444', text: 'are you open?' });
    const answer = await relay.until(() => relay.replies[0]);
    expect(answer.status).toBe(200);
    const status = await relay.until(() => relay.statuses.find((s) => s.clientMsgId === 'echo-1'));
    expect(status).toEqual({ clientMsgId: 'echo-1', status: 'success', timestamp: '2026-11-21T10:00:00.000+09', bill: 1 });
    const messages = (await admin(emu, 'GET', 'messaging')).body.messages;
    expect(messages.find((m: { clientMsgId: string }) => m.clientMsgId === 'echo-1').replyId).toBe(said.body.replyId);
  });
});
