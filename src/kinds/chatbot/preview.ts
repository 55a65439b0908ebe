// How a handset shows a room: its handset in the brand page's "Rooms and their
// menus" section, with what other kinds draw at its bottom (its menu) and the
// brand's picture; its name is the one every handset shows at its top.

import { shortText } from '../../core/shorten.js';
import { roomHandset } from '../handset-draw.js';
import { shownIn, type RoomView } from '../handset-model.js';
import type { Handset, KindPreview, ShowContext } from '../handset.js';
import type { DesiredChatbot } from './types.js';

/** The room kind's drawing. */
export const roomPreview: KindPreview<DesiredChatbot> = {
  page: {
    id: 'rooms',
    heading: 'Rooms and their menus',
    toc: 'Rooms',
    order: 20,
    anchor: 'room',
    always: true,
    counted: true,
    name: (c) => c.subTitle,
    barName: (c) => c.subTitle,
    handset(c, ctx) {
      const room: RoomView = { key: ctx.anchor, address: ctx.address, chatbotId: c.chatbotId, name: c.subTitle ?? c.chatbotId, source: ctx.where(c.source) };
      if (c.subDescr !== undefined) room.description = shortText(c.subDescr);
      const places = shownIn(c.display);
      if (places !== undefined) room.shownIn = places;
      if (c.inputField !== undefined) room.inputEnabled = c.inputField === 1;
      if (c.rcsReply !== undefined) room.rcsReply = c.rcsReply;
      if (c.saftyStatusYn !== undefined) room.safetyMark = c.saftyStatusYn === 'Y';
      return roomHandsetOf(room, ctx);
    },
  },
};

/**
 * A room's handset, as both room kinds draw it: what other kinds draw into the
 * room (its menu) stands where the menu goes, without any the menu is not
 * managed; the brand's picture at its top.
 */
export function roomHandsetOf(room: RoomView, ctx: ShowContext): Handset {
  const parts = ctx.parts;
  if (parts.length > 0) room.menu = parts.flatMap((p) => p.links);
  if (ctx.avatar !== undefined) room.logo = ctx.avatar;
  return {
    key: room.key,
    address: room.address,
    name: room.name,
    links: room.menu ?? [],
    view: room,
    html: (o) => roomHandset(room, o, parts.length === 0 ? undefined : parts.map((p) => p.html(o, room)).join('')),
  };
}
