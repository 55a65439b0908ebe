// Brands: registration and its correction, cancel and delete (/corp/brand),
// the categories, the list, detail, modification, cancel and delete of a
// running brand (/corp/{personId}/brand; its privileges: routes/privileges.ts), and the agency's
// view and modification (/agency/{agencyId}/brand), as the public OpenAPI
// document gives them (docs/decisions.md, "The brand profile").

import { BRAND_FIXED_AFTER_APPROVAL, BRAND_LENGTH, BRAND_MODIFIABLE, BRAND_RESUBMITTABLE } from '../../spec/brand-profile.js';
import { authenticate, authorizeBrand } from '../auth.js';
import { ok, paged, type Reply, type RequestContext } from '../http-types.js';
import type { MultipartBody } from '../multipart.js';
import type { Route } from '../router.js';
import { fail, failEmulator } from '../service-error.js';
import { afterCancel } from '../state-machines.js';
import type { EmulatorModule } from '../module.js';
import { emptyBrand, type StoredAccount, type StoredBrand } from '../store.js';
import { asObject } from '../validate.js';
import { announce, notice } from '../messaging/notifications.js';
import { backgroundPart, brandDetail, brandInfo, categoryView, newBrandId, newBrandKey, pageFields, profilePart, regBrandPart, stampNow } from './brand-page.js';
import { BRAND_PAGE_HOOKS, pageOf, setPage, type StoredBrandImage, type StoredBrandPage } from './brand-state.js';
import { addRooms, checkCertificate, jsonPart, newRooms } from './chatbots.js';

const CORP = '/api/1.1/corp/brand';
const PERSON = '/api/1.1/corp/:personId/brand';
const AGENCY = '/api/1.1/agency/:agencyId/brand/:brandId';

/** The brand page family as registered: its routes, and its page's state, seed section and review moves. */
export const brandModule: EmulatorModule = { routes: brandRoutes, ...BRAND_PAGE_HOOKS };

/** The brand routes. */
export function brandRoutes(): Route[] {
  return [
    { method: 'GET', pattern: `${CORP}/categories`, handler: categories },
    { method: 'POST', pattern: CORP, handler: register },
    { method: 'PUT', pattern: `${CORP}/:brandId`, handler: resubmit },
    { method: 'DELETE', pattern: `${CORP}/:brandId`, handler: removeNew },
    { method: 'PUT', pattern: `${CORP}/:brandId/cancel`, handler: cancelNew },
    { method: 'GET', pattern: PERSON, handler: list },
    { method: 'GET', pattern: `${PERSON}/:brandId`, handler: detail },
    { method: 'PUT', pattern: `${PERSON}/:brandId`, handler: (ctx) => modify(ctx, corpBrand(ctx, 'operator')) },
    { method: 'DELETE', pattern: `${PERSON}/:brandId`, handler: remove },
    { method: 'PUT', pattern: `${PERSON}/:brandId/cancel`, handler: cancel },
    { method: 'GET', pattern: AGENCY, handler: agencyDetail },
    { method: 'PUT', pattern: AGENCY, handler: (ctx) => modify(ctx, agencyBrand(ctx)) },
    { method: 'GET', pattern: '/files/brand/:fileId/:fileName', handler: download },
  ];
}

/** A master or manager account (63002 for an agency); the personId on the path must be the caller (64104). */
function corpAccount(ctx: RequestContext, masterOnly = false): StoredAccount {
  const account = authenticate(ctx);
  if (account.role === 'agency' || (masterOnly && account.role !== 'master')) fail('noPermission');
  const personId = ctx.params.personId;
  if (personId !== undefined && (personId.length > BRAND_LENGTH.personId || personId !== account.userId)) fail('invalidPersonIdPath');
  return account;
}

/** The brand of a /corp call: a master or manager with a brand role (63001 without); `representative` asks for that role (the privilege routes, routes/privileges.ts, share it). */
export function corpBrand(ctx: RequestContext, role: 'operator' | 'representative', masterOnly = false): { account: StoredAccount; brand: StoredBrand } {
  corpAccount(ctx, masterOnly);
  const found = authorizeBrand(ctx, ctx.params.brandId as string);
  if (role === 'representative' && found.account.brands.get(found.brand.brandId) !== 'representative') fail('noBrandPermission');
  return found;
}

/** The brand of an /agency call: an agency account (63002 otherwise) that is the path's agencyId (64102) and an operator of the brand, with its brand key. */
function agencyBrand(ctx: RequestContext): { account: StoredAccount; brand: StoredBrand } {
  const account = authenticate(ctx);
  if (account.role !== 'agency') fail('noPermission');
  const agencyId = ctx.params.agencyId as string;
  if (agencyId.length > BRAND_LENGTH.agencyId || agencyId !== account.userId) fail('invalidAgencyIdPath');
  return authorizeBrand(ctx, ctx.params.brandId as string);
}

