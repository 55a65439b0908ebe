// The admin API under /_emulator/ (loopback only, no auth): move reviews along,
// force states, set faults, move the clock, expire tokens, dump and reset the
// store, read the request log. Documented in docs/emulator.md.

import { formatServiceTime, parseServiceTime } from '../util/time.js';
import type { FaultPlan, RateLimit } from './faults.js';
import type { Handler, RequestContext, Reply } from './http-types.js';
import { announce } from './messaging/notifications.js';
import type { Reviewable, ReviewMoves } from './module.js';
import type { Route } from './router.js';
import { ROUTE_MODULES } from './routes/index.js';
import { failEmulator } from './service-error.js';
import { checkBehaviour, type Seed } from './seed.js';
import { storeFromSeed } from './seed-apply.js';
import { STATES, reviewTransition, type ReviewAction } from './state-machines.js';
import type { EmulatorStore, StoredBrand } from './store.js';

/** One entry of the request log. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** HTTP status, or 0 when a fault destroyed the connection. */
  status: number;
  /** Service time when the request arrived. */
  time: string;
  /** The fault applied, if any. */
  fault?: string;
}

/** What the admin routes act on. */
export interface AdminState {
  store: EmulatorStore;
  faults: FaultPlan;
  /** The rate-limit fault; reset keeps its setting and restarts its counters. */
  rateLimit: RateLimit;
  log: RequestLogEntry[];
  seed: Seed;
  /** Called after /_emulator/reset restored the seed. */
  onReset?: () => void;
}

/** The service clock stays within these years (*chosen*), so every date formats. */
const CLOCK_MIN = Date.UTC(2000, 0, 1);
const CLOCK_MAX = Date.UTC(2100, 0, 1);

/** The kinds this file reviews itself; route modules bring the others (src/emulator/module.ts). */
type Kind = 'autoReply' | 'chatbot' | 'logo' | 'template';
const OWN_KINDS: readonly string[] = ['autoReply', 'chatbot', 'logo', 'template'];
/** Review moves registered by route modules, by kind. */
const MODULE_KINDS: ReadonlyMap<string, ReviewMoves> = new Map(ROUTE_MODULES.flatMap((m) => Object.entries(m.review ?? {})));
const KINDS: readonly string[] = [...OWN_KINDS, ...MODULE_KINDS.keys()].sort();
const ACTIONS: readonly ReviewAction[] = ['start', 'approve', 'reject', 'complete'];

