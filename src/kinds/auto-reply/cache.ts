// What the live cache keeps of auto-replies, and when it serves it: a detail
// only while the list item it was read with is unchanged, the updateDate
// (which every write moves) and every other field the list carries (the review
// state among them). An auto-reply apply created and verification vouched for
// from the list is kept as the create sent it, under the same rule.

import type { AutoReplyDetail, AutoReplyListItem, AutoReplyRequest } from '../../contract/wire.js';
import { stableStringify } from '../../util/stable-json.js';
import { cachePart, type LiveCache } from '../live-cache.js';

/**
 * Auto-reply details by autoReplyMsgId, each with the list fields it is valid
 * for. They are kept as an object, not as their JSON text: a secret of the run
 * in them (a name interpolated from a sensitive variable) is then a string of
 * its own, which the cache seals as every other (src/kinds/live-cache.ts);
 * inside JSON text its quotes and backslashes would be escaped past the
 * sealing. An entry an older rcsctl wrote (the text) is a miss, read again.
 */
const DETAILS = cachePart<{ listed: Partial<AutoReplyListItem>; detail: AutoReplyDetail }>('autoReplies');

/** The list fields of an auto-reply detail (the detail carries every field the list does). */
const LIST_FIELDS = ['brandId', 'autoReplyMsgId', 'autoReplyMsgName', 'messagebaseId', 'approvalResult', 'registerDate', 'updateDate', 'registerId', 'updateId'] as const;

/** LIST_FIELDS in the order stableStringify writes them (sorted). */
const SORTED_LIST_FIELDS = [...LIST_FIELDS].sort();

/**
 * What a cached auto-reply detail is valid for: the list item's fields, in a
 * stable form (stableStringify's, which the cache files hold). Built in sorted
 * order directly when every field is a string or null, as the list gives them;
 * stableStringify's copy and sort otherwise.
 */
export function listKey(item: Partial<AutoReplyListItem>): string {
  const out: Record<string, unknown> = {};
  let flat = true;
  for (const f of SORTED_LIST_FIELDS) {
    const v = item[f] ?? null;
    if (v !== null && typeof v !== 'string') flat = false;
    out[f] = v;
  }
  return flat ? JSON.stringify(out) : stableStringify(out);
}

/** The cached detail, when it was read with exactly this list item. */
export function cachedDetail(cache: LiveCache, brandId: string, item: AutoReplyListItem): AutoReplyDetail | undefined {
  const entry = cache.get(brandId, DETAILS, item.autoReplyMsgId);
  return entry !== undefined && typeof entry.listed === 'object' && entry.listed !== null && listKey(entry.listed) === listKey(item) ? entry.detail : undefined;
}

/** The list fields of an item or a detail, as the entry keeps them. */
function listFields(item: Partial<AutoReplyListItem>): Partial<AutoReplyListItem> {
  const out: Record<string, unknown> = {};
  for (const f of LIST_FIELDS) out[f] = item[f] ?? null;
  return out as Partial<AutoReplyListItem>;
}

/** Keep a freshly read detail. */
export function cacheDetail(cache: LiveCache, brandId: string, detail: AutoReplyDetail): void {
  cache.set(brandId, DETAILS, detail.autoReplyMsgId, { listed: listFields(detail), detail });
}

/**
 * Keep an auto-reply this run created, without reading it: what the create
 * sent, with the fields of the list item that vouched for it (the create's
 * own: its updateDate is its registerDate, and no one else wrote to it). Like
 * every entry it is served only while that list item is unchanged, so any
 * later write, by anyone, makes the next run read it.
 */
export function cacheCreated(cache: LiveCache, brandId: string, item: AutoReplyListItem, sent: AutoReplyRequest): void {
  // copyAllowed left out of a create is stored as true (as plan compares it).
  // What neither a create nor a list tells (status, aprvRet, the message
  // type, cardCount) stays absent, as an answer may leave it (the client
  // checks those fields as optional); planning reads none of them.
  const detail = { ...sent, copyAllowed: sent.copyAllowed ?? true, ...item } as AutoReplyDetail;
  cache.set(brandId, DETAILS, item.autoReplyMsgId, { listed: listFields(item), detail });
}

/** Forget the details of auto-replies not in `keep` (deleted on the service). */
export function retainDetails(cache: LiveCache, brandId: string, keep: Set<string>): void {
  cache.retain(brandId, DETAILS, keep);
}