function categories(ctx: RequestContext): Reply {
  corpAccount(ctx);
  return ok(categoryView());
}

function list(ctx: RequestContext): Reply {
  const account = corpAccount(ctx);
  const brands = [...account.brands.keys()].map((id) => ctx.store.brands.get(id)).filter((b): b is StoredBrand => b !== undefined);
  return paged(ctx, brands, (b) => brandInfo(ctx, b));
}

function detail(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'operator');
  return ok([brandDetail(ctx, brand)]);
}

function agencyDetail(ctx: RequestContext): Reply {
  const { brand } = agencyBrand(ctx);
  // The document: only approved brands can be read by an agency.
  if (!['승인', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'].includes(pageOf(brand).approvalResult)) fail('invalidBrandStatus');
  return ok([brandDetail(ctx, brand)]);
}

/** POST /corp/brand: a new brand waits for review; the caller becomes its representative. */
async function register(ctx: RequestContext): Promise<Reply> {
  const account = authenticate(ctx);
  if (account.role === 'agency') fail('brandCreationDenied');
  const form = await ctx.multipart();
  const o = regBrandPart(form, true) as Record<string, unknown>;
  const { content, templateColor } = pageFields(o, { initTab: 'FEED', templateColor: '#000000' });
  const profile = requiredProfile(ctx, form);
  const background = backgroundPart(ctx.store, form) ?? null;
  const rooms = registrationRooms(ctx, account, form);
  const now = stampNow(ctx.store);
  const brandId = newBrandId(ctx.store);
  const page: StoredBrandPage = { ...content, profileImage: profile, backgroundImage: background, approvalResult: '승인대기', approvalReason: null, registerDate: now, approvalDate: null, updateDate: now };
  const brand = emptyBrand(ctx.store, { brandId, brandKey: newBrandKey(brandId), templateColor }, now);
  setPage(brand, page);
  addRooms(ctx, brand, rooms);
  ctx.store.brands.set(brandId, brand);
  account.brands.set(brandId, 'representative');
  return ok([{ brandId }]);
}

/** PUT /corp/brand/{brandId}: a saved or rejected new brand, corrected and sent for review again. */
async function resubmit(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = corpBrand(ctx, 'representative');
  if (!(BRAND_RESUBMITTABLE as readonly string[]).includes(pageOf(brand).approvalResult)) fail('invalidBrandStatus');
  const form = await ctx.multipart();
  const o = regBrandPart(form, true) as Record<string, unknown>;
  const { content, templateColor } = pageFields(o, { initTab: pageOf(brand).initTab, templateColor: brand.templateColor });
  const profile = requiredProfile(ctx, form);
  const background = backgroundPart(ctx.store, form);
  const rooms = registrationRooms(ctx, account, form);
  Object.assign(pageOf(brand), content, { profileImage: profile, approvalResult: '승인대기', approvalReason: null, updateDate: stampNow(ctx.store) });
  if (background !== undefined) pageOf(brand).backgroundImage = background;
  brand.templateColor = templateColor;
  addRooms(ctx, brand, rooms);
  return ok([{ brandId: brand.brandId }]);
}

function requiredProfile(ctx: RequestContext, form: MultipartBody): StoredBrandImage {
  const profile = profilePart(ctx.store, form);
  if (profile === undefined) fail('missingProfileImage');
  return profile;
}

/** The rooms registered with a brand: a `chatbots` part needs the subscription certificate (64305); a bad part is 64343. */
function registrationRooms(ctx: RequestContext, account: StoredAccount, form: MultipartBody): ReturnType<typeof newRooms> {
  if (!form.fields.has('chatbots') && !form.files.has('chatbots')) return [];
  checkCertificate(form, true);
  const part = jsonPart(form, 'chatbots');
  if (typeof part !== 'object' || part === null || !Array.isArray((part as { chatbots?: unknown }).chatbots)) fail('brandChatbotsError');
  return newRooms(ctx, account, part);
}

/** DELETE /corp/brand/{brandId}: a master deletes a new brand never approved (저장, 반려). */
function removeNew(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'representative', true);
  if (!(BRAND_RESUBMITTABLE as readonly string[]).includes(pageOf(brand).approvalResult)) fail('invalidBrandStatus');
  drop(ctx, brand);
  return ok([{ brandId: brand.brandId }]);
}

/** DELETE /corp/{personId}/brand/{brandId}: an approved brand only once its rooms and templates are gone (64351). */
function remove(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'representative', true);
  const state = pageOf(brand).approvalResult;
  if (!['승인', '반려', '저장'].includes(state)) fail('invalidBrandStatus');
  if (state === '승인' && brand.chatbots.size > 0) fail('brandNotEmpty', 'chatbot');
  if (state === '승인' && brand.templates.size > 0) fail('brandNotEmpty', 'messagebase');
  drop(ctx, brand);
  return ok([{ brandId: brand.brandId }]);
}

