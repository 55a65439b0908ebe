// The service's change notifications as the webhook receives them: a JSON
// array of objects (the service reference) or one bare object (the public
// OpenAPI document's example), each with a notiType and, for the brand's own
// resources, its brandId. A notification is only a hint: it names the brand
// to look at again, never what to do (docs/decisions.md, "The controller").

/** One notification, reduced to what the controller uses. */
export interface Notification {
  notiType: string;
  /** created, modified, rejected, deleted (absent: `unknown` in the metrics). */
  method: string;
  /** The brand it concerns; absent for messagebaseform, format and agencykey, which concern no one brand. */
  brandId?: string;
}

/** The most notifications one body may carry. */
export const MAX_NOTIFICATIONS_PER_BODY = 1000;

const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const WORD = /^[A-Za-z]{1,32}$/;

/** The notifications of a parsed body, or the reason it is malformed. */
export function parseNotifications(body: unknown): { notifications: Notification[] } | { error: string } {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) return { error: 'an empty array' };
  if (items.length > MAX_NOTIFICATIONS_PER_BODY) return { error: `more than ${MAX_NOTIFICATIONS_PER_BODY} notifications in one body` };
  const out: Notification[] = [];
  for (const [i, item] of items.entries()) {
    const at = Array.isArray(body) ? `item ${i}: ` : '';
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { error: `${at}not an object` };
    const o = item as Record<string, unknown>;
    if (typeof o.notiType !== 'string' || !WORD.test(o.notiType)) return { error: `${at}notiType is missing or not a word` };
    if (o.method !== undefined && o.method !== null && (typeof o.method !== 'string' || !WORD.test(o.method))) return { error: `${at}method is not a word` };
    if (o.brandId !== undefined && o.brandId !== null && (typeof o.brandId !== 'string' || !ID.test(o.brandId))) return { error: `${at}brandId is not a brand id` };
    const n: Notification = { notiType: o.notiType.toLowerCase(), method: typeof o.method === 'string' ? o.method.toLowerCase() : 'unknown' };
    if (typeof o.brandId === 'string') n.brandId = o.brandId;
    out.push(n);
  }
  return { notifications: out };
}
