// Persistent menus, the pure part: part of their room (a sender-number room's
// or a room with a bidirectional ID's: the service's menu routes take either),
// compared as a list in ordNo order, replaced whole. Menu changes do not
// trigger review.

import type { ChatbotDetail, PersistentMenuRequestItem } from '../../api/types.js';
import { NO_GATE, type Gate } from '../../core/step.js';
import { compact } from '../../util/compact.js';
import { matchById } from '../match.js';
import { drawnReply } from '../auto-reply/kind.js';
import { menuPreview } from './preview.js';
import type { DesiredMenu } from './types.js';
import type { Drawn, KindPlanning, Ordered, PlanContext, Previewable, Referring, Worded } from '../resource-kind.js';

export type { DesiredMenu };

/** The persistent menu kind's pure part. */
export const persistentMenuPlanning: KindPlanning<DesiredMenu, ChatbotDetail, 'persistentMenu'> & Previewable<DesiredMenu> & Worded & Drawn<DesiredMenu> & Referring<ChatbotDetail> & Ordered<DesiredMenu, ChatbotDetail> = {
  name: 'persistentMenu',
  label: 'persistent menu',
  preview: menuPreview,
  drawing: {
    colour: ['#f1f8e9', '#1c5a2a'],
    name: (d) => `${d.roomName ?? d.chatbotId} menu`,
    partOf: (d) => `${d.room}.${d.chatbotId}`,
    links: (d) => d.items.flatMap((item) => (item.type === 'reply' ? drawnReply(item, item.title) : [])),
  },

  desired: (brand) => [
    ...[...brand.chatbots.values()]
      .filter((c) => c.persistentMenu !== undefined)
      .map((c): DesiredMenu => ({ chatbotId: c.chatbotId, room: 'chatbot', roomName: c.subTitle, items: c.persistentMenu ?? [], rcsReply: c.rcsReply, source: c.source })),
    // A room with a bidirectional ID receives RCS postbacks (rcsReply "1"): its menu is always possible.
    ...[...(brand.bidirectionalRooms?.values() ?? [])]
      .filter((r) => r.service === 'chat' && r.persistentMenu !== undefined)
      .map((r): DesiredMenu => ({ chatbotId: r.chatbotId, room: 'bidirectionalRoom', roomName: r.subTitle, items: r.persistentMenu ?? [], rcsReply: '1', source: r.source })),
  ],
  // The sender-number rooms, and the rooms with a bidirectional ID (a converted room is a sender-number room: listed there;
  // a room the sender-number list holds too, against the document, once).
  live: (live) => {
    const senders = new Set(live.chatbots.map((c) => c.chatbotId));
    return [...live.chatbots, ...(live.bidirectionalRooms ?? []).filter((r) => r.service === 'chat' && !senders.has(r.chatbotId))];
  },
  identity: {
    key: (d) => d.chatbotId,
    // Named by the room; without a subTitle in the manifest the key is returned and the live room name is used.
    desiredName: (d) => (d.roomName !== undefined ? `${d.roomName} menu` : d.chatbotId),
    liveId: (l) => l.chatbotId,
    liveName: (l) => `${l.subTitle} menu`,
    liveState: (l) => (l.psMenuUse ? 'in use' : 'not in use'),
  },

  diff: {
    // Rooms whose manifest leaves the menu out are not extra: their menu is simply not managed.
    match: (desired, live) => ({ ...matchById(desired, live, (d) => d.chatbotId, (l) => l.chatbotId), extra: [] }),
    normaliseLive: (l) => ({
      items: [...(l.persistentMenu ?? [])].sort((a, b) => a.ordNo - b.ordNo).map((i) => itemFields(i)),
    }),
    normaliseDesired: (d, ctx) => ({ items: toItems(d, ctx).map((i) => itemFields(i)) }),
    // A menu is created on a room that has none, replaced whole on one that has
    // one, and deleted when the manifest declares it empty; its id is its room's.
    createStep(d, ctx, seed) {
      if (d.items.length === 0) return undefined;
      return { ...seed, op: 'create', request: menuRequest(d, ctx) };
    },
    updateStep(d, l, ctx, seed) {
      if (d.items.length === 0) return { ...seed, op: 'delete', liveId: l.chatbotId, declared: true };
      if (!hasMenu(l)) return { ...seed, op: 'create', request: menuRequest(d, ctx) };
      return { ...seed, op: 'update', liveId: l.chatbotId, request: menuRequest(d, ctx) };
    },
  },

  words: {
    create: { plan: 'menu will be created', done: 'menu created' },
    update: { plan: 'menu will be replaced', done: 'menu replaced' },
    delete: { plan: 'menu will be removed', done: 'menu removed' },
  },

  gates: {
    create: (d) => rcsReplyGate(d.items.length, d.rcsReply ?? '1'),
    update: (l, _changes, d) => rcsReplyGate(d.items.length, d.rcsReply ?? l.rcsReply),
    delete: () => NO_GATE,
  },
  // A new room must exist first. A live room's update matters only when it is
  // what makes a menu possible (rcsReply to "1"): menus may change in any review
  // state, so a room update blocked by review must not hold the menu back.
  after: (d, l) => (l === undefined || (d.rcsReply !== undefined && d.rcsReply !== l.rcsReply) ? [`${d.room}:${d.chatbotId}`] : []),
  liveRefs,
  // The live menu as it is, in ordNo order, with the items' auto-replies re-pointed: a whole-menu PUT.
  relink(l, to, seed) {
    if (!liveRefs(l).some((t) => to.has(t))) return undefined;
    const menu = [...(l.persistentMenu ?? [])]
      .sort((a, b) => a.ordNo - b.ordNo)
      .map((i) => {
        const item = itemFields(i) as PersistentMenuRequestItem;
        const moved = i.autoReplyMsgId === undefined ? undefined : to.get(`autoReply:${i.autoReplyMsgId}`);
        return { ...item, ordNo: i.ordNo, ...(moved !== undefined ? { autoReplyMsgId: moved } : {}) };
      });
    return { ...seed, op: 'update', liveId: l.chatbotId, request: { persistentMenu: { menu } } };
  },
};

