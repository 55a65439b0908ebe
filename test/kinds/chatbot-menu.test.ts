// The room and persistent-menu kinds on in-memory objects: fields left out are
// not managed, documented defaults, state gates, menus in ordNo order and
// menu references.

import { describe, expect, it } from 'vitest';
import { chatbotKind } from '../../src/kinds/chatbot/index.js';
import { persistentMenuKind, type DesiredMenu } from '../../src/kinds/persistent-menu/index.js';
import { diffObjects } from '../../src/plan/diff.js';
import type { DesiredChatbot } from '../../src/kinds/index.js';
import type { ChatbotDetail } from '../../src/api/types.js';
import { contextFor, desiredAutoReply, desiredBrand, desiredChatbot, liveAutoReply, liveBrand, liveChatbot, SOURCE } from './helpers.js';

const ctx = contextFor(desiredBrand(), liveBrand());

function roomChanges(d: DesiredChatbot, l: ChatbotDetail) {
  return diffObjects(chatbotKind.diff.normaliseLive(l, ctx), chatbotKind.diff.normaliseDesired(d, ctx, l));
}

describe('room normalisation', () => {
  it('leaves fields the manifest omits unmanaged: no change, and the live value is sent back', () => {
    const l = liveChatbot('0212345678', { subTitle: 'Coffee Co', display: '11', inputField: 0, subDescr: 'Fresh', saftyStatusYn: 'N', rcsReply: '0' });
    const d = desiredChatbot('0212345678', { subDescr: 'Fresher' });
    expect(roomChanges(d, l)).toEqual([{ path: 'subDescr', type: 'change', before: 'Fresh', after: 'Fresher' }]);
    const step = chatbotKind.diff.updateStep(d, l, ctx, { id: 'x', kind: 'chatbot', address: 'chatbot.0212345678', name: 'n', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'chatbot:0212345678' });
    expect(step).toMatchObject({ op: 'update', request: { chatbot: { mdn: '0212345678', subTitle: 'Coffee Co', display: '11', inputField: 0, subDescr: 'Fresher', saftyStatusYn: 'N', rcsReply: '0' } } });
  });

  it('ignores server-owned room fields (dates, ids, state, media, webhook, menu)', () => {
    const l = liveChatbot('0212345678', { registerId: 'x', updateDate: '2030-01-01T00:00:00.000+09', approvalResult: '승인', webhook: 'https://h', psMenuUse: true, persistentMenu: [{ type: 'feed', title: 'News', ordNo: 1 }] });
    expect(roomChanges(desiredChatbot('0212345678', { subTitle: 'Coffee Co' }), l)).toEqual([]);
  });

  it('applies the documented defaults (saftyStatusYn Y, rcsReply 1, display 01, inputField 1) to a live room that omits them', () => {
    const l = liveChatbot('0212345678', { saftyStatusYn: undefined, rcsReply: undefined, display: undefined, inputField: undefined } as unknown as Partial<ChatbotDetail>);
    expect(roomChanges(desiredChatbot('0212345678', { saftyStatusYn: 'Y', rcsReply: '1', display: '01', inputField: 1 }), l)).toEqual([]);
  });

  it('treats an empty or null subDescr live as absent', () => {
    expect(roomChanges(desiredChatbot('0212345678'), liveChatbot('0212345678', { subDescr: '' }))).toEqual([]);
    expect(roomChanges(desiredChatbot('0212345678'), liveChatbot('0212345678', { subDescr: null }))).toEqual([]);
  });
});

describe('room gates', () => {
  const d = desiredChatbot('0212345678');
  const sub = [{ path: 'subTitle', type: 'change' as const, before: 'A', after: 'B' }];
  const descr = [{ path: 'subDescr', type: 'change' as const, before: 'A', after: 'B' }];

  it('a subTitle change on 승인 needs review; another field on 승인 does not', () => {
    expect(chatbotKind.gates.update(liveChatbot('0212345678', { approvalResult: '승인' }), sub, d)).toMatchObject({ type: 'review' });
    expect(chatbotKind.gates.update(liveChatbot('0212345678', { approvalResult: '승인' }), descr, d)).toEqual({ type: 'none' });
  });

  it('any update on 반려 needs review; on 저장 none', () => {
    expect(chatbotKind.gates.update(liveChatbot('0212345678', { approvalResult: '반려' }), descr, d)).toMatchObject({ type: 'review' });
    expect(chatbotKind.gates.update(liveChatbot('0212345678', { approvalResult: '저장' }), sub, d)).toEqual({ type: 'none' });
  });

  it.each(['승인대기', '검수시작', '검수완료', '승인대기(수정)', '검수완료(수정)'])('an update in %s is blocked, with the state', (state) => {
    expect(chatbotKind.gates.update(liveChatbot('0212345678', { approvalResult: state }), descr, d)).toMatchObject({ type: 'blocked', state });
  });

  it('a new room needs a certificate and a subTitle, and goes to review', () => {
    expect(chatbotKind.createProblems?.(desiredChatbot('0211112222', { subTitle: 'T' })).map((p) => p.code)).toEqual(['E_PLAN_ROOM_CERTIFICATE']);
    expect(chatbotKind.gates.create(d)).toMatchObject({ type: 'review' });
  });
});

