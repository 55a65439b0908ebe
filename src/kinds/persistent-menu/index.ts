// The persistent menu kind: part of its room, a sender-number room or a room
// with a bidirectional ID (read, re-read and exported with it), planned and
// applied on its own.
//   kind.ts      identity, normalisation, the menu request, gates (pure)
//   service.ts   the create, replace and delete handlers and their codes
//   usage.ts     how often its items were pressed (the room's menu statistics)
//   manifest.ts  the menu item definition and lint rules;  schema.ts  its fragment

import type { ChatbotDetail } from '../../api/types.js';
import { isChatKey } from '../bidirectional-room/manifest.js';
import { rereadBidirectional } from '../bidirectional-room/service.js';
import { rereadChatbot } from '../chatbot/service.js';
import type { Drawn, Ordered, Previewable, Referring, ResourceKind, UsageCounted, Worded } from '../resource-kind.js';
import { hasMenu, persistentMenuPlanning, type DesiredMenu } from './kind.js';
import { menuManifest } from './manifest.js';
import { menuHandlers } from './service.js';
import { menuUsage } from './usage.js';

/** The persistent menu kind. */
export const persistentMenuKind: ResourceKind<DesiredMenu, ChatbotDetail, 'persistentMenu'> & Previewable<DesiredMenu> & Worded & Drawn<DesiredMenu> & Referring<ChatbotDetail> & Ordered<DesiredMenu, ChatbotDetail> & UsageCounted<ChatbotDetail> = {
  ...persistentMenuPlanning,
  manifest: menuManifest,
  read: {
    // A room without a menu has no menu to find: a create is then still to do, a delete done.
    // A room with a bidirectional ID is read through the bidirectional routes (the sender-number routes do not list it).
    reread: async (client, brand, id) => {
      const room = isChatKey(id) ? await rereadBidirectional(client, brand, id) : await rereadChatbot(client, brand, id);
      return room !== undefined && hasMenu(room.live) ? room : undefined;
    },
  },
  handlers: menuHandlers,
  usage: menuUsage,
};

export type { DesiredMenu } from './kind.js';
export type { MenuRoomKind } from './types.js';