function drop(ctx: RequestContext, brand: StoredBrand): void {
  ctx.store.brands.delete(brand.brandId);
  for (const a of ctx.store.accounts.values()) a.brands.delete(brand.brandId);
}

/** PUT /corp/brand/{brandId}/cancel: a new brand's pending registration goes back to 저장. */
function cancelNew(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'operator');
  if (pageOf(brand).approvalResult !== '승인대기') fail('invalidBrandStatus');
  Object.assign(pageOf(brand), { approvalResult: '저장', updateDate: stampNow(ctx.store) });
  return ok([{ brandId: brand.brandId }]);
}

/** PUT /corp/{personId}/brand/{brandId}/cancel: a pending review is withdrawn; a modification's name and profile image roll back. */
function cancel(ctx: RequestContext): Reply {
  const { brand } = corpBrand(ctx, 'operator');
  const page = pageOf(brand);
  const to = afterCancel(page.approvalResult);
  if (to === undefined) fail('invalidBrandStatus');
  if (to === '승인' && page.previous !== undefined) Object.assign(page, page.previous);
  delete page.previous;
  Object.assign(page, { approvalResult: to, updateDate: stampNow(ctx.store) });
  return ok([{ brandId: brand.brandId }]);
}

/**
 * A running brand's modification (as a master or manager, or as an agency).
 * The regBrand part replaces the page (initTab and templateColor are kept when
 * left out); a part left out keeps what the brand has. A new name or profile
 * image sends the brand to review (승인대기(수정)); every other field changes at once.
 */
async function modify(ctx: RequestContext, found: { account: StoredAccount; brand: StoredBrand }): Promise<Reply> {
  const { brand } = found;
  const page = pageOf(brand);
  if (!(BRAND_MODIFIABLE as readonly string[]).includes(page.approvalResult)) fail('invalidBrandStatus');
  const form = await ctx.multipart();
  const o = regBrandPart(form, false);
  const next = o === undefined ? undefined : pageFields(o, { initTab: page.initTab, templateColor: brand.templateColor });
  // The document: the home's first tab is chosen at the first approval only.
  if (next !== undefined && BRAND_FIXED_AFTER_APPROVAL.some((f) => next.content[f] !== page[f])) fail('brandPropertyValue');
  const profile = profilePart(ctx.store, form) ?? page.profileImage;
  const background = backgroundPart(ctx.store, form);
  const before = JSON.stringify(comparable(page, brand.templateColor));
  const approved = page.previous ?? { name: page.name, profileImage: page.profileImage };
  const name = next?.content.name ?? page.name;
  const reviewed = name !== approved.name || !sameImage(profile, approved.profileImage);
  Object.assign(page, next?.content ?? {}, { profileImage: profile });
  if (background !== undefined) page.backgroundImage = background;
  if (next !== undefined) brand.templateColor = next.templateColor;
  if (JSON.stringify(comparable(page, brand.templateColor)) === before && page.approvalResult === '승인') fail('noChanges');
  if (reviewed) {
    page.previous = approved;
    page.approvalResult = '승인대기(수정)';
  } else {
    delete page.previous;
    page.approvalResult = '승인';
  }
  page.approvalReason = reviewed ? page.approvalReason : null;
  page.updateDate = stampNow(ctx.store);
  // NotiBrand: a modification, by either route.
  announce(ctx, notice('brand', brand.brandId, {}, 'modified'));
  return ok([brandDetail(ctx, brand)]);
}

function comparable(page: StoredBrandPage, templateColor: string): unknown {
  const { profileImage, backgroundImage, previous: _p, approvalResult: _a, approvalReason: _r, registerDate: _g, approvalDate: _d, updateDate: _u, ...fields } = page;
  return { ...fields, templateColor, profile: profileImage?.bytes.toString('base64') ?? null, background: backgroundImage?.bytes.toString('base64') ?? null };
}

function sameImage(a: StoredBrandImage | null, b: StoredBrandImage | null): boolean {
  return a === b || (a !== null && b !== null && a.bytes.equals(b.bytes));
}

function download(ctx: RequestContext): Reply {
  const id = ctx.params.fileId as string;
  for (const b of ctx.store.brands.values()) {
    for (const image of [pageOf(b).profileImage, pageOf(b).backgroundImage, pageOf(b).previous?.profileImage]) {
      if (image?.fileId === id && image.fileName === ctx.params.fileName) return { status: 200, bytes: image.bytes, contentType: image.contentType };
    }
  }
  failEmulator('notFound');
}
