// Change notifications, posted to every agency of the brand once the request that
// made the change has succeeded (messaging/index.ts, observe). Two ways in:
// - a route handler that changes state calls announce() (chatbot, template, brand
//   page; the way for any new kind, since only the handler still sees what it deleted),
//   and so does the admin API for the review moves a route module brings
//   (src/emulator/module.ts; the brand page's);
// - logo and autoreplymsg changes, and the admin API's review moves of logos,
//   rooms and templates, are derived here from the answer (noticesFor).
// The payload fields follow the public OpenAPI document's Noti* schemas
// (docs/decisions.md, "Notifications").

import type { Notice, Reply, RequestContext } from '../http-types.js';
import type { EmulatorStore, StoredBrand } from '../store.js';

export type { Notice } from '../http-types.js';

/** The methods of every Noti* schema: created is a registration or an approval. */
export type NotiMethod = 'created' | 'modified' | 'rejected' | 'deleted';

/**
 * A notification: `{notiType, brandId, ...ids, method}`, and the reason when
 * rejected. `ids` name the object (fileId, chatbotId, messagebaseId, …).
 */
export function notice(notiType: string, brandId: string, ids: Record<string, string>, method: NotiMethod, reason?: string | null): Notice {
  return { brandId, body: { notiType, brandId, ...ids, method, ...(method === 'rejected' ? { reason: reason ?? '' } : {}) } };
}

/**
 * Announce changes from a route handler: each is posted to every agency of its
 * brand once the request has succeeded (nothing when it fails).
 */
export function announce(ctx: RequestContext, ...notices: Notice[]): void {
  ctx.notices.push(...notices);
}

/** A chatbot's notification (NotiChatbot). */
export function chatbotNotice(brandId: string, chatbotId: string, method: NotiMethod, reason?: string | null): Notice {
  return notice('chatbot', brandId, { chatbotId }, method, reason);
}

/** A template's notification (NotiTemplate): its messagebaseId and its form's messagebaseformId. */
export function templateNotice(brandId: string, t: { messagebaseId: string; messagebaseformId: string }, method: NotiMethod, reason?: string | null): Notice {
  return notice('template', brandId, { messagebaseId: t.messagebaseId, messagebaseformId: t.messagebaseformId }, method, reason);
}

const BRAND = '^/api/1\\.1/brand/([^/]+)';
const LOGO_LIST = new RegExp(`${BRAND}/logo$`);
const LOGO_ONE = new RegExp(`${BRAND}/logo/([^/]+)(/cancel)?$`);
const AUTO_REPLY_LIST = new RegExp(`${BRAND}/autoreplymsg$`);
const AUTO_REPLY_ONE = new RegExp(`${BRAND}/autoreplymsg/([^/]+)$`);
/** Review states announced: approval as created, rejection as rejected (logo, chatbot, template). */
const ANNOUNCED: Readonly<Record<string, NotiMethod>> = { 승인: 'created', 반려: 'rejected', '반려(수정)': 'rejected' };

/** The notifications derived from a successful call's answer (none for reads and failures). */
export function noticesFor(store: EmulatorStore, method: string, path: string, reply: Reply): Notice[] {
  if (reply.status !== 200 || method === 'GET') return [];
  const first = firstResult(reply);
  let m: RegExpExecArray | null;
  if (method === 'POST' && (m = LOGO_LIST.exec(path)) !== null && typeof first.fileId === 'string') return [logo(m[1], first.fileId, 'created')];
  if ((m = LOGO_ONE.exec(path)) !== null) {
    if (method === 'DELETE') return [logo(m[1], m[2], 'deleted')];
    if (method === 'PUT') return [logo(m[1], m[2], 'modified')];
  }
  if (method === 'POST' && (m = AUTO_REPLY_LIST.exec(path)) !== null && typeof first.autoReplyMsgId === 'string') return [autoReply(m[1], first.autoReplyMsgId, 'created')];
  if ((m = AUTO_REPLY_ONE.exec(path)) !== null && m[2] !== 'file') {
    if (method === 'DELETE') return [autoReply(m[1], m[2], 'deleted')];
    if (method === 'PUT') return [autoReply(m[1], m[2], 'modified')];
  }
  if (path === '/_emulator/review' || path === '/_emulator/state') return reviewNotice(store, reply);
  return [];
}

/** A review move or a forced state, on any kind that has a notification. */
function reviewNotice(store: EmulatorStore, reply: Reply): Notice[] {
  const r = reply.json as { kind?: string; id?: string; approvalResult?: string } | undefined;
  if (typeof r?.id !== 'string' || typeof r.kind !== 'string' || r.approvalResult === undefined) return [];
  const method = ANNOUNCED[r.approvalResult];
  if (method === undefined) return [];
  for (const brand of store.brands.values()) {
    const found = reviewed(brand, r.kind, r.id, method);
    if (found !== undefined) return [found];
  }
  return [];
}

function reviewed(brand: StoredBrand, kind: string, id: string, method: NotiMethod): Notice | undefined {
  if (kind === 'logo') {
    const l = brand.logos.get(id);
    return l && notice('logo', brand.brandId, { fileId: id }, method, l.approvalReason);
  }
  if (kind === 'chatbot') {
    const c = brand.chatbots.get(id);
    return c && chatbotNotice(brand.brandId, id, method, c.approvalReason);
  }
  if (kind === 'template') {
    const t = brand.templates.get(id);
    return t && templateNotice(brand.brandId, t, method, t.approvalReason);
  }
  return undefined;
}

function firstResult(reply: Reply): Record<string, unknown> {
  const result = (reply.json as { result?: unknown[] } | undefined)?.result;
  const first = Array.isArray(result) ? result[0] : undefined;
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
}

function logo(brandId: string | undefined, fileId: string | undefined, method: NotiMethod): Notice {
  return notice('logo', decode(brandId), { fileId: decode(fileId) }, method);
}

function autoReply(brandId: string | undefined, autoReplyMsgId: string | undefined, method: NotiMethod): Notice {
  return notice('autoreplymsg', decode(brandId), { autoReplyMsgId: decode(autoReplyMsgId) }, method);
}

function decode(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}
