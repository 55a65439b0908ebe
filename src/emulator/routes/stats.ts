// Customer-response statistics (the public OpenAPI document's statQuery
// routes): room-menu presses per day (GET /statQuery/persistentMenu/{brandId}),
// with the buttons and chips of the auto-reply a menu item sends, and the
// campaign routes (GET /statQuery/message/{brandId}, …/messageButton/{brandId}),
// which answer from the campaigns the emulator knows of (none are sent with a
// groupId it keeps, so their days are empty). The counts come from the
// emulator's own user events: a menu reply played through the messaging admin
// API is one press, and POST /_emulator/stats/press records presses the
// service counts without an event for the agency (a URL menu item opened, a
// button of the auto-reply a menu item sent), any number at once and on any
// past day (docs/decisions.md, "Usage statistics").

import type { PersistentMenuItem, Suggestion } from '../../contract/wire.js';
import { authorizeBrand } from '../auth.js';
import { ok, type Reply, type RequestContext } from '../http-types.js';
import type { EmulatorModule } from '../module.js';
import type { Route } from '../router.js';
import { fail, failEmulator } from '../service-error.js';
import type { EmulatorStore, StoredBrand, StoredChatbot } from '../store.js';

/** The longest period one query covers, in days (the document: at most 31). */
export const STAT_MAX_DAYS = 31;
const DAY_MS = 86_400_000;
/** The service's day is Korean time. */
const KST_MS = 9 * 3_600_000;

/** Where a press landed when it was on a button or chip of the auto-reply a menu item sent. */
export interface PressedSuggestion {
  reactionType: 'button' | 'chipList';
  cardNum: number;
  buttonNum: number;
  title: string;
  actionType?: string;
  postbackId?: string;
}

/** One recorded press (or several on one day): a menu item, or a suggestion of its auto-reply. */
export interface Press {
  chatbotId: string;
  /** The menu item as it was pressed (its postbackId, title, type and action). */
  item: { postbackId: string; title: string; type: string; actionType?: string; autoReplyMsgId?: string };
  suggestion?: PressedSuggestion;
  /** The auto-reply's messagebaseId, for a suggestion's row. */
  messagebaseId?: string;
  /** The service day, yyyymmdd. */
  day: string;
  count: number;
}

/** A brand's statistics: its presses. */
export interface BrandStats {
  presses: Press[];
}

/** The statistics module: its routes, its admin route, and each brand's presses. */
export const statsModule: EmulatorModule = {
  routes: statRoutes,
  adminRoutes: () => [{ method: 'POST', pattern: '/_emulator/stats/press', handler: press }],
  state: { slot: 'stats', create: (): BrandStats => ({ presses: [] }), dump: (s) => s },
};

/** The brand's statistics slot. */
export function statsOf(brand: StoredBrand): BrandStats {
  return brand.slots.get('stats') as BrandStats;
}

/** The service day (yyyymmdd, Korean time) of an emulator time in epoch ms. */
export function serviceDay(ms: number): string {
  return new Date(ms + KST_MS).toISOString().slice(0, 10).replaceAll('-', '');
}

/** Record `count` presses of a room's menu item (and of one suggestion of its auto-reply) on `day`. */
export function recordPress(brand: StoredBrand, room: StoredChatbot, item: PersistentMenuItem, day: string, count = 1, suggestion?: PressedSuggestion): void {
  const at: Press['item'] = { postbackId: item.postbackId ?? '', title: item.title, type: item.type };
  if (item.actionType !== undefined) at.actionType = item.actionType;
  if (item.autoReplyMsgId !== undefined) at.autoReplyMsgId = item.autoReplyMsgId;
  const p: Press = { chatbotId: room.chatbotId, item: at, day, count };
  if (suggestion !== undefined) {
    p.suggestion = suggestion;
    const reply = item.autoReplyMsgId !== undefined ? brand.autoReplies.get(item.autoReplyMsgId) : undefined;
    p.messagebaseId = reply?.messagebaseId ?? 'NA';
  }
  statsOf(brand).presses.push(p);
}

