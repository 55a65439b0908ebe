// Admin routes under /_emulator/messaging: point webhooks at a relay, script
// handsets, play users, reissue an agency key, tune the outbox, and read what
// was sent and delivered. Documented in docs/emulator.md, "Testing your relay".

import { formatServiceTime } from '../../util/time.js';
import { adminBody } from '../admin.js';
import type { Handler, Reply } from '../http-types.js';
import type { Route } from '../router.js';
import { failEmulator } from '../service-error.js';
import type { EmulatorStore } from '../store.js';
import type { PlayedEvent } from './events.js';
import { PREVIOUS_KEY_TTL_MS, handsetProblem, loopbackUrlProblem, type Agency, type Handset } from './model.js';
import type { Outbox, OutboxSettings } from './outbox.js';
import { findRoom } from './rooms.js';

/** Sent messages listed by GET /_emulator/messaging (the newest). */
const LISTED_MESSAGES = 1000;
/** Longest outbox interval, delay or timeout the admin API accepts (ms). */
const MAX_SETTING_MS = 600_000;

/**
 * What the admin routes drive of the messaging side (the Messaging class of
 * index.ts): declared here so this module need not import the one that
 * imports it.
 */
export interface MessagingControls {
  readonly outbox: Outbox;
  sweep(): void;
  playUser(body: Record<string, unknown>): PlayedEvent;
  notify(agency: Agency, body: Record<string, unknown>): void;
}

/** The messaging admin routes. */
export function messagingAdminRoutes(messaging: MessagingControls, store: EmulatorStore): Route[] {
  const r = (method: string, path: string, handler: Handler): Route => ({ method, pattern: `/_emulator/messaging${path}`, handler });
  return [
    r('GET', '', () => json(dump(messaging, store))),
    r('POST', '/options', async (ctx) => {
      messaging.outbox.configure(outboxChange(await adminBody(ctx)));
      return json(messaging.outbox.settings);
    }),
    r('POST', '/webhook', async (ctx) => {
      const body = await adminBody(ctx);
      const agency = store.messaging.agencies.get(String(body.agencyId));
      if (agency === undefined) failEmulator('adminNotFound', `agency ${String(body.agencyId)}`);
      agency.webhookUrl = webhookUrl(body.url, 'url');
      return json({ agencyId: agency.agencyId, webhookUrl: agency.webhookUrl });
    }),
    r('POST', '/room', async (ctx) => {
      const body = await adminBody(ctx);
      const chatbotId = String(body.chatbotId);
      if (findRoom(store, chatbotId) === undefined) failEmulator('adminNotFound', `room ${chatbotId}`);
      const url = webhookUrl(body.moMsgWebhookUrl, 'moMsgWebhookUrl');
      if (url === null) store.messaging.moWebhooks.delete(chatbotId);
      else store.messaging.moWebhooks.set(chatbotId, url);
      return json({ chatbotId, moMsgWebhookUrl: url });
    }),
    r('POST', '/handset', async (ctx) => {
      const body = await adminBody(ctx);
      const problem = handsetProblem(body);
      if (problem !== undefined) failEmulator('badAdminRequest', `${problem.field} ${problem.why}`);
      const handset = body as unknown as Handset;
      const stored: Handset = { userContact: handset.userContact, outcome: handset.outcome };
      for (const k of ['code', 'message', 'carrier'] as const) if (handset[k] !== undefined) stored[k] = handset[k];
      store.messaging.handsets.set(stored.userContact, stored);
      if (store.messaging.held.size > 0) messaging.sweep();
      return json(stored);
    }),
    r('DELETE', '/handsets', () => {
      store.messaging.handsets.clear();
      if (store.messaging.held.size > 0) messaging.sweep();
      return json({ handsets: [] });
    }),
    r('POST', '/user', async (ctx) => {
      const played = messaging.playUser(await adminBody(ctx));
      return json({ replyId: played.item.replyId, url: played.url, item: played.item });
    }),
    r('POST', '/agency-key', async (ctx) => {
      const body = await adminBody(ctx);
      const agency = store.messaging.agencies.get(String(body.agencyId));
      if (agency === undefined) failEmulator('adminNotFound', `agency ${String(body.agencyId)}`);
      const key = body.agencyKey ?? `AK.${String(store.next('AK')).padStart(15, '0')}`;
      if (typeof key !== 'string' || key === '' || key.length > 18) failEmulator('badAdminRequest', 'agencyKey must be a string of 1 to 18 characters');
      const now = store.now();
      agency.previousKey = { key: agency.agencyKey, validUntil: now + PREVIOUS_KEY_TTL_MS };
      agency.agencyKey = key;
      const date = formatServiceTime(new Date(now));
      messaging.notify(agency, { notiType: 'agencyKey', agencyKey: key, method: 'created', date, userName: 'emulator' });
      return json({ agencyId: agency.agencyId, agencyKey: key, previousKeyValidUntil: formatServiceTime(new Date(agency.previousKey.validUntil)) });
    }),
  ];
}

