// POST /ag/1.2/message: every send check the service reference lists, in a
// fixed order, each failing with the agency body {code, message} (the rules of
// the room and of the messagebase's policy: send-rules.ts). An accepted
// message is handed to `accept`, which reports its delivery by msgstatus.

import type { ButtonGroup, Suggestion } from '../../contract/wire.js';
import { AGENCY_FILE, MAX_LENGTH } from '../../spec/limits.js';
import { MAAPFILE_PREFIX } from '../../spec/media.js';
import { kstMidnightAfter } from '../../util/time.js';
import { authenticate } from '../auth.js';
import type { Reply, RequestContext } from '../http-types.js';
import type { Route } from '../router.js';
import { fail, failAgency } from '../service-error.js';
import { checkSuggestion } from '../suggestions.js';
import type { EmulatorStore, StoredBrand, StoredChatbot } from '../store.js';
import { asObject, optionalBoolean, optionalEnum, optionalString, requiredString } from '../validate.js';
import { MAX_MESSAGES, REPLY_ID_TTL_MS, type Agency, type SentMessage } from './model.js';
import { messagebaseForSend, type UsableMessagebase } from './messagebase-use.js';
import { findRoom, isBidirectional } from './rooms.js';
import { checkAdvertising, checkSendingRoom } from './send-rules.js';

/** Message field lengths (the service reference, Limits: ids echoed in webhooks are at most 40). */
const MAX = { clientMsgId: 40, userContact: 40, agencyId: 20, agencyKey: 18, replyId: 40, groupId: 40 } as const;
/** expiryOption values: 1 day (default), 30 s, 180 s, 3600 s. */
export const EXPIRY_WINDOW_MS: Readonly<Record<number, number>> = { 1: 86_400_000, 2: 30_000, 3: 180_000, 4: 3_600_000 };
/** The reference's file-reference scheme for body media. */
export const MEDIA_SCHEME = 'mediafile://';
/** Accepted file references: the reference's scheme, and the one the public OpenAPI document shows. */
const FILE_SCHEMES = [MEDIA_SCHEME, MAAPFILE_PREFIX];
/** The three accepted video URL forms (iframeplayB): the whole value must match one. */
const VIDEO_URLS = [/^https:\/\/www\.youtube\.com\/watch\?v=[A-Za-z0-9_-]+$/, /^https:\/\/youtu\.be\/[A-Za-z0-9_-]+$/, /^https:\/\/m\.youtube\.com\/watch\?v=[A-Za-z0-9_-]+$/];
/** Body fields that must hold a logo id, and only they may. */
const LOGO_FIELD = /^(mTitleMedia|itemMedia)\d*$/;
/** Body fields that hold a send file (or, for media1..3, a video). */
const MEDIA_FIELD = /^(media|subMedia)\d*$/;
const VIDEO_FIELD = /^media[1-3]$/;

/** The send route; `accept` takes every message that passed the checks. */
export function sendRoutes(accept: (msg: SentMessage) => void): Route[] {
  return [{ method: 'POST', pattern: '/ag/1.2/message', handler: (ctx) => send(ctx, accept) }];
}

