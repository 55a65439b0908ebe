// How a handset shows a room's persistent menu: drawn into its room's handset
// (a sender-number room's or a room with a bidirectional ID's),
// and, when a plan changes it, as its room with the menu before and after.

import { menuHtml, roomHandset } from '../handset-draw.js';
import { menuItemView, type RawMenuItem, type RoomView } from '../handset-model.js';
import type { KindPreview } from '../handset.js';
import { isChatKey } from '../bidirectional-room/manifest.js';
import type { DesiredMenu, MenuRoomKind } from './types.js';

/** The kind of the room a changed menu's address names: a room with a bidirectional ID, or a sender-number room. */
function roomKindOf(chatbotId: string): MenuRoomKind {
  return isChatKey(chatbotId) ? 'bidirectionalRoom' : 'chatbot';
}

/** The persistent menu kind's drawing. */
export const menuPreview: KindPreview<DesiredMenu> = {
  partOf: {
    of: (d) => ({ kind: d.room, key: d.chatbotId }),
    part(d, ctx) {
      const items = (d.items as RawMenuItem[]).map((item, i) => menuItemView(item, i, ctx.resolvers));
      return { links: items, html: (o, host) => menuHtml(host.name, items, o) };
    },
  },
  change: {
    noun: 'menu',
    handset(value, ctx) {
      const { step } = ctx;
      const chatbotId = step.address.slice(step.address.indexOf('.') + 1);
      const items = ((value as { items?: RawMenuItem[] }).items ?? []).map((item, i) => menuItemView(item, i, ctx.resolvers));
      const room: RoomView = { key: ctx.anchor, address: step.address, chatbotId, name: ctx.nameOf(roomKindOf(chatbotId), chatbotId) ?? step.name.replace(/ menu$/, ''), menu: items };
      if (ctx.avatar !== undefined) room.logo = ctx.avatar;
      return { key: room.key, address: room.address, name: room.name, links: items, view: room, html: (o) => roomHandset(room, o) };
    },
  },
};
