// Rooms as the messaging interface sees them: which are bidirectional, and
// which brand holds a room.

import type { EmulatorStore, StoredBrand, StoredChatbot } from '../store.js';

/** A room with a bidirectional ID, a room menu, or a linked bidirectional agency (the bidirectional list's rule). */
export function isBidirectional(room: StoredChatbot): boolean {
  return room.service === 'chat' || room.menu !== null || room.botAgencyId !== null;
}

/** The room with this chatbotId and its brand, or undefined. */
export function findRoom(store: EmulatorStore, chatbotId: string): { brand: StoredBrand; room: StoredChatbot } | undefined {
  for (const brand of store.brands.values()) {
    const room = brand.chatbots.get(chatbotId);
    if (room !== undefined) return { brand, room };
  }
  return undefined;
}