/** Whether the room has a menu live: a room without one has nothing to replace or delete. */
export function hasMenu(l: ChatbotDetail): boolean {
  return (l.persistentMenu ?? []).length > 0;
}

function liveRefs(l: ChatbotDetail): string[] {
  return (l.persistentMenu ?? []).filter((i) => i.autoReplyMsgId !== undefined).map((i) => `autoReply:${i.autoReplyMsgId}`);
}

function rcsReplyGate(items: number, rcsReply: string): Gate {
  if (items === 0 || rcsReply === '1') return NO_GATE;
  return { type: 'blocked', state: `rcsReply ${rcsReply}`, reason: 'a persistent menu needs a room whose rcsReply is "1"' };
}

function toItems(d: DesiredMenu, ctx: PlanContext): PersistentMenuRequestItem[] {
  return d.items.map((item, index) => {
    const out: PersistentMenuRequestItem = { type: item.type, title: item.title, ordNo: index + 1 };
    if (item.autoReply !== undefined) out.autoReplyMsgId = ctx.ref('autoReply', item.autoReply);
    else if (item.autoReplyMsgId !== undefined) out.autoReplyMsgId = item.autoReplyMsgId;
    if (item.feedId !== undefined) out.feedId = item.feedId;
    if (item.actionType !== undefined) out.actionType = item.actionType;
    if (item.action !== undefined) out.action = item.action;
    return out;
  });
}

function menuRequest(d: DesiredMenu, ctx: PlanContext): { persistentMenu: { menu: PersistentMenuRequestItem[] } } {
  return { persistentMenu: { menu: toItems(d, ctx) } };
}

function itemFields(i: PersistentMenuRequestItem): unknown {
  return compact({ type: i.type, title: i.title, autoReplyMsgId: i.autoReplyMsgId, feedId: i.feedId, actionType: i.actionType, action: i.action });
}