describe('persistent menu', () => {
  const brand = desiredBrand({ autoReplies: [desiredAutoReply('hours', { name: 'Hours' }), desiredAutoReply('news', { name: 'News' })] });
  const live = liveBrand({ autoReplies: [liveAutoReply('ARM1', { autoReplyMsgName: 'Hours' })] });
  const mctx = contextFor(brand, live);
  const menu = (items: DesiredMenu['items'], rcsReply?: string): DesiredMenu => ({ chatbotId: '0212345678', room: 'chatbot', roomName: 'Coffee Co', items, rcsReply, source: SOURCE });
  const diffMenu = (d: DesiredMenu, l: ChatbotDetail) => diffObjects(persistentMenuKind.diff.normaliseLive(l, mctx), persistentMenuKind.diff.normaliseDesired(d, mctx, l));

  it('compares the live menu in ordNo order, without postbackIds', () => {
    const l = liveChatbot('0212345678', {
      persistentMenu: [
        { postbackId: 'PM2', type: 'feed', title: 'Feed', ordNo: 2, feedId: 'F1' },
        { postbackId: 'PM1', upPostbackId: 'PM0', type: 'reply', title: 'Hours', ordNo: 1, autoReplyMsgId: 'ARM1' },
      ],
    });
    expect(diffMenu(menu([{ type: 'reply', title: 'Hours', autoReply: 'hours' }, { type: 'feed', title: 'Feed', feedId: 'F1' }]), l)).toEqual([]);
    // The other order is a change.
    expect(diffMenu(menu([{ type: 'feed', title: 'Feed', feedId: 'F1' }, { type: 'reply', title: 'Hours', autoReply: 'hours' }]), l).length).toBeGreaterThan(0);
  });

  it('names a new auto-reply by placeholder, so the menu waits for it', () => {
    const step = persistentMenuKind.diff.createStep(menu([{ type: 'reply', title: 'News', autoReply: 'news' }]), mctx, {
      id: 'x', kind: 'persistentMenu', address: 'persistentMenu.0212345678', name: 'n', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'persistentMenu:0212345678',
    });
    expect(step).toMatchObject({ op: 'create', request: { persistentMenu: { menu: [{ type: 'reply', title: 'News', ordNo: 1, autoReplyMsgId: '<ref:autoReply:news>' }] } } });
  });

  it('creates a menu on a room without one, replaces one the room has, and deletes one declared empty', () => {
    const seed = { id: 'x', kind: 'persistentMenu' as const, address: 'persistentMenu.0212345678', name: 'n', gate: { type: 'none' as const }, changes: [], dependsOn: [], produces: 'p' };
    const withMenu = liveChatbot('0212345678', { persistentMenu: [{ type: 'feed', title: 'F', ordNo: 1 }] });
    const item = { type: 'feed' as const, title: 'G' };
    expect(persistentMenuKind.diff.updateStep(menu([item]), withMenu, mctx, seed)).toMatchObject({ op: 'update', liveId: '0212345678', request: { persistentMenu: { menu: [{ type: 'feed', title: 'G', ordNo: 1 }] } } });
    const removal = persistentMenuKind.diff.updateStep(menu([]), withMenu, mctx, seed);
    expect(removal).toEqual({ ...seed, op: 'delete', liveId: '0212345678', declared: true });
    const created = persistentMenuKind.diff.updateStep(menu([item]), liveChatbot('0212345678'), mctx, seed);
    expect(created).toMatchObject({ op: 'create', request: { persistentMenu: { menu: [{ type: 'feed', title: 'G', ordNo: 1 }] } } });
    expect(created).not.toHaveProperty('liveId');
    expect(persistentMenuKind.diff.createStep(menu([]), mctx, seed)).toBeUndefined();
  });

  it('blocks a menu on a room whose rcsReply is not "1"', () => {
    expect(persistentMenuKind.gates.create(menu([{ type: 'feed', title: 'F' }], '0'))).toMatchObject({ type: 'blocked' });
    expect(persistentMenuKind.gates.update(liveChatbot('0212345678', { rcsReply: '0' }), [], menu([{ type: 'feed', title: 'F' }]))).toMatchObject({ type: 'blocked' });
    expect(persistentMenuKind.gates.update(liveChatbot('0212345678', { rcsReply: '0' }), [], menu([]))).toEqual({ type: 'none' });
  });

  it('lists the auto-replies a live menu points at, and waits for its room', () => {
    const l = liveChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'H', ordNo: 1, autoReplyMsgId: 'ARM1' }, { type: 'feed', title: 'F', ordNo: 2 }] });
    expect(persistentMenuKind.liveRefs(l)).toEqual(['autoReply:ARM1']);
    // A new room first; a live one only when its update is what allows the menu.
    expect(persistentMenuKind.after?.(menu([]))).toEqual(['chatbot:0212345678']);
    expect(persistentMenuKind.after?.(menu([]), l)).toEqual([]);
    expect(persistentMenuKind.after?.(menu([], '1'), liveChatbot('0212345678', { rcsReply: '0' }))).toEqual(['chatbot:0212345678']);
  });

  it('manages only the menus of rooms whose manifest has persistentMenu', () => {
    const b = desiredBrand({ chatbots: [desiredChatbot('1', { persistentMenu: [] }), desiredChatbot('2')] });
    expect(persistentMenuKind.desired(b).map((m) => m.chatbotId)).toEqual(['1']);
  });

  it("manages the menu of a room with a bidirectional ID declared under bidirectionalRooms:, never a converted room's there", () => {
    const b = desiredBrand({ chatbots: [desiredChatbot('0212345678')] });
    b.bidirectionalRooms = new Map([
      ['bot-coffee', { chatbotId: 'bot-coffee', service: 'chat', subTitle: 'Coffee chat', persistentMenu: [{ type: 'feed', title: 'News', feedId: 'F1' }], source: SOURCE }],
      ['bot-plain', { chatbotId: 'bot-plain', service: 'chat', subTitle: 'Plain', source: SOURCE }],
      ['0212345678', { chatbotId: '0212345678', service: 'a2p', botAgencyId: 'relay', persistentMenu: [], source: SOURCE }],
    ]);
    const menus = persistentMenuKind.desired(b);
    expect(menus).toEqual([{ chatbotId: 'bot-coffee', room: 'bidirectionalRoom', roomName: 'Coffee chat', items: [{ type: 'feed', title: 'News', feedId: 'F1' }], rcsReply: '1', source: SOURCE }]);
    const m = menus[0] as DesiredMenu;
    // A new room with a bidirectional ID first; its menu then needs nothing of the room (rcsReply is always "1").
    expect(persistentMenuKind.after?.(m)).toEqual(['bidirectionalRoom:bot-coffee']);
    const room = liveChatbot('bot-coffee', { service: 'chat', subNum: '0212345678' });
    expect(persistentMenuKind.after?.(m, room)).toEqual([]);
    expect(persistentMenuKind.drawing.partOf?.(m)).toBe('bidirectionalRoom.bot-coffee');
    expect(persistentMenuKind.preview.partOf?.of(m)).toEqual({ kind: 'bidirectionalRoom', key: 'bot-coffee' });
    // Live: the sender-number rooms and the rooms with a bidirectional ID (a converted room is listed among the first already).
    const converted = liveChatbot('0298765432', { botAgencyId: 'relay' });
    const live = { ...liveBrand({ chatbots: [liveChatbot('0212345678'), converted] }), bidirectionalRooms: [converted, room] };
    expect(persistentMenuKind.live(live).map((l) => l.chatbotId)).toEqual(['0212345678', '0298765432', 'bot-coffee']);
    // A room with a bidirectional ID the sender-number list holds too (the doctor's bidirectional-list check says so) is one room, not two.
    const both = { ...liveBrand({ chatbots: [liveChatbot('0212345678'), room] }), bidirectionalRooms: [room] };
    expect(persistentMenuKind.live(both).map((l) => l.chatbotId)).toEqual(['0212345678', 'bot-coffee']);
  });
});
