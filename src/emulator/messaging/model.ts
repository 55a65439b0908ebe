// The state of the agency messaging interface: agencies and their webhooks,
// rooms' user-event webhooks, scripted handsets, sent messages and replyIds.
// It lives in the store (so /_emulator/reset restores it from the seed); the
// delivery machinery that posts to webhooks lives in outbox.ts.

import type { ButtonGroup, Suggestion } from '../../contract/wire.js';
import { RcsctlError } from '../../errors.js';

/** An agency that sends messages and hosts webhooks. */
export interface Agency {
  agencyId: string;
  agencyKey: string;
  /** A reissued key stays valid until this epoch ms (the service keeps the old one for 24 hours). */
  previousKey?: { key: string; validUntil: number };
  /** Base URL of the agency's webhooks: msgstatus goes to `<url>/msgstatus`, notifications to `<url>`. */
  webhookUrl: string | null;
  /** Brands whose rooms the agency may send from (and whose changes it is notified of). */
  brands: Set<string>;
}

/** What happens to a message sent to one handset. */
export type HandsetOutcome = 'success' | 'fail' | 'offline';

/** A scripted handset. Handsets without a script receive every message. */
export interface Handset {
  userContact: string;
  outcome: HandsetOutcome;
  /** The msgstatus error of a `fail` (default 40000) or of an `offline` message revoked at expiry. */
  code?: string;
  message?: string;
  /** The `{carrier_segment}` its user events are posted under (default `carrier1`). */
  carrier?: string;
}

/** A message accepted by POST /ag/1.2/message. */
export interface SentMessage {
  msgId: string;
  clientMsgId: string;
  agencyId: string;
  chatbotId: string;
  userContact: string;
  /** Set for a session message. */
  replyId: string | null;
  expiryOption: number;
  /** Emulator clock at acceptance (epoch ms). */
  sentAt: number;
  buttons: ButtonGroup[];
  chipList: Suggestion[];
  /** pending until delivered, failed or revoked. */
  status: 'pending' | 'success' | 'fail';
}

/** A replyId handed out with a user event. */
export interface ReplyGrant {
  replyId: string;
  chatbotId: string;
  userContact: string;
  issuedAt: number;
  /** Session messages billed under this replyId so far. */
  billed: number;
}

/** The messaging part of the store. */
export interface MessagingData {
  agencies: Map<string, Agency>;
  /** moMsgWebhookUrl per room (chatbotId). */
  moWebhooks: Map<string, string>;
  /** messagebaseId → the only sender numbers (chatbotIds) that may use it. */
  messagebaseSenders: Map<string, Set<string>>;
  handsets: Map<string, Handset>;
  messages: Map<string, SentMessage>;
  /** msgIds of messages held for an offline handset. */
  held: Set<string>;
  replies: Map<string, ReplyGrant>;
}

/** Sent messages kept for chip replies and the admin dump (oldest dropped first). */
export const MAX_MESSAGES = 10_000;
/** replyId lifetime (the service reference: valid 24 hours). */
export const REPLY_ID_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a reissued agency key keeps working beside the new one. */
export const PREVIOUS_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** The carrier segment of a handset that names none (*chosen*). */
export const DEFAULT_CARRIER = 'carrier1';

/** The `messaging:` section of a seed. */
export interface SeedMessaging {
  agencies?: { agencyId: string; agencyKey: string; webhookUrl?: string; brands?: string[] }[];
  rooms?: { chatbotId: string; moMsgWebhookUrl: string }[];
  messagebaseSenders?: Record<string, string[]>;
  handsets?: Handset[];
}

/** An empty messaging state. */
export function emptyMessaging(): MessagingData {
  return { agencies: new Map(), moWebhooks: new Map(), messagebaseSenders: new Map(), handsets: new Map(), messages: new Map(), held: new Set(), replies: new Map() };
}

