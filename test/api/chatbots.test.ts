// Chatbots (rooms) and their persistent menus: every client method against the
// emulator, and the errors of this family.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError, isServiceError } from '../../src/api/index.js';
import { AGENCY_TOKEN, BRAND, collect, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const certificate = { fileName: 'subscription.pdf', bytes: new TextEncoder().encode('%PDF-1.4 certificate'), contentType: 'application/pdf' };

function code(err: unknown): string {
  expect(err).toBeInstanceOf(RcsApiError);
  return (err as RcsApiError).serviceCode;
}

describe('chatbots', () => {
  it('lists and reads rooms, by sender number and through the bidirectional endpoints', async () => {
    const client = emu.client();
    const rooms = await collect(client.chatbots.list(BRAND));
    expect(rooms.map((r) => r.chatbotId)).toEqual(expect.arrayContaining(['0212345678', '0298765432']));
    const room = await client.chatbots.get(BRAND, '0212345678');
    expect(room).toMatchObject({ chatbotId: '0212345678', subTitle: 'Coffee Co', rcsReply: '1', approvalResult: '승인', persistentMenu: [] });
    expect(Array.isArray(room.mediaUrl)).toBe(true);

    await client.menus.create(BRAND, '0212345678', [{ type: 'reply', title: 'Hello', ordNo: 1 }]);
    const bidi = await collect(client.chatbots.listBidirectional(BRAND));
    expect(bidi.map((r) => r.chatbotId)).toContain('0212345678');
    const viaBidi = await client.chatbots.getBidirectional(BRAND, '0212345678');
    expect(viaBidi.persistentMenu.map((m) => m.title)).toEqual(['Hello']);
    await client.menus.delete(BRAND, '0212345678');
  });

  it('registers, updates, cancels and deletes a room', async () => {
    const client = emu.client();
    const created = await client.chatbots.create(BRAND, [{ mdn: '0233334444', subTitle: 'New room', rcsReply: '1', display: '11' }], certificate);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ chatbotId: '0233334444', subTitle: 'New room', approvalResult: '승인대기', display: '11' });

    await emu.admin('POST', '/review', { kind: 'chatbot', brandId: BRAND.id, id: '0233334444', action: 'start' });
    await emu.admin('POST', '/review', { kind: 'chatbot', brandId: BRAND.id, id: '0233334444', action: 'complete' });
    const renamed = await client.chatbots.update(BRAND, '0233334444', { mdn: '0233334444', subTitle: 'Renamed' });
    expect(renamed).toMatchObject({ subTitle: 'Renamed', approvalResult: '승인대기(수정)' });

    await client.chatbots.cancel(BRAND, '0233334444');
    expect(await client.chatbots.get(BRAND, '0233334444')).toMatchObject({ subTitle: 'New room', approvalResult: '승인' });

    const withCert = await client.chatbots.update(BRAND, '0233334444', { mdn: '0233334444', subTitle: 'New room', subDescr: 'Our room' }, certificate);
    expect(withCert.subDescr).toBe('Our room');

    const deleted = await client.chatbots.delete(BRAND, '0233334444');
    expect(deleted).toEqual({ chatbotId: '0233334444', releatedChatbots: [] });
    expect(code(await rejection(client.chatbots.get(BRAND, '0233334444')))).toBe('64105');
  });

  it('maps 64105 (unknown room), 64328 (update while in review), 64355 (certificate type)', async () => {
    const client = emu.client();
    const unknown = await rejection(client.chatbots.delete(BRAND, '0200000000'));
    expect(code(unknown)).toBe('64105');
    expect((unknown as Error).message).toBe('delete chatbot 0200000000 failed: 400 64105 Invalid chatbotId on path parameter');

    const inReview = await rejection(client.chatbots.update(BRAND, '0298765432', { mdn: '0298765432', subTitle: 'Other' }));
    expect((inReview as Error).message).toBe('update chatbot "Other" (0298765432) failed: 400 64328 Not allowed modification');

    const badCert = await rejection(
      client.chatbots.create(BRAND, [{ mdn: '0255556666', subTitle: 'X' }], { fileName: 'cert.exe', bytes: new Uint8Array(4), contentType: 'application/octet-stream' }),
    );
    expect(code(badCert)).toBe('64355');
  });
});

