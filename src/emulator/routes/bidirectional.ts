// Bidirectional rooms: the list and detail, registering a room with a
// bidirectional ID (service chat), converting a sender-number room by linking
// a bidirectional agency, changing and deleting them (the public OpenAPI
// document's bidirectional routes; docs/decisions.md, "Bidirectional rooms").
// Every change is announced as a chatbot notification (NotiChatbot).

import type { ErrorName } from '../../contract/codes.js';
import { ENUMS, MAX_LENGTH } from '../../spec/limits.js';
import { formatServiceTime } from '../../util/time.js';
import { authorizeBrand } from '../auth.js';
import { ok, paged, type RequestContext } from '../http-types.js';
import { announce, chatbotNotice } from '../messaging/notifications.js';
import { findRoom, isBidirectional } from '../messaging/rooms.js';
import type { Route } from '../router.js';
import { fail } from '../service-error.js';
import { CHATBOT_UPDATABLE, chatbotAfterUpdate } from '../state-machines.js';
import type { EmulatorStore, StoredAccount, StoredBrand, StoredChatbot } from '../store.js';
import { asObject, optionalEnum } from '../validate.js';
import { detail, findChatbot, roomAnswer } from './chatbots.js';

const BIDI = '/api/1.1/brand/:brandId/bidirectional/chatbot';

/** What a bidirectional ID becomes: lower case, `bot-` in front, at most 15 characters of letters, digits, `-` and `_`. */
const BIDI_ID = /^bot-[a-z0-9_-]{1,11}$/;
/** The prefix the service puts in front of a bidirectional ID that lacks it. */
const PREFIX = 'bot-';

/** The brand's bidirectional rooms that name `agencyId` as their agency (botAgencyId): a room with a bidirectional ID, or a converted sender-number room. */
export function roomsOfAgency(brand: StoredBrand, agencyId: string): string[] {
  return [...brand.chatbots.values()].filter((c) => c.botAgencyId === agencyId).map((c) => c.chatbotId);
}

/** The bidirectional routes. */
export function bidirectionalRoutes(): Route[] {
  return [
    { method: 'GET', pattern: BIDI, handler: list },
    { method: 'POST', pattern: BIDI, handler: register },
    { method: 'GET', pattern: `${BIDI}/:chatbotId`, handler: detail },
    { method: 'PUT', pattern: `${BIDI}/:chatbotId`, handler: modify },
    { method: 'DELETE', pattern: `${BIDI}/:chatbotId`, handler: remove },
  ];
}

function list(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const rooms = [...brand.chatbots.values()].filter(isBidirectional);
  return paged(ctx, rooms, (c) => roomAnswer(ctx.store, brand, c));
}

/** The `chatbot` object of a request body. */
async function chatbotOf(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = asObject(await ctx.json(), 'body');
  if (body.chatbot === undefined || body.chatbot === null) fail('requiredValue', 'chatbot');
  return asObject(body.chatbot, 'chatbot');
}

/** A string field: `missing` when required and absent, 64303 when not a string, 64304 when over `max`. */
function text(o: Record<string, unknown>, field: string, max: number, missing?: ErrorName): string | undefined {
  const v = o[field];
  if (v === undefined || v === null || (v === '' && missing !== undefined)) {
    if (missing !== undefined) fail(missing);
    return undefined;
  }
  if (typeof v !== 'string') fail('invalidType', field);
  if (v.length > max) fail('overSize', field);
  return v;
}

function inputFieldOf(o: Record<string, unknown>, required: boolean): number | undefined {
  const v = o.inputField;
  if (v === undefined || v === null) {
    if (required) fail('invalidInputField');
    return undefined;
  }
  if (v !== 0 && v !== 1) fail('invalidInputField');
  return v;
}

/** The brand's agency linked as `botAgencyId`: one of the service's agencies serving this brand (64363 otherwise). */
function agencyWebhook(store: EmulatorStore, brand: StoredBrand, agencyId: string): string | null {
  const agency = store.messaging.agencies.get(agencyId);
  if (agency === undefined || !agency.brands.has(brand.brandId)) fail('botAgencyNotFound');
  return agency.webhookUrl;
}

/** States of a sender-number room that was approved: a rename under review keeps the approved room live (*chosen*). */
const WAS_APPROVED = ['승인', '승인대기(수정)', '검수완료(수정)'];

