// User-originated events played through the admin API: newUser, message (text,
// file, location) and response (a room-menu reply, or a reply chip or button of
// a sent message). Each event gets a fresh replyId, valid 24 hours on the
// emulator's clock. Shapes: the service reference, User-originated event item.

import type { PersistentMenuItem, Suggestion } from '../../contract/wire.js';
import { formatServiceTime } from '../../util/time.js';
import { recordPress, serviceDay } from '../routes/stats.js';
import { failEmulator } from '../service-error.js';
import type { EmulatorStore, StoredBrand, StoredChatbot } from '../store.js';
import { DEFAULT_CARRIER, joinUrl, type SentMessage } from './model.js';
import { findRoom, isBidirectional } from './rooms.js';
import { ON_BRAND_HOME } from './send-rules.js';

/** The fixed greeting of a newUser event (*chosen*: the reference only says "a fixed greeting"). */
export const NEW_USER_GREETING = '대화방에 입장하였습니다';

/** One user-originated event item. */
export interface UserEventItem {
  replyId: string;
  eventType: 'newUser' | 'message' | 'response';
  postbackId?: string;
  postbackData?: string;
  displayText?: string;
  messageBody?: Record<string, unknown>;
  userContact: string;
  chatbotId: string;
  timestamp: string;
}

/** A played event: the item, where it goes, and the menu item whose auto-reply the platform sends. */
export interface PlayedEvent {
  item: UserEventItem;
  url: string;
  brand: StoredBrand;
  room: StoredChatbot;
  menuItem?: PersistentMenuItem;
}

/** Build the event an admin body describes (60400 for a bad body, 60404 unknown objects, 60409 a room that cannot take it: one-way, not shown on the brand home, without a webhook). */
export function playEvent(store: EmulatorStore, body: Record<string, unknown>): PlayedEvent {
  const eventType = body.eventType;
  if (eventType !== 'newUser' && eventType !== 'message' && eventType !== 'response') failEmulator('badAdminRequest', 'eventType must be one of newUser, message, response');
  const sent = eventType === 'response' ? sentMessage(store, body) : undefined;
  const chatbotId = sent?.chatbotId ?? text(body, 'chatbotId');
  const userContact = sent?.userContact ?? text(body, 'userContact');
  const found = findRoom(store, chatbotId);
  if (found === undefined) failEmulator('adminNotFound', `room ${chatbotId}`);
  const { brand, room } = found;
  const moUrl = store.messaging.moWebhooks.get(chatbotId);
  if (!isBidirectional(room)) failEmulator('invalidTransition', `room ${chatbotId} is not bidirectional`);
  // The reference: a room not shown on the brand home cannot receive RCS messages, a handset's included.
  if (!ON_BRAND_HOME.includes(room.display)) failEmulator('invalidTransition', `room ${chatbotId} is not shown on the brand home (display ${room.display}) and cannot receive RCS messages`);
  if (moUrl === undefined) failEmulator('invalidTransition', `room ${chatbotId} has no moMsgWebhookUrl (seed messaging.rooms or POST /_emulator/messaging/room)`);

  const now = store.now();
  const item: UserEventItem = { replyId: '', eventType, userContact, chatbotId, timestamp: formatServiceTime(new Date(now)) };
  let menuItem: PersistentMenuItem | undefined;
  if (eventType === 'newUser') item.displayText = NEW_USER_GREETING;
  else if (eventType === 'message') item.messageBody = messageBody(body, now);
  else if (sent !== undefined) {
    const reply = replySuggestion(sent, text(body, 'displayText'));
    item.postbackData = reply.postback?.data ?? '';
    item.displayText = reply.displayText ?? '';
  } else {
    menuItem = menuReply(room, body);
    item.postbackId = menuItem.postbackId as string;
    item.displayText = menuItem.title;
    // A menu press is counted in the brand's statistics (GET /statQuery/persistentMenu).
    recordPress(brand, room, menuItem, serviceDay(now));
  }
  const replyId = (item.replyId = store.nextId('RPL'));
  store.messaging.replies.set(replyId, { replyId, chatbotId, userContact, issuedAt: now, billed: 0 });
  const carrier = store.messaging.handsets.get(userContact)?.carrier ?? DEFAULT_CARRIER;
  return { item, url: joinUrl(moUrl, carrier), brand, room, ...(menuItem?.autoReplyMsgId !== undefined ? { menuItem } : {}) };
}

