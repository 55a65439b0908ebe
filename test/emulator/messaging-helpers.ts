// The seed and a send helper shared by the messaging tests.

import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, useEmulator, type Answer } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/** Two brands: BR.a with a one-way room, a bidirectional room with a menu and a bidirectional room not shown on the brand home, BR.b with one room. */
export const MESSAGING_SEED = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: ag1, role: agency, token: t-agency, brands: [{ brandId: BR.a, role: operator }] }
  - { userId: master, role: master, token: t-master, brands: [{ brandId: BR.a, role: representative }] }
brands:
  - brandId: BR.a
    brandKey: BK.a
    chatbots:
      - { chatbotId: "0200000001", subTitle: Oneway }
      - chatbotId: "0200000002"
        subTitle: Twoway
        botAgencyId: ag1
        persistentMenu:
          - { type: reply, title: Hours, ordNo: 1, autoReplyMsgId: ARM-hours }
          - { type: reply, title: Chat, ordNo: 2 }
          - { type: action, title: Call, ordNo: 3, actionType: dialerAction, action: { dialerAction: { dialPhoneNumber: { phoneNumber: "0200000002" } } } }
      - { chatbotId: "0200000010", subTitle: Hidden, botAgencyId: ag1, display: "10" }
    autoReplies:
      - { autoReplyMsgId: ARM-hours, autoReplyMsgName: Hours, messagebaseId: SCS00000, body: { description: "9 to 5" } }
    logos:
      - { fileId: BLG-BR.a-aaaa, name: Main, fileName: logo.png }
      - { fileId: BLG-BR.a-pend, name: Pending, fileName: pending.png, approvalResult: 승인대기 }
    agencyFiles:
      - { fileId: f.img, mimeType: image/png, fileName: a.png, registerDate: "2026-11-21T10:00:00.000+09" }
      - { fileId: f.old, mimeType: image/png, fileName: o.png, registerDate: "2025-11-20T10:00:00.000+09" }
  - brandId: BR.b
    brandKey: BK.b
    chatbots:
      - { chatbotId: "0300000001", subTitle: Other }
messaging:
  agencies:
    - { agencyId: ag1, agencyKey: AK.one, brands: [BR.a] }
    - { agencyId: ag2, agencyKey: AK.two, brands: [BR.b] }
  rooms:
    - { chatbotId: "0200000001", moMsgWebhookUrl: "http://127.0.0.1:9/mo" }
  messagebaseSenders:
    SCwThM00: ["0200000002"]
`;

/** A message that passes every check: one-way room 0200000001, agency ag1. */
export const BASE_MESSAGE = {
  clientMsgId: 'c-1',
  chatbotId: '0200000001',
  messagebaseId: 'SCS00000',
  userContact: '01000000001',
  agencyId: 'ag1',
  agencyKey: 'AK.one',
  brandKey: 'BK.a',
  body: { description: 'hello' },
};

/** POST /ag/1.2/message with the agency token. */
export function sendMessage(emu: RunningEmulator, message: Record<string, unknown>): Promise<Answer> {
  return call(emu, 'POST', '/ag/1.2/message', { token: 't-agency', json: message });
}

/**
 * An emulator on MESSAGING_SEED and a webhook receiver for a test file. Before
 * every test: the emulator reset, the receiver emptied and answering 200, and
 * agency ag1's webhook pointed at it.
 */
export function useMessaging(receive: (emu: RunningEmulator, rx: Receiver) => void): void {
  let emu: RunningEmulator;
  let rx: Receiver;
  useEmulator((e) => (emu = e), { seed: MESSAGING_SEED });
  beforeAll(async () => {
    rx = await startReceiver();
    receive(emu, rx);
  });
  afterAll(() => rx.close());
  beforeEach(async () => {
    await admin(emu, 'POST', 'reset');
    rx.calls.length = 0;
    rx.answer = () => 200;
    await admin(emu, 'POST', 'messaging/webhook', { agencyId: 'ag1', url: rx.url });
  });
}
