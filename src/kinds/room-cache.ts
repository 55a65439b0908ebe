// What the live cache keeps of rooms, for both room kinds (sender-number rooms,
// src/kinds/chatbot; bidirectional rooms, src/kinds/bidirectional-room), and
// when it serves it: a room's detail (its persistent menu among its fields)
// only while the list item it was read with is unchanged: the updateDate
// (which every change of the room or its menu moves) and every other field the
// list carries (the review state, the agency linked, whether the menu is in
// use). The auto-replies' rule (src/kinds/auto-reply/cache.ts);
// docs/decisions.md, "Bidirectional rooms, what was left".

import type { ChatbotDetail, ChatbotListItem } from '../contract/wire.js';
import { stableStringify } from '../util/stable-json.js';
import { isListedVersion } from './cache-trust.js';
import type { CachePart, LiveCache } from './live-cache.js';
import type { DetailReader, ReadEnv } from './resource-kind.js';

/**
 * A room's detail with the list item it is valid for. The item is kept as an
 * object, not as its JSON text: a value of the run's secrets in it (a room's
 * name may be interpolated from one) is then a string of its own, which the
 * cache seals as every other (src/kinds/live-cache.ts); inside JSON text it
 * would be escaped past recognition. Each room kind keeps its own part
 * (`cachePart<RoomEntry>`), by chatbotId: a room may be on both lists, read by
 * different routes.
 */
export interface RoomEntry {
  listed: ChatbotListItem;
  detail: ChatbotDetail;
}

/** The cached detail, when it was read with exactly this list item and says it is that room at that updateDate. */
export function cachedRoom(cache: LiveCache, part: CachePart<RoomEntry>, brandId: string, item: ChatbotListItem): ChatbotDetail | undefined {
  const entry = cache.get(brandId, part, item.chatbotId);
  if (entry === undefined || typeof entry.listed !== 'object' || entry.listed === null) return undefined;
  if (stableStringify(entry.listed) !== stableStringify(item)) return undefined;
  return isListedVersion(entry.detail, entry.detail.chatbotId, item, item.chatbotId) ? entry.detail : undefined;
}

/** Keep a detail just read for the list item `item`. */
export function cacheRoom(cache: LiveCache, part: CachePart<RoomEntry>, brandId: string, item: ChatbotListItem, detail: ChatbotDetail): void {
  cache.set(brandId, part, item.chatbotId, { listed: item, detail });
}

/**
 * A room kind's `detail` and `section` reading through `part`: the detail from
 * the live cache while its list item is unchanged, else by `get` and kept; the
 * section forgets the rooms gone from the list, so the cache does not grow
 * forever.
 */
export function cachedRoomDetails(
  part: CachePart<RoomEntry>,
  get: (env: ReadEnv, chatbotId: string) => Promise<ChatbotDetail>,
): Required<Pick<DetailReader<ChatbotListItem, ChatbotDetail>, 'detail' | 'section'>> {
  return {
    detail: async (env, item) => {
      const cached = env.cache === undefined ? undefined : cachedRoom(env.cache, part, env.brand.id, item);
      // The list is fresh: its fields win over a cached detail (they are equal when the cache serves it).
      if (cached !== undefined) return { ...cached, ...item };
      const detail = await get(env, item.chatbotId);
      if (env.cache !== undefined) cacheRoom(env.cache, part, env.brand.id, item, detail);
      return detail;
    },
    section: (env, listed, details) => {
      if (env.cache !== undefined) env.cache.retain(env.brand.id, part, new Set(listed.map((r) => r.chatbotId)));
      return details;
    },
  };
}
