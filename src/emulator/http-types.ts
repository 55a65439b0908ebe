// What a route handler receives and returns. Handlers return a Reply instead of
// writing, so the server can add latency or drop the connection after the
// change is committed (fault kind drop-after-commit).

import type { IncomingHttpHeaders } from 'node:http';
import { NO_CONTENT_CODE, SUCCESS_CODE } from '../contract/codes.js';
import { PAGING } from '../spec/limits.js';
import type { MultipartBody } from './multipart.js';
import { fail } from './service-error.js';
import type { EmulatorStore, StoredAccount } from './store.js';

/** One request, as a handler sees it. */
export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** `http://HOST:PORT` of this emulator. */
  baseUrl: string;
  store: EmulatorStore;
  /** Whether the peer is on the loopback interface. */
  loopback: boolean;
  /** The raw body, capped (413 above the cap). */
  body(): Promise<Buffer>;
  /** The body as JSON: 64301 when empty, 64302 when malformed. */
  json(): Promise<unknown>;
  /** The body as multipart/form-data. */
  multipart(): Promise<MultipartBody>;
  /** The change notifications this request announces (messaging/notifications.ts, announce); posted only if it succeeds. */
  notices: Notice[];
}

/** A change notification for the agencies of one brand: its webhook body. */
export interface Notice {
  brandId: string;
  body: Record<string, unknown>;
}

/** A handler's answer: JSON, raw bytes, or nothing (204). */
export interface Reply {
  status: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A route handler. */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/**
 * An answer object with its unset (null) fields in the form the emulator's
 * behaviour names: kept as null, left out, or "". Under the default behaviour
 * (`document`) each answer takes the form its schema in the public document
 * allows: `documented`.
 */
export function withUnset<T extends Record<string, unknown>>(store: EmulatorStore, o: T, documented: 'null' | 'absent' = 'null'): T {
  const form = store.behaviour.unsetFields === 'document' ? documented : store.behaviour.unsetFields;
  if (form === 'null') return o;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v !== null) out[k] = v;
    else if (form === 'empty') out[k] = '';
  }
  return out as T;
}

/** The success envelope around `result`. */
export function ok(result: unknown[]): Reply {
  return { status: 200, json: { code: SUCCESS_CODE, status: 200, desc: null, result } };
}

/** A list answer with pagination and links, including the documented prev quirk. */
export function paged<T>(ctx: RequestContext, items: readonly T[], view: (item: T) => unknown = (x) => x): Reply {
  const offset = queryInt(ctx, 'offset', 0);
  const limit = queryInt(ctx, 'limit', PAGING.defaultLimit);
  if (limit < 1 || limit > PAGING.maxLimit) fail('invalidQuery', `limit:${ctx.query.get('limit') ?? ''}`);
  const total = items.length;
  if (total === 0 && ctx.store.noContentOnEmptyList) {
    return { status: 204, headers: { 'x-rcs-code': NO_CONTENT_CODE } };
  }
  const link = (o: number) => `${ctx.baseUrl}${ctx.path}?offset=${o}&limit=${limit}`;
  // the service reference: links.prev is null when offset is a positive value smaller than limit.
  const prev = offset === 0 || offset < limit ? null : link(offset - limit);
  const next = offset + limit < total ? link(offset + limit) : null;
  return {
    status: 200,
    json: {
      code: SUCCESS_CODE,
      status: 200,
      desc: null,
      result: items.slice(offset, offset + limit).map(view),
      pagination: { total, offset, limit },
      links: { prev, next },
    },
  };
}

function queryInt(ctx: RequestContext, name: string, dflt: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return dflt;
  if (!/^\d{1,9}$/.test(raw)) fail('invalidQuery', `${name}:${raw}`);
  return Number(raw);
}
