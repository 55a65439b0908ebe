// Who may operate a brand (/corp/{personId}/brand/{brandId}/privilege), as the
// public OpenAPI document gives it (docs/decisions.md, "Privileges"): the list
// (the representative is Manager, other masters and managers SubManager,
// agencies Agency, each Ok, Processing, or Waiting for a request made in the
// console), a grant by the representative (which approves a Waiting request),
// the representative role handed to another master (the giver becomes an
// operator), and a removal (never of the representative). The document lists
// no notification for privileges: none is announced. The admin route plays
// the console: a grant or removal made there, a request, a status.

import { BRAND_LENGTH } from '../../spec/brand-profile.js';
import { ok, type Reply, type RequestContext } from '../http-types.js';
import type { EmulatorModule } from '../module.js';
import type { Route } from '../router.js';
import { fail, failEmulator } from '../service-error.js';
import type { StoredAccount, StoredBrand } from '../store.js';
import { asObject } from '../validate.js';
import { roomsOfAgency } from './bidirectional.js';
import { corpBrand } from './brands.js';

const PERSON = '/api/1.1/corp/:personId/brand/:brandId/privilege';
const TYPES = ['Manager', 'SubManager', 'Agency'] as const;
type PrivilegeType = (typeof TYPES)[number];

/** What the brand's privileges keep besides the accounts' roles: a status other than Ok, by account (Waiting: asked in the console, no role yet). */
export interface BrandPrivileges {
  status: Map<string, 'Processing' | 'Waiting'>;
}

/** The privilege family as registered: its routes, its console route and each brand's statuses. */
export const privilegeModule: EmulatorModule = {
  routes: () => [
    { method: 'GET', pattern: PERSON, handler: list },
    { method: 'POST', pattern: PERSON, handler: grant },
    { method: 'PUT', pattern: PERSON, handler: delegate },
    { method: 'DELETE', pattern: `${PERSON}/:id`, handler: revoke },
  ],
  adminRoutes: () => [{ method: 'POST', pattern: '/_emulator/privilege/:brandId', handler: consoleAction }],
  state: { slot: 'privileges', create: (): BrandPrivileges => ({ status: new Map() }), dump: (s) => Object.fromEntries((s as BrandPrivileges).status) },
  // A seeded brand's statuses other than Ok, by account: `privileges: { kim: Waiting, ag1: Processing }` (docs/emulator.md).
  seed: {
    key: 'privileges',
    check(c, value, q) {
      for (const [id, status] of Object.entries(c.object(value, q))) c.enumOf(status, ['Waiting', 'Processing'], `${q}.${id}`);
    },
    apply(_store, brand, value) {
      for (const [id, status] of Object.entries(value as Record<string, 'Waiting' | 'Processing'>)) stateOf(brand).status.set(id, status);
    },
  },
};

function stateOf(brand: StoredBrand): BrandPrivileges {
  return brand.slots.get('privileges') as BrandPrivileges;
}

function typeOf(account: StoredAccount, brandId: string): PrivilegeType {
  return account.brands.get(brandId) === 'representative' ? 'Manager' : account.role === 'agency' ? 'Agency' : 'SubManager';
}

/** Every account with a role on the brand, and every request waiting, in the store's order. */
function view(ctx: RequestContext, brand: StoredBrand): { privilegeType: PrivilegeType; id: string; status: string }[] {
  const status = stateOf(brand).status;
  const out: { privilegeType: PrivilegeType; id: string; status: string }[] = [];
  for (const a of ctx.store.accounts.values()) {
    const waiting = status.get(a.userId) === 'Waiting';
    if (a.brands.get(brand.brandId) === undefined && !waiting) continue;
    out.push({ privilegeType: typeOf(a, brand.brandId), id: a.userId, status: status.get(a.userId) ?? 'Ok' });
  }
  return out;
}

function list(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'operator');
  return ok(view(ctx, brand));
}

/** The account a privilege request names (64346 unknown) and the type it asks for (64337 otherwise). */
function target(ctx: RequestContext, raw: unknown): { type: PrivilegeType; account: StoredAccount } {
  const o = asObject(raw, 'regPrivilege');
  const type = o.privilegeType;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) fail('brandPropertyValue');
  if (typeof o.id !== 'string' || o.id === '') fail('requiredValue', 'id');
  if (o.id.length > BRAND_LENGTH.personId) fail('brandPropertySize');
  const account = ctx.store.accounts.get(o.id);
  if (account === undefined) fail('userNotFound', o.id);
  return { type: type as PrivilegeType, account };
}