/** A reply number of a room with a bidirectional ID: an approved sender-number room of the brand (64362 otherwise). */
function checkReplyNumber(brand: StoredBrand, subNum: string): void {
  const room = brand.chatbots.get(subNum);
  if (room === undefined || room.service === 'chat' || !WAS_APPROVED.includes(room.approvalResult)) fail('subNumNotFound');
}

/** The bidirectional ID the service keeps: lower case, with the `bot-` prefix (64373 when it cannot be one). */
export function bidirectionalId(asked: string): string {
  const lower = asked.toLowerCase();
  const id = lower.startsWith(PREFIX) ? lower : PREFIX + lower;
  if (!BIDI_ID.test(id)) fail('invalidChatbotIdFormat');
  return id;
}

async function register(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const o = await chatbotOf(ctx);
  if (o.service === undefined || o.service === null || o.service === '') fail('missingService');
  const service = optionalEnum(o, 'service', ['a2p', 'chat'] as const);
  const subTitle = text(o, 'subTitle', MAX_LENGTH.subTitle, 'missingSubTitle') as string;
  const subNum = text(o, 'subNum', MAX_LENGTH.subNum, 'missingSubNum') as string;
  const inputField = inputFieldOf(o, true) as number;
  const fields = {
    display: optionalEnum(o, 'display', ENUMS.display),
    subDescr: text(o, 'subDescr', MAX_LENGTH.subDescr),
    saftyStatusYn: optionalEnum(o, 'saftyStatusYn', ENUMS.saftyStatusYn),
  };
  const botAgencyId = text(o, 'botAgencyId', MAX_LENGTH.botAgencyId);
  const room = service === 'a2p' ? convert(ctx, account, brand, o, { subTitle, subNum, inputField, botAgencyId, ...fields }) : newRoom(ctx, account, brand, o, { subTitle, subNum, inputField, botAgencyId, ...fields });
  return ok([roomAnswer(ctx.store, brand, room)]);
}

interface Asked {
  subTitle: string;
  subNum: string;
  inputField: number;
  botAgencyId: string | undefined;
  display: string | undefined;
  subDescr: string | undefined;
  saftyStatusYn: string | undefined;
}

/** A new room with a bidirectional ID, waiting for review (a name the operator checks). */
function newRoom(ctx: RequestContext, account: StoredAccount, brand: StoredBrand, o: Record<string, unknown>, a: Asked): StoredChatbot {
  const asked = text(o, 'chatbotId', MAX_LENGTH.chatbotId);
  // Without one the service makes one up (the document: read the id from the answer).
  const chatbotId = asked === undefined || asked === '' ? `${PREFIX}${String(ctx.store.next('BOT')).padStart(7, '0')}` : bidirectionalId(asked);
  if (findRoom(ctx.store, chatbotId) !== undefined) fail('chatbotIdDuplicated');
  checkReplyNumber(brand, a.subNum);
  const webhook = a.botAgencyId === undefined || a.botAgencyId === '' ? null : agencyWebhook(ctx.store, brand, a.botAgencyId);
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const room: StoredChatbot = {
    groupId: null,
    chatbotId,
    subNum: a.subNum,
    isMainNum: false,
    subTitle: a.subTitle,
    service: 'chat',
    display: a.display ?? '01',
    inputField: a.inputField,
    subDescr: a.subDescr ?? null,
    botAgencyId: a.botAgencyId === undefined || a.botAgencyId === '' ? null : a.botAgencyId,
    saftyStatusYn: a.saftyStatusYn ?? 'Y',
    approvalResult: '승인대기',
    approvalReason: null,
    registerDate: now,
    approvalDate: null,
    updateDate: now,
    registerId: account.userId,
    updateId: account.userId,
    // A bidirectional room receives RCS postbacks (the reference: rcsReply must be 1).
    rcsReply: '1',
    webhook,
    searchWeight: '512',
    botTcPage: null,
    menu: null,
    menuPaused: false,
  };
  brand.chatbots.set(chatbotId, room);
  announce(ctx, chatbotNotice(brand.brandId, chatbotId, 'created'));
  return room;
}