/** The messaging state a seed describes (already checked by checkSeedMessaging). */
export function messagingFromSeed(seed: SeedMessaging | undefined): MessagingData {
  const data = emptyMessaging();
  for (const a of seed?.agencies ?? []) {
    data.agencies.set(a.agencyId, { agencyId: a.agencyId, agencyKey: a.agencyKey, webhookUrl: a.webhookUrl ?? null, brands: new Set(a.brands ?? []) });
  }
  for (const r of seed?.rooms ?? []) data.moWebhooks.set(r.chatbotId, r.moMsgWebhookUrl);
  for (const [id, senders] of Object.entries(seed?.messagebaseSenders ?? {})) data.messagebaseSenders.set(id, new Set(senders));
  for (const h of seed?.handsets ?? []) data.handsets.set(h.userContact, { ...h });
  return data;
}

/** Check the `messaging:` section of a seed; throws E_SEED naming the field. */
export function checkSeedMessaging(raw: unknown, source: string): void {
  if (raw === undefined) return;
  const bad = (path: string, why: string): never => {
    throw new RcsctlError('E_SEED', `${source}: messaging${path} ${why}`, { field: `messaging${path}` });
  };
  const obj = (v: unknown, path: string): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : bad(path, 'must be a mapping'));
  const list = (v: unknown, path: string): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : bad(path, 'must be a list'));
  const str = (o: Record<string, unknown>, key: string, path: string, required: boolean): void => {
    if (o[key] === undefined && !required) return;
    if (typeof o[key] !== 'string' || o[key] === '') bad(`${path}.${key}`, required ? 'is required (a string)' : 'must be a string');
  };
  const root = obj(raw, '');
  list(root.agencies, '.agencies').forEach((a, i) => {
    const p = `.agencies[${i}]`;
    const o = obj(a, p);
    str(o, 'agencyId', p, true);
    str(o, 'agencyKey', p, true);
    str(o, 'webhookUrl', p, false);
    if (typeof o.webhookUrl === 'string' && loopbackUrlProblem(o.webhookUrl) !== undefined) bad(`${p}.webhookUrl`, loopbackUrlProblem(o.webhookUrl) as string);
    list(o.brands, `${p}.brands`).forEach((b, j) => typeof b === 'string' || bad(`${p}.brands[${j}]`, 'must be a string'));
  });
  list(root.rooms, '.rooms').forEach((r, i) => {
    const p = `.rooms[${i}]`;
    const o = obj(r, p);
    str(o, 'chatbotId', p, true);
    str(o, 'moMsgWebhookUrl', p, true);
    const problem = loopbackUrlProblem(o.moMsgWebhookUrl as string);
    if (problem !== undefined) bad(`${p}.moMsgWebhookUrl`, problem);
  });
  if (root.messagebaseSenders !== undefined) {
    for (const [id, senders] of Object.entries(obj(root.messagebaseSenders, '.messagebaseSenders'))) {
      list(senders, `.messagebaseSenders.${id}`).forEach((s, j) => typeof s === 'string' || bad(`.messagebaseSenders.${id}[${j}]`, 'must be a string'));
    }
  }
  list(root.handsets, '.handsets').forEach((h, i) => {
    const p = `.handsets[${i}]`;
    const problem = handsetProblem(obj(h, p));
    if (problem !== undefined) bad(`${p}.${problem.field}`, problem.why);
  });
}

/** Why a handset script is malformed, or undefined (shared by the seed check and the admin API). */
export function handsetProblem(o: Record<string, unknown>): { field: string; why: string } | undefined {
  if (typeof o.userContact !== 'string' || o.userContact === '') return { field: 'userContact', why: 'is required (a string)' };
  if (!['success', 'fail', 'offline'].includes(o.outcome as string)) return { field: 'outcome', why: 'must be one of success, fail, offline' };
  for (const k of ['code', 'message']) if (o[k] !== undefined && typeof o[k] !== 'string') return { field: k, why: 'must be a string' };
  if (o.carrier !== undefined && (typeof o.carrier !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(o.carrier))) return { field: 'carrier', why: 'must be a URL path segment (letters, digits, _ and -)' };
  return undefined;
}

/**
 * Why a webhook URL is refused, or undefined: the emulator posts only to
 * http(s) URLs on the loopback interface, so it never reaches the network.
 */
export function loopbackUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http or https URL';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) return 'must be on the loopback interface (127.0.0.1, localhost or [::1])';
  return undefined;
}

/** Join a base URL and a path segment without doubling the slash. */
export function joinUrl(base: string, segment: string): string {
  return `${base.replace(/\/+$/, '')}/${segment}`;
}