describe('persistent menus', () => {
  it('creates, replaces, pauses, resumes and deletes a menu', async () => {
    const client = emu.client();
    const { autoReplyMsgId } = await client.autoReplies.create(BRAND, { autoReplyMsgName: 'Menu target', messagebaseId: 'SCS00000', body: { description: 'Hi' } });
    await client.menus.create(BRAND, '0212345678', [
      { type: 'reply', title: 'Opening hours', ordNo: 1, autoReplyMsgId },
      { type: 'action', title: 'Call us', ordNo: 2, actionType: 'dialerAction', action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } },
    ]);
    let room = await client.chatbots.get(BRAND, '0212345678');
    expect(room.persistentMenu.map((m) => [m.title, m.autoReplyMsgId])).toEqual([
      ['Opening hours', autoReplyMsgId],
      ['Call us', undefined],
    ]);
    expect(room.persistentMenu.every((m) => typeof m.postbackId === 'string')).toBe(true);

    await client.menus.replace(BRAND, '0212345678', [{ type: 'reply', title: 'Only one', ordNo: 1 }]);
    room = await client.chatbots.get(BRAND, '0212345678');
    expect(room.persistentMenu.map((m) => m.title)).toEqual(['Only one']);

    // Only the relay agency registered on the room may pause its menu (64390 otherwise).
    expect(code(await rejection(client.menus.pause(BRAND, '0212345678', true)))).toBe('64390');
    const seeded = emu.store.brands.get(BRAND.id)?.chatbots.get('0212345678');
    if (seeded === undefined) throw new Error('seed room missing');
    seeded.botAgencyId = 'agency01';
    const relay = emu.client({ credentials: { token: AGENCY_TOKEN } });
    const paused = await relay.menus.pause(BRAND, '0212345678', true);
    expect(paused).toMatchObject({ chatbotId: '0212345678', isPause: true });
    expect(typeof paused.pausedDate).toBe('string');
    expect((await client.chatbots.get(BRAND, '0212345678')).psMenuUse).toBe(false);
    const resumed = await relay.menus.pause(BRAND, '0212345678', false);
    seeded.botAgencyId = null;
    expect(resumed.isPause).toBe(false);

    await client.menus.delete(BRAND, '0212345678');
    expect((await client.chatbots.get(BRAND, '0212345678')).persistentMenu).toEqual([]);
  });

  it('maps 64377 (bad menu), 64375 (unknown auto-reply) and 64323 (same menu again)', async () => {
    const client = emu.client();
    const smsRoom = await rejection(client.menus.create(BRAND, '0211112222', [{ type: 'reply', title: 'Hi', ordNo: 1 }]));
    expect(code(smsRoom)).toBe('64377');
    const tooMany = await rejection(
      client.menus.create(
        BRAND,
        '0212345678',
        Array.from({ length: 6 }, (_, i) => ({ type: 'reply', title: `Item ${i}`, ordNo: i + 1 })),
      ),
    );
    expect((tooMany as RcsApiError).serviceMessage).toMatch(/^Invalid_menu_format \[.+\]$/);
    expect((await emu.contract.clear()).map((v) => `${v.operation} ${v.field}`)).toEqual(['menu.create persistentMenu.menu']);
    const dangling = await rejection(client.menus.create(BRAND, '0212345678', [{ type: 'reply', title: 'Gone', ordNo: 1, autoReplyMsgId: 'ARM999999999999' }]));
    expect(code(dangling)).toBe('64375');

    await client.menus.create(BRAND, '0212345678', [{ type: 'reply', title: 'Same', ordNo: 1 }]);
    const same = await rejection(client.menus.replace(BRAND, '0212345678', [{ type: 'reply', title: 'Same', ordNo: 1 }]));
    expect(isServiceError(same, '64323')).toBe(true);
    await client.menus.delete(BRAND, '0212345678');
  });
});
