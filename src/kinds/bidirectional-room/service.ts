// Bidirectional rooms and the service: reading the bidirectional list (rooms
// with a bidirectional ID, and sender-number rooms with an agency linked; a
// room listed only for its menu is the chatbot kind's), each in detail (from
// the live cache while its list item holds: src/kinds/room-cache.ts);
// re-reading by chatbotId; the apply handlers and the codes they tolerate.

import type { BrandRef, RcsClient } from '../../api/index.js';
import { ERRORS } from '../../contract/codes.js';
import type { BiChatbotInfo, ChatbotDetail, ChatbotListItem } from '../../contract/wire.js';
import type { Step } from '../../core/step.js';
import { collect, createOnce, gone, liveIdOf, requestOf, tolerate } from '../apply-helpers.js';
import { cachePart } from '../live-cache.js';
import type { DetailReader, Handler, KindListing, Reread } from '../resource-kind.js';
import { cachedRoomDetails, type RoomEntry } from '../room-cache.js';
import { isChatKey } from './manifest.js';

/** Service codes apply treats as "already as asked": the room is gone, not bidirectional any more, or already as sent. */
export const BIDI_CODES = { gone: ERRORS.invalidChatbotId.code, notBidirectional: ERRORS.notBidirectional.code, noChange: ERRORS.noChanges.code } as const;

/** Whether a room of the bidirectional list is this kind's: a room with a bidirectional ID, or one with an agency linked. */
export function isManaged(room: { service: string; botAgencyId: string | null }): boolean {
  return room.service === 'chat' || (room.botAgencyId !== null && room.botAgencyId !== '');
}

async function* managed(items: AsyncIterable<ChatbotListItem>): AsyncIterable<ChatbotListItem> {
  for await (const item of items) if (isManaged(item)) yield item;
}

/** The rooms' details in the live cache, by chatbotId. */
export const BIDI_ROOMS = cachePart<RoomEntry>('bidirectionalRooms');

/** The list, then each room's detail: from the live cache while its list item is unchanged (src/kinds/room-cache.ts), else read and kept. */
export const bidirectionalReader: DetailReader<ChatbotListItem, ChatbotDetail> = {
  items: (env) => managed(env.client.bidirectional.list(env.brand)),
  ...cachedRoomDetails(BIDI_ROOMS, (env, id) => env.client.bidirectional.get(env.brand, id)),
};

/** The list, as verification reads it after apply (entries are not whole rooms). */
export const bidirectionalList: KindListing<ChatbotListItem> = {
  list: (client, brand) => collect(managed(client.bidirectional.list(brand))),
  id: (c) => c.chatbotId,
};

/** One room again; a sender-number room without an agency is not a bidirectional room (any more). */
export async function rereadBidirectional(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<ChatbotDetail> | undefined> {
  const room = await client.bidirectional.get(brand, id).catch(gone(BIDI_CODES.gone));
  return room === undefined || !isManaged(room) ? undefined : { live: room, ctx: { liveName: () => undefined } };
}

/** The handlers: register (or convert), change, and delete (or unlink). */
export const bidirectionalHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const { chatbot } = requestOf<{ chatbot: BiChatbotInfo & { chatbotId: string; service: 'a2p' | 'chat' } }>(step);
    return createOnce(
      () => env.client.bidirectional.register(env.brand, chatbot).then((room) => room.chatbotId),
      async () => {
        const room = await env.client.bidirectional.get(env.brand, chatbot.chatbotId).catch(gone(BIDI_CODES.gone));
        return room !== undefined && isManaged(room) ? room.chatbotId : undefined;
      },
    );
  },
  update: async (step, env) => {
    const { chatbot } = requestOf<{ chatbot: BiChatbotInfo }>(step);
    await tolerate(env.client.bidirectional.modify(env.brand, liveIdOf(step), chatbot), [BIDI_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    const id = liveIdOf(step);
    // A converted room is unlinked with botAgencyId "": a DELETE on a sender-number
    // room that has no agency (any more) would delete the room itself.
    if (!isChatKey(id)) {
      await tolerate(env.client.bidirectional.modify(env.brand, id, { botAgencyId: '' }), [BIDI_CODES.gone, BIDI_CODES.notBidirectional, BIDI_CODES.noChange]);
      return { note: 'agency unlinked; the sender-number room stays' };
    }
    await tolerate(env.client.bidirectional.delete(env.brand, id), [BIDI_CODES.gone]);
    return {};
  },
};