function json(body: unknown): Reply {
  return { status: 200, json: body };
}

/** A loopback webhook URL, or null to remove it. */
function webhookUrl(v: unknown, field: string): string | null {
  if (v === null) return null;
  if (typeof v !== 'string') failEmulator('badAdminRequest', `${field} must be a URL or null`);
  const problem = loopbackUrlProblem(v);
  if (problem !== undefined) failEmulator('badAdminRequest', `${field} ${problem}`);
  return v;
}

function outboxChange(body: Record<string, unknown>): Partial<OutboxSettings> {
  const change: Partial<OutboxSettings> = {};
  const ms = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_SETTING_MS) failEmulator('badAdminRequest', `${field} must be an integer from 0 to ${MAX_SETTING_MS}`);
    return v;
  };
  if (body.batchIntervalMs !== undefined) change.batchIntervalMs = ms(body.batchIntervalMs, 'batchIntervalMs');
  if (body.timeoutMs !== undefined) change.timeoutMs = ms(body.timeoutMs, 'timeoutMs');
  if (body.retryDelaysMs !== undefined) {
    if (!Array.isArray(body.retryDelaysMs) || body.retryDelaysMs.length > 10) failEmulator('badAdminRequest', 'retryDelaysMs must be a list of at most 10 delays');
    change.retryDelaysMs = body.retryDelaysMs.map((d, i) => ms(d, `retryDelaysMs[${i}]`));
  }
  if (body.paused !== undefined) {
    if (typeof body.paused !== 'boolean') failEmulator('badAdminRequest', 'paused must be a boolean');
    change.paused = body.paused;
  }
  return change;
}

/** GET /_emulator/messaging: agencies (keys left out), rooms' webhooks, handsets, messages, replyIds and delivery attempts. */
function dump(messaging: MessagingControls, store: EmulatorStore): unknown {
  const data = store.messaging;
  const time = (ms: number) => formatServiceTime(new Date(ms));
  return {
    settings: messaging.outbox.settings,
    pending: messaging.outbox.pending(),
    agencies: [...data.agencies.values()].map((a) => ({ agencyId: a.agencyId, webhookUrl: a.webhookUrl, brands: [...a.brands] })),
    rooms: [...data.moWebhooks].map(([chatbotId, moMsgWebhookUrl]) => ({ chatbotId, moMsgWebhookUrl })),
    messagebaseSenders: Object.fromEntries([...data.messagebaseSenders].map(([id, s]) => [id, [...s]])),
    handsets: [...data.handsets.values()],
    messages: [...data.messages.values()].slice(-LISTED_MESSAGES).map((m) => ({ msgId: m.msgId, clientMsgId: m.clientMsgId, agencyId: m.agencyId, chatbotId: m.chatbotId, userContact: m.userContact, replyId: m.replyId, expiryOption: m.expiryOption, sentAt: time(m.sentAt), status: m.status })),
    replies: [...data.replies.values()].map((g) => ({ ...g, issuedAt: time(g.issuedAt) })),
    deliveries: messaging.outbox.log,
  };
}
