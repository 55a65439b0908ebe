// What the live cache keeps of bidirectional rooms, and when it serves it: a
// room's detail (its persistent menu among its fields) only while the list item
// it was read with is unchanged: the updateDate (which every change of the room
// or its menu moves) and every other field the list carries (the review state,
// the agency linked, whether the menu is in use). The auto-replies' rule
// (src/kinds/auto-reply/cache.ts); docs/decisions.md, "Bidirectional rooms".

import type { ChatbotDetail, ChatbotListItem } from '../../contract/wire.js';
import { stableStringify } from '../../util/stable-json.js';
import { isListedVersion } from '../cache-trust.js';
import { cachePart, type LiveCache } from '../live-cache.js';

/**
 * Room details by chatbotId, each with the list item it is valid for. The item
 * is kept as an object, not as its JSON text: a value of the run's secrets in
 * it (a room's name may be interpolated from one) is then a string of its own,
 * which the cache seals as every other (src/kinds/live-cache.ts); inside JSON
 * text it would be escaped past recognition.
 */
const DETAILS = cachePart<{ listed: ChatbotListItem; detail: ChatbotDetail }>('bidirectionalRooms');

/** The cached detail, when it was read with exactly this list item and says it is that room at that updateDate. */
export function cachedRoom(cache: LiveCache, brandId: string, item: ChatbotListItem): ChatbotDetail | undefined {
  const entry = cache.get(brandId, DETAILS, item.chatbotId);
  if (entry === undefined || stableStringify(entry.listed) !== stableStringify(item)) return undefined;
  return isListedVersion(entry.detail, entry.detail.chatbotId, item, item.chatbotId) ? entry.detail : undefined;
}

/** Keep a detail just read for the list item `item`. */
export function cacheRoom(cache: LiveCache, brandId: string, item: ChatbotListItem, detail: ChatbotDetail): void {
  cache.set(brandId, DETAILS, item.chatbotId, { listed: item, detail });
}

/** Forget the rooms not in `keep` (deleted, or no longer bidirectional). */
export function retainRooms(cache: LiveCache, brandId: string, keep: Set<string>): void {
  cache.retain(brandId, DETAILS, keep);
}