function text(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== 'string' || v === '') failEmulator('badAdminRequest', `${field} is required (a string)`);
  return v;
}

/** message: exactly one of text, file or location. */
function messageBody(body: Record<string, unknown>, now: number): Record<string, unknown> {
  const given = ['text', 'file', 'location'].filter((k) => body[k] !== undefined);
  if (given.length !== 1) failEmulator('badAdminRequest', 'a message event takes exactly one of text, file, location');
  if (body.text !== undefined) return { textMessage: text(body, 'text') };
  if (body.file !== undefined) {
    const f = object(body.file, 'file');
    return { fileMessage: { fileUrl: text(f, 'fileUrl'), fileMIMEType: text(f, 'fileMIMEType') } };
  }
  const l = object(body.location, 'location');
  const pos = text(l, 'pos');
  if (!/^-?\d+(\.\d+)? -?\d+(\.\d+)?$/.test(pos)) failEmulator('badAdminRequest', 'location.pos must be two coordinates separated by a space');
  const num = (k: string, dflt: number): number => {
    if (l[k] === undefined) return dflt;
    if (typeof l[k] !== 'number' || !Number.isFinite(l[k])) failEmulator('badAdminRequest', `location.${k} must be a number`);
    return l[k] as number;
  };
  const label = l.label === undefined ? '' : typeof l.label === 'string' ? l.label : failEmulator('badAdminRequest', 'location.label must be a string');
  return { geolocationPushMessage: { label, timestamp: formatServiceTime(new Date(now)), timeOffset: num('timeOffset', 540), pos, radius: num('radius', 0) } };
}

function object(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) failEmulator('badAdminRequest', `${field} must be an object`);
  return v as Record<string, unknown>;
}

/** A response to a message's chip or button: the message named by msgId or clientMsgId. */
function sentMessage(store: EmulatorStore, body: Record<string, unknown>): SentMessage | undefined {
  if (body.msgId === undefined && body.clientMsgId === undefined) return undefined;
  const messages = [...store.messaging.messages.values()];
  const found = body.msgId !== undefined ? store.messaging.messages.get(String(body.msgId)) : messages.reverse().find((m) => m.clientMsgId === body.clientMsgId);
  if (found === undefined) failEmulator('adminNotFound', `message ${String(body.msgId ?? body.clientMsgId)}`);
  if (found.status !== 'success') failEmulator('invalidTransition', `message ${found.msgId} was not delivered`);
  return found;
}

/** The reply chip or button of a sent message with this displayText. */
function replySuggestion(msg: SentMessage, displayText: string): NonNullable<Suggestion['reply']> {
  const all: Suggestion[] = [...msg.chipList, ...msg.buttons.flatMap((g) => g?.suggestions ?? [])];
  const reply = all.map((s) => s?.reply).find((r) => r?.displayText === displayText);
  if (reply === undefined) failEmulator('adminNotFound', `reply "${displayText}" in message ${msg.msgId}`);
  return reply;
}

/** The room-menu reply named by postbackId or by title. */
function menuReply(room: StoredChatbot, body: Record<string, unknown>): PersistentMenuItem {
  if (room.menu === null) failEmulator('invalidTransition', `room ${room.chatbotId} has no menu`);
  if (room.menuPaused) failEmulator('invalidTransition', `the menu of room ${room.chatbotId} is paused`);
  const item = room.menu.find((m) => (body.postbackId !== undefined ? m.postbackId === body.postbackId : m.title === body.title));
  if (item === undefined) failEmulator('adminNotFound', `menu item ${String(body.postbackId ?? body.title)} (give postbackId or title, or msgId/clientMsgId and displayText)`);
  if (item.type !== 'reply') failEmulator('invalidTransition', `menu item ${item.title} is a ${item.type}, not a reply`);
  return item;
}