function statRoutes(): Route[] {
  const base = '/api/1.1/statQuery';
  return [
    { method: 'GET', pattern: `${base}/persistentMenu/:brandId`, handler: menuStats },
    { method: 'GET', pattern: `${base}/message/:brandId`, handler: (ctx) => campaignStats(ctx) },
    { method: 'GET', pattern: `${base}/messageButton/:brandId`, handler: (ctx) => campaignStats(ctx) },
  ];
}

/** The period of a query: startDate and endDate, yyyymmdd, in order, at most 31 days. */
function period(ctx: RequestContext): { from: string; to: string } {
  const from = dateParam(ctx, 'startDate');
  const to = dateParam(ctx, 'endDate');
  const days = (Date.parse(isoDay(to)) - Date.parse(isoDay(from))) / DAY_MS + 1;
  if (days < 1) fail('invalidQuery', `startDate:${from} is after endDate:${to}`);
  if (days > STAT_MAX_DAYS) fail('invalidQuery', `the period is ${days} days; at most ${STAT_MAX_DAYS}`);
  return { from, to };
}

function dateParam(ctx: RequestContext, name: string): string {
  const v = ctx.query.get(name);
  if (v === null || v === '') fail('requiredValue', name);
  if (!/^\d{8}$/.test(v) || Number.isNaN(Date.parse(isoDay(v))) || new Date(isoDay(v)).toISOString().slice(0, 10) !== isoDay(v)) fail('invalidQuery', `${name}:${v}`);
  return v;
}

function isoDay(d: string): string {
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
}

function required(ctx: RequestContext, name: string): string {
  const v = ctx.query.get(name);
  if (v === null || v === '') fail('requiredValue', name);
  return v;
}

/** The document's menuType of a menu item type (*chosen*: a feed is a basic reply). */
function menuType(type: string): string {
  if (type === 'reply') return 'autoreply';
  if (type === 'action' || type === 'menu') return type;
  return 'reply';
}

function menuStats(ctx: RequestContext): Reply {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const { from, to } = period(ctx);
  const chatbotId = required(ctx, 'chatbotId');
  if (!brand.chatbots.has(chatbotId)) fail('invalidChatbotId');
  const presses = statsOf(brand).presses.filter((p) => p.chatbotId === chatbotId && p.day >= from && p.day <= to);
  const days = [...new Set(presses.map((p) => p.day))].sort();
  return ok(days.map((day) => ({ statDate: day, brandId: brand.brandId, chatbotId, menuList: menuList(presses.filter((p) => p.day === day)) })));
}

/** One day's presses as the document's menu list: an entry per menu item, its auto-reply's suggestions in subList. */
function menuList(presses: Press[]): Record<string, unknown>[] {
  const items = new Map<string, { row: Record<string, unknown>; subs: Map<string, Record<string, unknown>> }>();
  for (const p of presses) {
    let entry = items.get(p.item.postbackId);
    if (entry === undefined) {
      const row: Record<string, unknown> = { postbackId: p.item.postbackId, menuType: menuType(p.item.type), title: p.item.title, clickCount: 0 };
      if (p.item.actionType !== undefined) row.actionType = p.item.actionType;
      entry = { row, subs: new Map() };
      items.set(p.item.postbackId, entry);
    }
    if (p.suggestion === undefined) {
      entry.row.clickCount = (entry.row.clickCount as number) + p.count;
      continue;
    }
    const s = p.suggestion;
    const key = `${s.reactionType}/${s.cardNum}/${s.buttonNum}`;
    let sub = entry.subs.get(key);
    if (sub === undefined) {
      sub = { postbackId: s.postbackId ?? 'NA', menuType: 'autoreply', messagebaseId: p.messagebaseId ?? 'NA', reactionType: s.reactionType, cardNum: s.cardNum, buttonNum: s.buttonNum, title: s.title, clickCount: 0 };
      if (s.actionType !== undefined) sub.actionType = s.actionType;
      entry.subs.set(key, sub);
    }
    sub.clickCount = (sub.clickCount as number) + p.count;
  }
  return [...items.values()].map(({ row, subs }) => (subs.size > 0 ? { ...row, subList: [...subs.values()] } : row));
}

/** Campaign statistics: checked like the others; the emulator keeps no campaign groups, so no day has a row. */
function campaignStats(ctx: RequestContext): Reply {
  authorizeBrand(ctx, ctx.params.brandId as string);
  period(ctx);
  required(ctx, 'groupId');
  return ok([]);
}