async function send(ctx: RequestContext, accept: (msg: SentMessage) => void): Promise<Reply> {
  authenticate(ctx);
  const o = asObject(await ctx.json(), 'body');
  const store = ctx.store;
  const clientMsgId = requiredString(o, 'clientMsgId', MAX.clientMsgId);
  const chatbotId = requiredString(o, 'chatbotId', MAX_LENGTH.chatbotId);
  const messagebaseId = requiredString(o, 'messagebaseId', MAX_LENGTH.messagebaseId);
  const userContact = requiredString(o, 'userContact', MAX.userContact);
  const agencyId = requiredString(o, 'agencyId', MAX.agencyId);
  const agencyKey = requiredString(o, 'agencyKey', MAX.agencyKey);
  const brandKey = requiredString(o, 'brandKey', MAX_LENGTH.brandKey);
  const productCode = optionalString(o, 'productCode');
  const header = optionalEnum(o, 'header', ['0', '1']) ?? '0';
  const footer = optionalString(o, 'footer');
  const expiryOption = optionalEnum(o, 'expiryOption', [1, 2, 3, 4]) ?? 1;
  const replyId = optionalString(o, 'replyId', MAX.replyId);
  optionalString(o, 'groupId', MAX.groupId);
  optionalBoolean(o, 'copyAllowed');
  if (o.body === undefined || o.body === null) fail('requiredValue', 'body');
  const body = asObject(o.body, 'body');
  const buttons = listOf<ButtonGroup>(o, 'buttons');
  const chipList = listOf<Suggestion>(o, 'chipList');
  checkSuggestions(buttons, chipList);

  const { agency, brand, room } = sender(store, agencyId, chatbotId);
  if (!keyMatches(agency, agencyKey, store.now())) failAgency('agencyKeyMismatch');
  if (brandKey !== brand.brandKey) failAgency('brandKeyMismatch');
  checkSendingRoom(room);
  const facts = messagebaseForSend(store, brand, messagebaseId);
  if (facts === undefined) failAgency('unknownMessagebase');
  const senders = store.messaging.messagebaseSenders.get(messagebaseId);
  if (senders !== undefined && !senders.has(chatbotId)) failAgency('restrictedMessagebase');
  if (productCode !== undefined && productCode !== facts.productCode) failAgency('productCodeMismatch');
  checkAdvertising(header, body, facts);
  if (header === '1' && (footer === undefined || footer.trim() === '')) failAgency('headerWithoutFooter');
  if (replyId !== undefined) checkReplyId(store, replyId, chatbotId, userContact);
  if (chipList.length > 0 && !isBidirectional(room)) failAgency('chipListOutsideBidirectional');
  if (replyId === undefined) refuseReplies(buttons, chipList);
  checkBody(store, brand, body);
  checkVariables(facts, body);

  const msg: SentMessage = { msgId: store.nextId('MSG'), clientMsgId, agencyId, chatbotId, userContact, replyId: replyId ?? null, expiryOption, sentAt: store.now(), buttons, chipList, status: 'pending' };
  remember(store, msg);
  accept(msg);
  return { status: 200, json: { status: '200', data: { msgId: msg.msgId, clientMsgId } } };
}

/** The agency, the room and its brand: 40002 unless the agency exists and may send from the room. */
function sender(store: EmulatorStore, agencyId: string, chatbotId: string): { agency: Agency; brand: StoredBrand; room: StoredChatbot } {
  const agency = store.messaging.agencies.get(agencyId);
  if (agency === undefined) failAgency('unknownAgency');
  const found = findRoom(store, chatbotId);
  if (found === undefined || !agency.brands.has(found.brand.brandId)) failAgency('noChatbotPermission');
  return { agency, ...found };
}

/** The current key, or the previous one during its 24 hours of grace. */
function keyMatches(agency: Agency, key: string, now: number): boolean {
  if (key === agency.agencyKey) return true;
  return agency.previousKey !== undefined && key === agency.previousKey.key && now < agency.previousKey.validUntil;
}

function checkReplyId(store: EmulatorStore, replyId: string, chatbotId: string, userContact: string): void {
  const grant = store.messaging.replies.get(replyId);
  if (grant === undefined || grant.chatbotId !== chatbotId || grant.userContact !== userContact) failAgency('invalidReplyId');
  if (store.now() >= grant.issuedAt + REPLY_ID_TTL_MS) failAgency('invalidReplyId');
}

/** A template's variables each have a value in the body (40020 names those left out). */
function checkVariables(base: UsableMessagebase, body: Record<string, unknown>): void {
  const missing = base.variables.filter((name) => body[name] === undefined || body[name] === null);
  if (missing.length > 0) failAgency('templateVariableMissing', missing.join(', '));
}

/** Every button and chip well formed: 64358 or 64359 naming the field, as for auto-replies. */
function checkSuggestions(buttons: ButtonGroup[], chipList: Suggestion[]): void {
  buttons.forEach((g, i) => {
    if (g.suggestions === undefined) return;
    if (!Array.isArray(g.suggestions)) fail('invalidButtonsFormat', `buttons[${i}].suggestions`);
    g.suggestions.forEach((s, j) => checkSuggestion(s, `buttons[${i}].suggestions[${j}]`, 'buttons'));
  });
  chipList.forEach((s, i) => checkSuggestion(s, `chipList[${i}]`, 'chipList'));
}

