// Chatbots (rooms): register, update, list, detail, delete, cancel (the
// service reference, Chatbot; docs/decisions.md, "Rooms"). The list is of
// sender-number rooms: a room with a bidirectional ID (service chat) is listed
// by the bidirectional routes (routes/bidirectional.ts).

import { CERTIFICATE, ENUMS, MAX_LENGTH } from '../../spec/limits.js';
import { formatServiceTime } from '../../util/time.js';
import { authorizeBrand } from '../auth.js';
import { ok, paged, withUnset, type RequestContext } from '../http-types.js';
import type { MultipartBody } from '../multipart.js';
import type { Route } from '../router.js';
import { fail } from '../service-error.js';
import { CHATBOT_UPDATABLE, afterCancel, chatbotAfterUpdate } from '../state-machines.js';
import type { EmulatorStore, StoredAccount, StoredBrand, StoredChatbot } from '../store.js';
import { asObject, extensionOf, optionalEnum, optionalString, requiredString } from '../validate.js';
import { announce, chatbotNotice } from '../messaging/notifications.js';
import { unreadableUpload } from '../files.js';

/**
 * Rooms leave out a field without a value: the public document types every room
 * field as a string and requires only chatbotId and brandId
 * (docs/decisions.md, "Fields without a value").
 */
export const ROOM_UNSET = 'absent';

const BASE = '/api/1.1/brand/:brandId/chatbot';

/** The chatbot routes. */
export function chatbotRoutes(): Route[] {
  return [
    { method: 'GET', pattern: BASE, handler: list },
    { method: 'POST', pattern: BASE, handler: register },
    { method: 'GET', pattern: `${BASE}/:chatbotId`, handler: detail },
    { method: 'PUT', pattern: `${BASE}/:chatbotId`, handler: update },
    { method: 'DELETE', pattern: `${BASE}/:chatbotId`, handler: remove },
    { method: 'PUT', pattern: `${BASE}/:chatbotId/cancel`, handler: cancel },
  ];
}

/** The public document lists sender-number rooms here (service a2p); rooms with a bidirectional ID are in the bidirectional list. */
function list(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const rooms = [...brand.chatbots.values()].filter((c) => c.service !== 'chat');
  return paged(ctx, rooms, (c) => roomAnswer(ctx.store, brand, c));
}

/** One room in full, whichever its service (also served as the bidirectional detail). */
export function detail(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return ok([chatbotDetail(ctx.store, brand, findChatbot(brand, ctx.params.chatbotId as string))]);
}

async function register(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const form = await ctx.multipart();
  checkCertificate(form, true);
  const rooms = newRooms(ctx, account, jsonPart(form, 'chatbots'));
  addRooms(ctx, brand, rooms);
  return ok(rooms.map((r) => chatbotDetail(ctx.store, brand, r)));
}

/** Adds new rooms to a brand (the first becomes its main number) and announces each as created. */
export function addRooms(ctx: RequestContext, brand: StoredBrand, rooms: StoredChatbot[]): void {
  for (const r of rooms) {
    r.isMainNum = brand.chatbots.size === 0;
    brand.chatbots.set(r.chatbotId, r);
    announce(ctx, chatbotNotice(brand.brandId, r.chatbotId, 'created'));
  }
}

/**
 * The rooms of a `chatbots` part (`{chatbots: [RegChatbotInfo]}`), waiting
 * for review; shared by room registration and brand registration.
 */
export function newRooms(ctx: RequestContext, account: StoredAccount, part: unknown): StoredChatbot[] {
  const doc = asObject(part, 'chatbots');
  const items = doc.chatbots;
  if (!Array.isArray(items) || items.length < 1 || items.length > 1000) fail('invalidType', 'chatbots');
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const seen = new Set<string>();
  return items.map((raw): StoredChatbot => {
    const o = asObject(raw, 'chatbots');
    const mdn = requiredString(o, 'mdn', MAX_LENGTH.chatbotId);
    // A room id is unique across the service (*chosen*: 64303 on mdn).
    if (seen.has(mdn) || roomExists(ctx.store, mdn)) fail('invalidType', 'mdn');
    seen.add(mdn);
    return {
      groupId: items.length > 1 ? 'GRP' + String(ctx.store.next('GRP')).padStart(7, '0') : null,
      chatbotId: mdn,
      subNum: optionalString(o, 'subNum', MAX_LENGTH.subNum) ?? mdn,
      isMainNum: false,
      subTitle: requiredString(o, 'subTitle', MAX_LENGTH.subTitle),
      service: 'a2p',
      display: optionalEnum(o, 'display', ENUMS.display) ?? '01',
      inputField: optionalEnum(o, 'inputField', ENUMS.inputField) ?? 1,
      subDescr: optionalString(o, 'subDescr', MAX_LENGTH.subDescr) ?? null,
      botAgencyId: null,
      saftyStatusYn: optionalEnum(o, 'saftyStatusYn', ENUMS.saftyStatusYn) ?? 'Y',
      approvalResult: '승인대기',
      approvalReason: null,
      registerDate: now,
      approvalDate: null,
      updateDate: now,
      registerId: account.userId,
      updateId: account.userId,
      rcsReply: optionalEnum(o, 'rcsReply', ENUMS.rcsReply) ?? '1',
      webhook: null,
      // The public document's default (ChatbotDetail.searchWeight).
      searchWeight: '512',
      botTcPage: null,
      menu: null,
      menuPaused: false,
    };
  });
}

