// Persistent (room) menus: create, replace, delete, pause (docs/decisions.md, "Persistent menus").
// Menu changes never change the room's approvalResult.

import type { PersistentMenuItem } from '../../contract/wire.js';
import { ENUMS, MAX_LENGTH, MAX_MENU_ITEMS } from '../../spec/limits.js';
import { formatServiceTime } from '../../util/time.js';
import { authorizeBrand } from '../auth.js';
import { ok, type RequestContext } from '../http-types.js';
import type { Route } from '../router.js';
import { fail } from '../service-error.js';
import type { EmulatorStore, StoredAccount, StoredBrand, StoredChatbot } from '../store.js';
import { asObject, optionalString, requiredString, sameJson } from '../validate.js';
import { findChatbot } from './chatbots.js';

const BASE = '/api/1.1/brand/:brandId/bidirectional/chatbot/:chatbotId/persistentmenu';

/** The persistent menu routes. */
export function menuRoutes(): Route[] {
  return [
    { method: 'POST', pattern: BASE, handler: (ctx) => save(ctx, 'create') },
    { method: 'PUT', pattern: BASE, handler: (ctx) => save(ctx, 'replace') },
    { method: 'DELETE', pattern: BASE, handler: remove },
    { method: 'PUT', pattern: `${BASE}/pause`, handler: pause },
  ];
}

async function save(ctx: RequestContext, mode: 'create' | 'replace') {
  const { brand, room } = target(ctx);
  // POST on a room that already has a menu is refused (*chosen*): PUT replaces.
  if (mode === 'create' && room.menu !== null) fail('notAllowedModification');
  if (room.rcsReply !== '1') fail('invalidMenuFormat', 'rcsReply');
  const doc = asObject(await ctx.json(), 'body');
  if (doc.persistentMenu === undefined || doc.persistentMenu === null) fail('requiredValue', 'persistentMenu');
  const pm = asObject(doc.persistentMenu, 'persistentMenu');
  if (pm.menu === undefined || pm.menu === null) fail('requiredValue', 'menu');
  if (!Array.isArray(pm.menu)) fail('invalidType', 'menu');
  if (pm.menu.length > MAX_MENU_ITEMS) fail('invalidMenuFormat', 'menu');
  const items = pm.menu.map((raw) => parseItem(brand, raw));
  const current = (room.menu ?? []).map(({ postbackId: _p, upPostbackId: _u, ...rest }) => rest);
  if (mode === 'replace' && room.menu !== null && sameJson(current, items)) fail('noChanges');
  room.menu = items.map((item) => withPostback(ctx.store, item));
  room.menuPaused = false;
  room.updateDate = formatServiceTime(new Date(ctx.store.stamp()));
  return ok([{ chatbotId: room.chatbotId }]);
}

function remove(ctx: RequestContext) {
  const { room } = target(ctx);
  // Deleting a menu that is not there changes nothing (*chosen*: 64323).
  if (room.menu === null) fail('noChanges');
  room.menu = null;
  room.menuPaused = false;
  room.updateDate = formatServiceTime(new Date(ctx.store.stamp()));
  return ok([{ chatbotId: room.chatbotId }]);
}

async function pause(ctx: RequestContext) {
  const { account, room } = target(ctx);
  // Only the relay agency registered on the room may pause its menu.
  if (account.role !== 'agency' || room.botAgencyId !== account.userId) fail('agencyNotRelay');
  const doc = asObject(await ctx.json(), 'body');
  if (typeof doc.isPause !== 'boolean') fail('invalidIsPause');
  if (room.menu === null) fail('menuNotUsed');
  room.menuPaused = doc.isPause;
  const when = formatServiceTime(new Date(ctx.store.stamp()));
  return ok([{ chatbotId: room.chatbotId, isPause: doc.isPause, ...(doc.isPause ? { pausedDate: when } : { resumeDate: when }) }]);
}

function target(ctx: RequestContext): { account: StoredAccount; brand: StoredBrand; room: StoredChatbot } {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return { account, brand, room: findChatbot(brand, ctx.params.chatbotId as string) };
}

function parseItem(brand: StoredBrand, raw: unknown): PersistentMenuItem {
  const o = asObject(raw, 'menu');
  const type = requiredString(o, 'type');
  if (!(ENUMS.menuType as readonly string[]).includes(type)) fail('invalidMenuFormat', 'type');
  if (o.title === undefined || o.title === null || o.title === '') fail('missingMenuTitle');
  const title = requiredString(o, 'title', MAX_LENGTH.menuTitle);
  if (o.ordNo === undefined || o.ordNo === null) fail('requiredValue', 'ordNo');
  if (typeof o.ordNo !== 'number' || !Number.isFinite(o.ordNo)) fail('invalidType', 'ordNo');
  const item: PersistentMenuItem = { type, title, ordNo: o.ordNo };
  switch (type) {
    case 'reply': {
      const id = optionalString(o, 'autoReplyMsgId');
      if (id !== undefined) {
        if (!brand.autoReplies.has(id)) fail('autoReplyNotFound');
        item.autoReplyMsgId = id;
      }
      break;
    }
    case 'feed': {
      const feedId = optionalString(o, 'feedId');
      if (feedId !== undefined) item.feedId = feedId;
      break;
    }
    case 'action': {
      if (o.actionType !== 'dialerAction') fail('invalidMenuFormat', 'actionType');
      const action = o.action as PersistentMenuItem['action'] | undefined;
      const phone = action?.dialerAction?.dialPhoneNumber?.phoneNumber;
      if (typeof phone !== 'string' || phone === '') fail('invalidMenuFormat', 'action');
      item.actionType = 'dialerAction';
      item.action = action;
      break;
    }
    default:
      fail('invalidMenuFormat', 'type');
  }
  return item;
}

function withPostback(store: EmulatorStore, item: PersistentMenuItem): PersistentMenuItem {
  return { postbackId: store.nextId('PM'), ...item };
}