/** A2P messages may use actions only; replies belong to session messages. */
function refuseReplies(buttons: ButtonGroup[], chipList: Suggestion[]): void {
  chipList.forEach((s, i) => s?.reply !== undefined && failAgency('replyOutsideSession', `chipList[${i}]`));
  buttons.forEach((g, i) => (g?.suggestions ?? []).forEach((s, j) => s?.reply !== undefined && failAgency('replyOutsideSession', `buttons[${i}].suggestions[${j}]`)));
}

/** Body media: send files that are still sendable, videos, and logos only where logos go. */
function checkBody(store: EmulatorStore, brand: StoredBrand, body: Record<string, unknown>): void {
  for (const [field, raw] of Object.entries(body)) {
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string') fail('invalidType', `body.${field}`);
    if (raw === '') continue;
    if (LOGO_FIELD.test(field)) {
      const logo = brand.logos.get(stripScheme(raw));
      if (logo === undefined || logo.approvalResult !== '승인') failAgency('logoFileMixup', `body.${field}`);
    } else if (MEDIA_FIELD.test(field)) {
      if (raw.includes(',') || /^https?:/i.test(raw)) checkVideo(store, field, raw);
      else checkSendFile(store, field, raw);
    }
  }
}

function checkVideo(store: EmulatorStore, field: string, value: string): void {
  if (!VIDEO_FIELD.test(field)) failAgency('invalidVideo', `body.${field}`);
  const comma = value.indexOf(',');
  const url = comma < 0 ? value : value.slice(0, comma);
  const thumbnail = comma < 0 ? '' : value.slice(comma + 1);
  if (!VIDEO_URLS.some((re) => re.test(url))) failAgency('invalidVideo', `body.${field}`);
  const thumbnailId = fileReference(thumbnail);
  if (thumbnailId === undefined || sendableFile(store, thumbnailId) !== 'ok') failAgency('invalidVideo', `body.${field}`);
}

function checkSendFile(store: EmulatorStore, field: string, value: string): void {
  const fileId = fileReference(value);
  if (fileId === undefined) fail('invalidType', `body.${field}`);
  const state = sendableFile(store, fileId);
  if (state === 'logo') failAgency('logoFileMixup', `body.${field}`);
  if (state !== 'ok') failAgency('unknownFile', `body.${field}`);
}

/** A send file is usable until 00:00 of D+365 on the emulator's clock. */
function sendableFile(store: EmulatorStore, fileId: string): 'ok' | 'logo' | 'unknown' | 'expired' {
  const file = store.agencyFiles.get(fileId);
  if (file === undefined) {
    for (const b of store.brands.values()) if (b.logos.has(fileId)) return 'logo';
    return 'unknown';
  }
  if (!file.mimeType.startsWith('image/')) return 'unknown';
  return store.now() >= kstMidnightAfter(new Date(file.registeredAt), AGENCY_FILE.sendableDays).getTime() ? 'expired' : 'ok';
}

/** The fileId of a `mediafile://` or `maapfile://` reference, or undefined for anything else. */
function fileReference(value: string): string | undefined {
  const scheme = FILE_SCHEMES.find((s) => value.startsWith(s));
  return scheme === undefined ? undefined : value.slice(scheme.length);
}

/** A logo field may hold the bare logo id or a file reference to it. */
function stripScheme(value: string): string {
  return fileReference(value) ?? value;
}

function listOf<T>(o: Record<string, unknown>, field: string): T[] {
  const v = o[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail('invalidType', field);
  v.forEach((x, i) => asObject(x, `${field}[${i}]`));
  return v as T[];
}

function remember(store: EmulatorStore, msg: SentMessage): void {
  const messages = store.messaging.messages;
  messages.set(msg.msgId, msg);
  if (messages.size > MAX_MESSAGES) messages.delete(messages.keys().next().value as string);
}