async function update(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const room = findChatbot(brand, ctx.params.chatbotId as string);
  if (!CHATBOT_UPDATABLE.includes(room.approvalResult)) fail('notAllowedModification');
  const form = await ctx.multipart();
  checkCertificate(form, false);
  const o = asObject(jsonPart(form, 'chatbot'), 'chatbot');
  const mdn = optionalString(o, 'mdn', MAX_LENGTH.chatbotId);
  if (mdn !== undefined && mdn !== room.chatbotId) fail('invalidType', 'mdn');
  const next = {
    subNum: optionalString(o, 'subNum', MAX_LENGTH.subNum) ?? room.subNum,
    subTitle: o.subTitle === undefined ? room.subTitle : requiredString(o, 'subTitle', MAX_LENGTH.subTitle),
    rcsReply: optionalEnum(o, 'rcsReply', ENUMS.rcsReply) ?? room.rcsReply,
    display: optionalEnum(o, 'display', ENUMS.display) ?? room.display,
    inputField: optionalEnum(o, 'inputField', ENUMS.inputField) ?? room.inputField,
    subDescr: o.subDescr === undefined ? room.subDescr : (optionalString(o, 'subDescr', MAX_LENGTH.subDescr) ?? null),
    saftyStatusYn: optionalEnum(o, 'saftyStatusYn', ENUMS.saftyStatusYn) ?? room.saftyStatusYn,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== room[k]);
  if (!changed && !form.files.has('subNumCertificate')) fail('noChanges');
  const subTitleChanged = next.subTitle !== room.subTitle;
  const to = chatbotAfterUpdate(room.approvalResult, subTitleChanged);
  if (to === '승인대기(수정)') room.previousSubTitle = room.subTitle;
  Object.assign(room, next, { approvalResult: to, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'modified'));
  return ok([chatbotDetail(ctx.store, brand, room)]);
}

function remove(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const room = findChatbot(brand, ctx.params.chatbotId as string);
  brand.chatbots.delete(room.chatbotId);
  announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'deleted'));
  return ok([{ chatbotId: room.chatbotId, releatedChatbots: [] }]);
}

function cancel(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const room = findChatbot(brand, ctx.params.chatbotId as string);
  const to = afterCancel(room.approvalResult);
  if (to === undefined) fail('notAllowedModification');
  if (to === '승인' && room.previousSubTitle !== undefined) room.subTitle = room.previousSubTitle;
  delete room.previousSubTitle;
  Object.assign(room, { approvalResult: to, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  announce(ctx, chatbotNotice(brand.brandId, room.chatbotId, 'modified'));
  return ok([{ chatbotId: room.chatbotId }]);
}

/** The room, or 64105. */
export function findChatbot(brand: StoredBrand, id: string): StoredChatbot {
  const c = brand.chatbots.get(id);
  if (c === undefined) fail('invalidChatbotId');
  return c;
}

/** Whether the room menu is in use: a menu exists and is not paused. */
function menuInUse(c: StoredChatbot): boolean {
  return c.menu !== null && c.menu.length > 0 && !c.menuPaused;
}

/** A room as the lists show it (fields groupId through updateId). */
export function roomListItem(brand: StoredBrand) {
  return (c: StoredChatbot) => ({
    groupId: c.groupId,
    chatbotId: c.chatbotId,
    brandId: brand.brandId,
    subNum: c.subNum,
    isMainNum: c.isMainNum,
    subTitle: c.subTitle,
    service: c.service,
    display: c.display,
    inputField: c.inputField,
    subDescr: c.subDescr,
    botAgencyId: c.botAgencyId,
    saftyStatusYn: c.saftyStatusYn,
    psMenuUse: menuInUse(c),
    approvalResult: c.approvalResult,
    registerDate: c.registerDate,
    approvalDate: c.approvalDate,
    updateDate: c.updateDate,
    registerId: c.registerId,
    updateId: c.updateId,
  });
}

/** A room as the lists and the bidirectional routes' answers give it: its list item, fields without a value left out. */
export function roomAnswer(store: EmulatorStore, brand: StoredBrand, c: StoredChatbot) {
  return withUnset(store, roomListItem(brand)(c), ROOM_UNSET);
}

/** Every field of the Chatbot resource, persistentMenu in ordNo order. */
export function chatbotDetail(store: EmulatorStore, brand: StoredBrand, c: StoredChatbot) {
  return withUnset(store, {
    ...roomListItem(brand)(c),
    mediaUrl: [],
    rcsReply: c.rcsReply,
    approvalReason: c.approvalReason,
    status: 'published',
    searchWeight: c.searchWeight,
    webhook: c.webhook,
    botTcPage: c.botTcPage,
    persistentMenu: [...(c.menu ?? [])].sort((a, b) => a.ordNo - b.ordNo),
  }, ROOM_UNSET);
}

function roomExists(store: EmulatorStore, id: string): boolean {
  for (const b of store.brands.values()) if (b.chatbots.has(id)) return true;
  return false;
}

/** A JSON part, sent either as a text field or as a file part. */
export function jsonPart(form: MultipartBody, name: string): unknown {
  const text = form.fields.get(name) ?? form.files.get(name)?.bytes.toString('utf8');
  if (text === undefined || text.trim() === '') fail('requiredValue', name);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    fail('invalidJson');
  }
}

/** The subscription certificate: 64305 when required and absent, then type and size. */
export function checkCertificate(form: MultipartBody, required: boolean): void {
  const cert = form.files.get('subNumCertificate');
  if (cert === undefined || cert.bytes.length === 0) {
    if (required) fail('missingCertificate');
    return;
  }
  if (!(CERTIFICATE.extensions as readonly string[]).includes(extensionOf(cert.filename))) fail('notAllowedExtension');
  if (cert.bytes.length > CERTIFICATE.maxBytes) fail('fileTooLarge');
  if (unreadableUpload(cert.bytes, cert.filename)) fail('notAllowedExtension');
}
