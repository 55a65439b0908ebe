// A room's persistent menu as the manifests declare it (a part of its room's
// entry: a sender-number room's, or a room with a bidirectional ID's).

import type { DesiredChatbot, DesiredMenuItem } from '../chatbot/types.js';

/** The kinds whose rooms hold a menu: a sender-number room (`chatbots:`) or a room with a bidirectional ID (`bidirectionalRooms:`). */
export type MenuRoomKind = 'chatbot' | 'bidirectionalRoom';

/** A room's menu, desired: only rooms whose manifest has `persistentMenu`. */
export interface DesiredMenu {
  chatbotId: string;
  /** The kind of the room it is part of (its manifest section). */
  room: MenuRoomKind;
  /** The room's subTitle in the manifest, when it names one. */
  roomName: string | undefined;
  items: DesiredMenuItem[];
  rcsReply: string | undefined;
  source: DesiredChatbot['source'];
}