/** The admin routes. */
// long: the table of the admin routes, one short handler each: read whole, it is the admin API's index.
export function adminRoutes(state: AdminState): Route[] {
  const r = (method: string, path: string, handler: Handler): Route => ({ method, pattern: `/_emulator/${path}`, handler });
  return [
    r('POST', 'review', async (ctx) => {
      const body = await adminBody(ctx);
      const { obj, kind, brand, moves } = target(state.store, body);
      const action = body.action as ReviewAction;
      if (!ACTIONS.includes(action)) failEmulator('badAdminRequest', `action must be one of ${ACTIONS.join(', ')}`);
      const from = obj.approvalResult;
      const to = moves !== undefined ? moves.transition(from, action) : reviewTransition(kind as Kind, from, action);
      if (to === undefined) failEmulator('invalidTransition', `${kind} ${action} from ${from}`);
      const now = formatServiceTime(new Date(state.store.stamp()));
      obj.approvalResult = to;
      obj.updateDate = now;
      if (kind !== 'autoReply') {
        const reviewed = obj as Reviewable & { previous?: unknown; previousSubTitle?: string };
        if (action === 'reject') reviewed.approvalReason = typeof body.reason === 'string' ? body.reason : null;
        if (to === '승인') {
          reviewed.approvalDate = now;
          reviewed.approvalReason = null;
          // An approved modification replaces what cancel would have restored.
          delete reviewed.previous;
          delete reviewed.previousSubTitle;
        }
      }
      announceMove(ctx, brand, moves, body.id as string, to);
      return json({ kind, id: body.id, from, approvalResult: to });
    }),
    r('POST', 'state', async (ctx) => {
      const body = await adminBody(ctx);
      const { obj, kind, brand, moves } = target(state.store, body);
      const to = body.approvalResult;
      const states: readonly string[] = moves !== undefined ? moves.states : STATES[kind as Kind];
      if (typeof to !== 'string' || !states.includes(to)) failEmulator('badAdminRequest', `approvalResult must be one of ${states.join(', ')}`);
      const from = obj.approvalResult;
      obj.approvalResult = to;
      if (kind !== 'autoReply' && body.approvalReason !== undefined) obj.approvalReason = typeof body.approvalReason === 'string' ? body.approvalReason : null;
      announceMove(ctx, brand, moves, body.id as string, to);
      return json({ kind, id: body.id, from, approvalResult: to });
    }),
    r('POST', 'faults', async (ctx) => {
      const body = await adminBody(ctx);
      state.faults.set(body.seed, body.rules);
      return json(state.faults.toJSON());
    }),
    r('DELETE', 'faults', () => {
      state.faults.clear();
      return json({ rules: [] });
    }),
    r('GET', 'faults', () => json(state.faults.toJSON())),
    r('POST', 'rate-limit', async (ctx) => {
      const body = await adminBody(ctx);
      state.rateLimit.set(body.perSecond);
      return json(state.rateLimit.toJSON());
    }),
    r('GET', 'rate-limit', () => json(state.rateLimit.toJSON())),
    r('GET', 'store', () => json({ ...state.store.toJSON(), faults: state.faults.toJSON() })),
    r('POST', 'reset', () => {
      // Writes after a reset stay later than those before it: a cache must not take a new object for an old one.
      const lastStamp = state.store.lastStamp;
      Object.assign(state.store, storeFromSeed(state.seed), { lastStamp });
      state.faults.clear();
      state.rateLimit.set(state.rateLimit.toJSON().perSecond);
      state.log.length = 0;
      state.onReset?.();
      return json({ reset: true });
    }),
    r('GET', 'requests', () => json({ requests: state.log })),
    r('DELETE', 'requests', () => {
      state.log.length = 0;
      return json({ requests: [] });
    }),
    r('POST', 'clock', async (ctx) => {
      const body = await adminBody(ctx);
      const store = state.store;
      // Compute the new time first and commit only a time inside the bounds:
      // an overflowing clock would turn every later answer into a 500.
      let target = store.now();
      if (body.now !== undefined) {
        target = typeof body.now === 'string' ? parseServiceTime(body.now).getTime() : NaN;
        if (Number.isNaN(target)) failEmulator('badAdminRequest', 'now must be a date-time like 2026-11-21T10:00:00.000+09');
      }
      if (body.advanceSeconds !== undefined) {
        if (typeof body.advanceSeconds !== 'number' || !Number.isFinite(body.advanceSeconds)) failEmulator('badAdminRequest', 'advanceSeconds must be a number');
        target += body.advanceSeconds * 1000;
      }
      if (!(target >= CLOCK_MIN && target < CLOCK_MAX)) failEmulator('badAdminRequest', `the clock must stay from ${formatServiceTime(new Date(CLOCK_MIN))} to before ${formatServiceTime(new Date(CLOCK_MAX))}`);
      if (store.fixedNow !== null) store.fixedNow = target;
      else store.clockOffsetMs = target - Date.now();
      // Setting the clock is the operator's word: writes follow it, even backwards.
      if (body.now !== undefined) store.lastStamp = 0;
      return json({ now: formatServiceTime(new Date(store.now())) });
    }),
    r('POST', 'tokens/expire', () => {
      const now = state.store.now();
      for (const t of state.store.issuedTokens.values()) t.expiresAt = Math.min(t.expiresAt, now);
      return json({ expired: state.store.issuedTokens.size });
    }),
    r('POST', 'options', async (ctx) => {
      const body = await adminBody(ctx);
      if (body.noContentOnEmptyList !== undefined) {
        if (typeof body.noContentOnEmptyList !== 'boolean') failEmulator('badAdminRequest', 'noContentOnEmptyList must be a boolean');
        state.store.noContentOnEmptyList = body.noContentOnEmptyList;
      }
      const { noContentOnEmptyList: _n, ...behaviour } = body;
      const given = checkBehaviour(behaviour, (field, why) => failEmulator('badAdminRequest', `${field} ${why}`));
      Object.assign(state.store.behaviour, given);
      return json({ noContentOnEmptyList: state.store.noContentOnEmptyList, ...state.store.behaviour });
    }),
  ];
}

function json(body: unknown): Reply {
  return { status: 200, json: body };
}

/** The JSON object body of an admin call (60400 otherwise). */
export async function adminBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = await ctx.json();
  } catch {
    failEmulator('badAdminRequest', 'body must be a JSON object');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) failEmulator('badAdminRequest', 'body must be a JSON object');
  return v as Record<string, unknown>;
}

/** The object a review or forced state acts on, and the module's moves when a route module brought its kind. */
function target(store: EmulatorStore, body: Record<string, unknown>): { obj: Reviewable; kind: string; brand: StoredBrand; moves: ReviewMoves | undefined } {
  const kind = body.kind as string;
  if (!KINDS.includes(kind)) failEmulator('badAdminRequest', `kind must be one of ${KINDS.join(', ')}`);
  if (typeof body.brandId !== 'string' || typeof body.id !== 'string') failEmulator('badAdminRequest', 'brandId and id must be strings');
  const brand: StoredBrand | undefined = store.brands.get(body.brandId);
  if (brand === undefined) failEmulator('adminNotFound', `brand ${body.brandId}`);
  const moves = MODULE_KINDS.get(kind);
  const own: Record<Kind, Map<string, Reviewable>> = { autoReply: brand.autoReplies, chatbot: brand.chatbots, logo: brand.logos, template: brand.templates };
  const obj = moves !== undefined ? moves.find(brand, body.id) : own[kind as Kind].get(body.id);
  if (obj === undefined) failEmulator('adminNotFound', `${kind} ${body.id}`);
  return { obj, kind, brand, moves };
}

/** A module kind's notification for its new state, announced once the admin call succeeds (own kinds are derived from the answer). */
function announceMove(ctx: RequestContext, brand: StoredBrand, moves: ReviewMoves | undefined, id: string, to: string): void {
  const n = moves?.notice(brand, id, to);
  if (n !== undefined) announce(ctx, n);
}
