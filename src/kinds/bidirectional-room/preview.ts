// How a handset shows bidirectional rooms: a section of the brand's page after
// the rooms, each room with a bidirectional ID as its own room handset (a
// room a user can answer in: RCS replies, its reply number beside it), and a
// converted sender-number room as that room, said to be bidirectional through
// its agency. A room with a bidirectional ID shows its persistent menu at its
// bottom, as a sender-number room does.

import { shortText } from '../../core/shorten.js';
import { roomHandsetOf } from '../chatbot/preview.js';
import { shownIn, type RoomView } from '../handset-model.js';
import type { KindPreview } from '../handset.js';
import type { DesiredBidirectionalRoom } from './types.js';

/** The bidirectional room kind's drawing. */
export const bidirectionalPreview: KindPreview<DesiredBidirectionalRoom> = {
  page: {
    id: 'bidirectional-rooms',
    heading: 'Bidirectional rooms',
    toc: 'Bidirectional rooms',
    // After the rooms and their menus (20).
    order: 25,
    anchor: 'biroom',
    counted: true,
    name: (d) => d.subTitle,
    handset(d, ctx) {
      const converted = d.service === 'a2p';
      // A converted room is the sender-number room the manifests name under chatbots: (its name is that room's).
      const name = converted ? (ctx.brand.chatbots.get(d.chatbotId)?.subTitle ?? d.chatbotId) : (d.subTitle ?? d.chatbotId);
      const link = d.botAgencyId === undefined ? '' : ` through agency ${d.botAgencyId}`;
      const about = converted ? `Sender-number room ${d.chatbotId}, bidirectional${link}.` : `Replies from ${d.subNum ?? 'its reply number'}${link}.`;
      const room: RoomView = { key: ctx.anchor, address: ctx.address, chatbotId: d.chatbotId, name, source: ctx.where(d.source), rcsReply: '1' };
      room.description = shortText(d.subDescr !== undefined ? `${d.subDescr} (${about})` : about);
      const places = shownIn(d.display);
      if (places !== undefined) room.shownIn = places;
      if (d.inputField !== undefined) room.inputEnabled = d.inputField === 1;
      if (d.saftyStatusYn !== undefined) room.safetyMark = d.saftyStatusYn === 'Y';
      // Its menu, drawn where a room's menu goes (a converted room's menu is drawn in its sender-number room).
      return roomHandsetOf(room, ctx);
    },
  },
};
