// Change notifications (notiType logo, autoreplymsg and brand) derived from the
// answers of successful management calls and review moves, so the routes that
// make the changes need not know about webhooks. The payload fields follow the
// public OpenAPI document's notification schemas (docs/decisions.md).

import type { Reply } from '../http-types.js';
import type { EmulatorStore } from '../store.js';

/** A notification for the agencies of one brand. */
export interface Notice {
  brandId: string;
  body: Record<string, unknown>;
}

const BRAND = '^/api/1\\.1/brand/([^/]+)';
const LOGO_LIST = new RegExp(`${BRAND}/logo$`);
const LOGO_ONE = new RegExp(`${BRAND}/logo/([^/]+)(/cancel)?$`);
const AUTO_REPLY_LIST = new RegExp(`${BRAND}/autoreplymsg$`);
const AUTO_REPLY_ONE = new RegExp(`${BRAND}/autoreplymsg/([^/]+)$`);
/** A running brand's modification, by a master or manager or by an agency. */
const BRAND_PAGE = /^\/api\/1\.1\/(?:corp|agency)\/[^/]+\/brand\/([^/]+)$/;
/** Logo states that a review move announces: approval as created, rejection as rejected. */
const ANNOUNCED: Readonly<Record<string, string>> = { 승인: 'created', 반려: 'rejected', '반려(수정)': 'rejected' };

/** The notifications a successful call announces (none for reads and failures). */
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
  if (method === 'PUT' && (m = BRAND_PAGE.exec(path)) !== null) return [brand(m[1], 'modified')];
  if (path === '/_emulator/review' || path === '/_emulator/state') return reviewNotice(store, reply);
  return [];
}

function reviewNotice(store: EmulatorStore, reply: Reply): Notice[] {
  const r = reply.json as { kind?: string; id?: string; approvalResult?: string } | undefined;
  if (typeof r?.id !== 'string' || r.approvalResult === undefined) return [];
  const method = ANNOUNCED[r.approvalResult];
  if (method === undefined) return [];
  if (r.kind === 'brand') {
    // NotiBrand knows rejected and modified: an approval is announced as a modification.
    const page = store.brands.get(r.id)?.page;
    if (page === undefined) return [];
    return [{ brandId: r.id, body: { notiType: 'brand', brandId: r.id, method: method === 'rejected' ? 'rejected' : 'modified', ...(method === 'rejected' ? { reason: page.approvalReason ?? '' } : {}) } }];
  }
  if (r.kind !== 'logo') return [];
  for (const brand of store.brands.values()) {
    const l = brand.logos.get(r.id);
    if (l === undefined) continue;
    return [{ brandId: brand.brandId, body: { notiType: 'logo', brandId: brand.brandId, fileId: r.id, method, ...(method === 'rejected' ? { reason: l.approvalReason ?? '' } : {}) } }];
  }
  return [];
}

function firstResult(reply: Reply): Record<string, unknown> {
  const result = (reply.json as { result?: unknown[] } | undefined)?.result;
  const first = Array.isArray(result) ? result[0] : undefined;
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
}

function logo(brandId: string | undefined, fileId: string | undefined, method: string): Notice {
  const id = decode(brandId);
  return { brandId: id, body: { notiType: 'logo', brandId: id, fileId: decode(fileId), method } };
}

function autoReply(brandId: string | undefined, autoReplyMsgId: string | undefined, method: string): Notice {
  const id = decode(brandId);
  return { brandId: id, body: { notiType: 'autoreplymsg', brandId: id, autoReplyMsgId: decode(autoReplyMsgId), method } };
}

function brand(brandId: string | undefined, method: string): Notice {
  const id = decode(brandId);
  return { brandId: id, body: { notiType: 'brand', brandId: id, method } };
}

function decode(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}