/** An approved sender-number room linked to a bidirectional agency; a new name goes to review. */
function convert(ctx: RequestContext, account: StoredAccount, brand: StoredBrand, o: Record<string, unknown>, a: Asked): StoredChatbot {
  const chatbotId = text(o, 'chatbotId', MAX_LENGTH.chatbotId, 'chatbotNotFound') as string;
  const room = brand.chatbots.get(chatbotId);
  if (room === undefined || room.service === 'chat') fail('chatbotNotFound');
  if (room.approvalResult !== '승인') fail('notAllowedModification');
  if (room.botAgencyId !== null) fail('chatbotIdDuplicated');
  if (a.subNum !== chatbotId) fail('chatbotSubNumMismatch');
  if (a.botAgencyId === undefined || a.botAgencyId === '') fail('missingBotAgencyId');
  const webhook = agencyWebhook(ctx.store, brand, a.botAgencyId);
  const renamed = a.subTitle !== room.subTitle;
  if (renamed) room.previousSubTitle = room.subTitle;
  Object.assign(room, {
    subTitle: a.subTitle,
    inputField: a.inputField,
    display: a.display ?? room.display,
    subDescr: a.subDescr ?? room.subDescr,
    saftyStatusYn: a.saftyStatusYn ?? room.saftyStatusYn,
    botAgencyId: a.botAgencyId,
    webhook,
    rcsReply: '1',
    approvalResult: chatbotAfterUpdate(room.approvalResult, renamed),
    updateDate: formatServiceTime(new Date(ctx.store.stamp())),
    updateId: account.userId,
  });
  announce(ctx, chatbotNotice(brand.brandId, chatbotId, 'modified'));
  return room;
}

async function modify(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const room = findChatbot(brand, ctx.params.chatbotId as string);
  if (!isBidirectional(room)) fail('notBidirectional');
  if (!CHATBOT_UPDATABLE.includes(room.approvalResult)) fail('notAllowedModification');
  const o = await chatbotOf(ctx);
  const subNum = text(o, 'subNum', MAX_LENGTH.subNum);
  if (subNum !== undefined && subNum !== room.subNum) {
    if (room.service === 'chat') checkReplyNumber(brand, subNum);
    else fail('chatbotSubNumMismatch');
  }
  const agency = text(o, 'botAgencyId', MAX_LENGTH.botAgencyId);
  const next = {
    subNum: subNum ?? room.subNum,
    subTitle: text(o, 'subTitle', MAX_LENGTH.subTitle) ?? room.subTitle,
    display: optionalEnum(o, 'display', ENUMS.display) ?? room.display,
    inputField: inputFieldOf(o, false) ?? room.inputField,
    subDescr: o.subDescr === undefined ? room.subDescr : (text(o, 'subDescr', MAX_LENGTH.subDescr) ?? null),
    saftyStatusYn: optionalEnum(o, 'saftyStatusYn', ENUMS.saftyStatusYn) ?? room.saftyStatusYn,
    // "" unlinks the agency: a converted room becomes a sender-number room again.
    botAgencyId: agency === undefined ? room.botAgencyId : agency === '' ? null : agency,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== room[k]);
  if (!changed) fail('noChanges');
  const webhook = next.botAgencyId === room.botAgencyId ? room.webhook : next.botAgencyId === null ? null : agencyWebhook(ctx.store, brand, next.botAgencyId);
  const renamed = next.subTitle !== room.subTitle;
  const to = chatbotAfterUpdate(room.approvalResult, renamed);
  if (to === '승인대기(수정)') room.previousSubTitle = room.subTitle;
  Object.assign(room, next, { webhook, approvalResult: to, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'modified'));
  return ok([roomAnswer(ctx.store, brand, room)]);
}

/**
 * A room with a bidirectional ID is deleted; a converted sender-number room
 * loses its agency (it stays, as a sender-number room); a sender-number room
 * without one is deleted, as DELETE /chatbot/{chatbotId} does.
 */
function remove(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const room = findChatbot(brand, ctx.params.chatbotId as string);
  if (room.service !== 'chat' && room.botAgencyId !== null) {
    Object.assign(room, { botAgencyId: null, webhook: null, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
    announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'modified'));
  } else {
    brand.chatbots.delete(room.chatbotId);
    announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'deleted'));
  }
  return ok([{ chatbotId: room.chatbotId }]);
}