/**
 * POST: operators added by the representative. SubManager names a master or
 * manager, Agency an agency (64337 otherwise; Manager is for PUT). A Waiting
 * request named is approved; an account that has access already is 64348.
 */
async function grant(ctx: RequestContext): Promise<Reply> {
  const { brand } = corpBrand(ctx, 'representative', true);
  const body = asObject(await ctx.json(), 'body');
  if (!Array.isArray(body.regPrivileges) || body.regPrivileges.length === 0) fail('requiredValue', 'regPrivileges');
  const granted = body.regPrivileges.map((raw) => {
    const { type, account } = target(ctx, raw);
    if (type === 'Manager' || (type === 'Agency') !== (account.role === 'agency')) fail('brandPropertyValue');
    if (account.brands.has(brand.brandId)) fail('privilegeAlreadyRegistered', account.userId);
    return account;
  });
  for (const a of granted) {
    a.brands.set(brand.brandId, 'operator');
    stateOf(brand).status.delete(a.userId);
  }
  return ok(view(ctx, brand).filter((p) => granted.some((g) => g.userId === p.id)));
}

/** PUT: the representative hands the role to another master (64349 for anyone else) and becomes an operator. */
async function delegate(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = corpBrand(ctx, 'representative', true);
  const body = asObject(await ctx.json(), 'body');
  const { type, account: to } = target(ctx, body.regPrivilege);
  if (type !== 'Manager') fail('brandPropertyValue');
  if (to.role !== 'master') fail('privilegeNotQualified', to.userId);
  if (to.userId === account.userId) fail('noChanges');
  account.brands.set(brand.brandId, 'operator');
  to.brands.set(brand.brandId, 'representative');
  stateOf(brand).status.delete(to.userId);
  return ok(view(ctx, brand).filter((p) => p.id === to.userId));
}

/** DELETE …/{id}: an operator's access removed; the representative cannot be (64352), an account without access is 64347, an agency a bidirectional room names as its agency is 64393. */
function revoke(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'representative', true);
  const id = ctx.params.id as string;
  const account = ctx.store.accounts.get(id);
  const role = account?.brands.get(brand.brandId);
  if (account === undefined || role === undefined) fail('privilegeNotRegistered', id);
  if (role === 'representative') fail('cannotDeleteSelf');
  // An agency a bidirectional room names as its agency keeps its access until the room is unlinked or deleted (64393).
  if (account.role === 'agency' && roomsOfAgency(brand, id).length > 0) fail('agencyInBidirectionalRoom');
  const removed = view(ctx, brand).filter((p) => p.id === id);
  account.brands.delete(brand.brandId);
  stateOf(brand).status.delete(id);
  return ok(removed);
}

/**
 * POST /_emulator/privilege/{brandId}, `{ id, action }`: what people do in the
 * console. `grant` gives account `id` access (an operator), `remove` takes it
 * away, `request` makes a Waiting request, `processing` and `ok` set the
 * status of an account with access.
 */
async function consoleAction(ctx: RequestContext): Promise<Reply> {
  const brand = ctx.store.brands.get(ctx.params.brandId as string);
  if (brand === undefined) failEmulator('adminNotFound', `brand ${String(ctx.params.brandId)}`);
  const raw: unknown = await ctx.json();
  const body = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const id = body.id;
  const action = body.action;
  if (typeof id !== 'string' || typeof action !== 'string') failEmulator('badAdminRequest', 'id and action are required (strings)');
  const account = ctx.store.accounts.get(id);
  if (account === undefined) failEmulator('adminNotFound', `account ${id}`);
  const status = stateOf(brand).status;
  switch (action) {
    case 'grant':
      if (account.brands.get(brand.brandId) !== 'representative') account.brands.set(brand.brandId, 'operator');
      status.delete(id);
      break;
    case 'remove':
      if (account.brands.get(brand.brandId) === 'representative') failEmulator('badAdminRequest', 'the representative cannot be removed');
      account.brands.delete(brand.brandId);
      status.delete(id);
      break;
    case 'request':
      if (account.brands.has(brand.brandId)) failEmulator('badAdminRequest', `${id} has access already`);
      status.set(id, 'Waiting');
      break;
    case 'processing':
    case 'ok':
      if (!account.brands.has(brand.brandId)) failEmulator('badAdminRequest', `${id} has no access`);
      if (action === 'ok') status.delete(id);
      else status.set(id, 'Processing');
      break;
    default:
      failEmulator('badAdminRequest', 'action is grant, remove, request, processing or ok');
  }
  return ok(view(ctx, brand));
}
