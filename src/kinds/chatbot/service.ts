// Rooms and the service: reading the list then each detail (from the live
// cache while its list item holds: src/kinds/room-cache.ts), re-reading by
// chatbotId, and the apply handlers with their idempotency codes.

import { isServiceError, type BrandRef, type RcsClient } from '../../api/index.js';
import type { ChatbotDetail, ChatbotInfo, ChatbotListItem } from '../../contract/wire.js';
import type { Step } from '../../core/step.js';
import { collect, createOnce, gone, liveIdOf, readChecked, requestOf, stepFileOf, tolerate } from '../apply-helpers.js';
import { cachePart } from '../live-cache.js';
import type { DetailReader, Handler, KindListing, Reread } from '../resource-kind.js';
import { cachedRoomDetails, type RoomEntry } from '../room-cache.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked". */
export const CHATBOT_CODES = { gone: ERRORS.invalidChatbotId.code, noChange: ERRORS.noChanges.code } as const;

/** The room list, as verification reads it after apply (entries are not whole rooms). */
export const chatbotList: KindListing<ChatbotListItem> = {
  list: (client, brand) => collect(client.chatbots.list(brand)),
  id: (c) => c.chatbotId,
};

/** The rooms' details in the live cache, by chatbotId. */
export const CHATBOT_ROOMS = cachePart<RoomEntry>('chatbots');

/** Reads every room: the list, then each detail (which holds the menu): from the live cache while its list item is unchanged, else read and kept. */
export const chatbotReader: DetailReader<ChatbotListItem, ChatbotDetail> = {
  items: (env) => env.client.chatbots.list(env.brand),
  ...cachedRoomDetails(CHATBOT_ROOMS, (env, id) => env.client.chatbots.get(env.brand, id)),
};

/** One room again. */
export async function rereadChatbot(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<ChatbotDetail> | undefined> {
  const room = await client.chatbots.get(brand, id).catch(gone(CHATBOT_CODES.gone));
  return room === undefined ? undefined : { live: room, ctx: { liveName: () => undefined } };
}

/** The room handlers. */
export const chatbotHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<{ chatbots: ChatbotInfo[] }>(step);
    const info = req.chatbots[0] as ChatbotInfo;
    const certificate = await readChecked(stepFileOf(step));
    return createOnce(
      () => env.client.chatbots.create(env.brand, req.chatbots, certificate).then(() => info.mdn),
      async () => {
        try {
          return (await env.client.chatbots.get(env.brand, info.mdn)).chatbotId;
        } catch (err) {
          if (isServiceError(err, CHATBOT_CODES.gone)) return undefined;
          throw err;
        }
      },
    );
  },
  update: async (step, env) => {
    const req = requestOf<{ chatbot: ChatbotInfo }>(step);
    await tolerate(env.client.chatbots.update(env.brand, liveIdOf(step), req.chatbot), [CHATBOT_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    await tolerate(env.client.chatbots.delete(env.brand, liveIdOf(step)), [CHATBOT_CODES.gone]);
    return {};
  },
};