/**
 * POST /_emulator/stats/press {brandId?, chatbotId, postbackId | title,
 * suggestion?, count?, daysAgo?}: record presses of a menu item, or of the
 * button or chip (by its label) of the auto-reply that item sends.
 */
async function press(ctx: RequestContext): Promise<Reply> {
  const body = await objectBody(ctx);
  const chatbotId = body.chatbotId;
  if (typeof chatbotId !== 'string') failEmulator('badAdminRequest', 'chatbotId is required (a string)');
  const found = findRoomOf(ctx.store, chatbotId);
  if (found === undefined) failEmulator('adminNotFound', `room ${chatbotId}`);
  const { brand, room } = found;
  const item = (room.menu ?? []).find((m) => (body.postbackId !== undefined ? m.postbackId === body.postbackId : m.title === body.title));
  if (item === undefined) failEmulator('adminNotFound', `menu item ${String(body.postbackId ?? body.title)} of room ${chatbotId}`);
  const count = body.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 10_000_000) failEmulator('badAdminRequest', 'count must be a whole number from 1 to 10000000');
  const daysAgo = body.daysAgo ?? 0;
  if (typeof daysAgo !== 'number' || !Number.isInteger(daysAgo) || daysAgo < 0 || daysAgo > 548) failEmulator('badAdminRequest', 'daysAgo must be a whole number from 0 to 548');
  let suggestion: PressedSuggestion | undefined;
  if (body.suggestion !== undefined) {
    if (typeof body.suggestion !== 'string') failEmulator('badAdminRequest', 'suggestion must be the label of a button or chip');
    suggestion = suggestionOf(brand, item, body.suggestion);
  }
  recordPress(brand, room, item, serviceDay(ctx.store.now() - daysAgo * DAY_MS), count, suggestion);
  return { status: 200, json: { recorded: count } };
}

/** The JSON object body of the admin call (60400 otherwise); admin.ts has the same check but imports this module. */
async function objectBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  const v: unknown = await ctx.json().catch(() => failEmulator('badAdminRequest', 'body must be a JSON object'));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) failEmulator('badAdminRequest', 'body must be a JSON object');
  return v as Record<string, unknown>;
}

function findRoomOf(store: EmulatorStore, chatbotId: string): { brand: StoredBrand; room: StoredChatbot } | undefined {
  for (const brand of store.brands.values()) {
    const room = brand.chatbots.get(chatbotId);
    if (room !== undefined) return { brand, room };
  }
  return undefined;
}

/** The button or chip labelled `label` of the auto-reply a menu item sends, with its place. */
function suggestionOf(brand: StoredBrand, item: PersistentMenuItem, label: string): PressedSuggestion {
  const reply = item.autoReplyMsgId !== undefined ? brand.autoReplies.get(item.autoReplyMsgId) : undefined;
  if (reply === undefined) failEmulator('invalidTransition', `menu item ${item.title} sends no auto-reply`);
  const groups = reply.filledButtons ?? reply.buttons ?? [];
  for (const [c, g] of groups.entries()) {
    for (const [b, s] of (g.suggestions ?? []).entries()) if (labelOf(s) === label) return placed('button', c + 1, b + 1, s);
  }
  for (const [b, s] of (reply.filledChipList ?? reply.chipList ?? []).entries()) if (labelOf(s) === label) return placed('chipList', 1, b + 1, s);
  failEmulator('adminNotFound', `button or chip "${label}" of auto-reply ${reply.autoReplyMsgId}`);
}

function labelOf(s: Suggestion): string | undefined {
  return s.action?.displayText ?? s.reply?.displayText;
}

function placed(reactionType: PressedSuggestion['reactionType'], cardNum: number, buttonNum: number, s: Suggestion): PressedSuggestion {
  const out: PressedSuggestion = { reactionType, cardNum, buttonNum, title: labelOf(s) ?? '' };
  const actionType = s.action !== undefined ? Object.keys(s.action).find((k) => k.endsWith('Action')) : undefined;
  if (actionType !== undefined) out.actionType = actionType;
  const data = s.action?.postback?.data ?? s.reply?.postback?.data;
  if (data !== undefined) out.postbackId = data;
  return out;
}
