// The brand page as the brand routes read and write it: the regBrand part
// (RegBrandInfo) checked field by field, the brandProfile and brandBackground
// images checked against their rules, the answers (BrandInfo, BrandDetail) and
// the category list (the public OpenAPI document;
// docs/decisions.md, "The brand profile").

import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import {
  BRAND_BACKGROUND_IMAGE,
  BRAND_ENUMS,
  BRAND_LENGTH,
  BRAND_MENUS,
  BRAND_PROFILE_IMAGE,
  TEMPLATE_COLOR_PATTERN,
  type BrandImageRule,
} from '../../spec/brand-profile.js';
import { formatServiceTime } from '../../util/time.js';
import { contentTypeOf, unreadableUpload } from '../files.js';
import { withUnset, type RequestContext } from '../http-types.js';
import type { MultipartBody, UploadedFile } from '../multipart.js';
import { fail } from '../service-error.js';
import type { EmulatorStore, StoredBrand } from '../store.js';
import { pageOf, withCall, type BrandPageContent, type StoredBrandImage, type StoredBrandPage } from './brand-state.js';
import { extensionOf } from '../validate.js';

/** A category and its sub-categories (the Category schema). */
export interface BrandCategory {
  categoryId: string;
  categoryName: string;
  subCategories: { subCategoryId: string; subCategoryName: string }[];
}

/** The categories the emulator offers (*chosen*: the document's example FIN/FIN001 and a few more). */
export const BRAND_CATEGORIES: readonly BrandCategory[] = [
  { categoryId: 'FIN', categoryName: '금융', subCategories: [{ subCategoryId: 'FIN001', subCategoryName: '은행' }, { subCategoryId: 'FIN002', subCategoryName: '카드' }, { subCategoryId: 'FIN003', subCategoryName: '보험' }] },
  { categoryId: 'SHP', categoryName: '쇼핑', subCategories: [{ subCategoryId: 'SHP001', subCategoryName: '종합쇼핑' }, { subCategoryId: 'SHP002', subCategoryName: '식품' }] },
  { categoryId: 'TRV', categoryName: '여행/교통', subCategories: [{ subCategoryId: 'TRV001', subCategoryName: '항공' }, { subCategoryId: 'TRV002', subCategoryName: '숙박' }] },
  { categoryId: 'ETC', categoryName: '기타', subCategories: [{ subCategoryId: 'ETC001', subCategoryName: '기타' }] },
];

/** When the categories last changed (Category.updateDate; *chosen*). */
const CATEGORIES_UPDATED = '2020-11-10T06:22:55.418+09';

/** The category list answer items. */
export function categoryView(): Record<string, unknown>[] {
  return BRAND_CATEGORIES.map((c) => ({ ...c, subCategories: c.subCategories.map((s) => ({ ...s })), updateDate: CATEGORIES_UPDATED }));
}

/** The regBrand part: RegBrandInfo, `{regBrand: {...}}`, as a text field or a file part; 64342 when it is not one. */
export function regBrandPart(form: MultipartBody, required: boolean): Record<string, unknown> | undefined {
  const text = form.fields.get('regBrand') ?? form.files.get('regBrand')?.bytes.toString('utf8');
  if (text === undefined || text.trim() === '') {
    if (required) fail('requiredValue', 'regBrand');
    return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    fail('invalidJson');
  }
  const inner = isObject(doc) ? doc.regBrand : undefined;
  if (!isObject(inner)) fail('regBrandError');
  return inner;
}

/** The page fields of a regBrand object; `kept` gives initTab and templateColor when the object leaves them out. */
export function pageFields(o: Record<string, unknown>, kept: { initTab: string; templateColor: string }): { content: Omit<BrandPageContent, 'profileImage' | 'backgroundImage'>; templateColor: string } {
  const menus = parseMenus(o.menus);
  const initFeedItems = o.initFeedItems === undefined || o.initFeedItems === null ? null : feedItems(o.initFeedItems, menus);
  const categoryId = required(o, 'categoryId');
  const subCategoryId = required(o, 'subCategoryId');
  const category = BRAND_CATEGORIES.find((c) => c.categoryId === categoryId);
  if (category === undefined || !category.subCategories.some((s) => s.subCategoryId === subCategoryId)) fail('brandPropertyValue');
  const email = optional(o, 'email');
  if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail('brandPropertyValue');
  const zipCode = optional(o, 'zipCode');
  if (zipCode !== null && !/^\d{5}$/.test(zipCode)) fail('brandPropertyValue');
  const templateColor = optional(o, 'templateColor') ?? kept.templateColor;
  if (!TEMPLATE_COLOR_PATTERN.test(templateColor)) fail('brandPropertyValue');
  const bizInfoYn = oneOf(o, 'bizInfoYn', BRAND_ENUMS.bizInfoYn) ?? 'N';
  return {
    content: {
      name: required(o, 'name'),
      description: required(o, 'description'),
      tel: required(o, 'tel'),
      menus,
      categoryId,
      subCategoryId,
      categoryOpt: optional(o, 'categoryOpt'),
      zipCode,
      roadAddress: optional(o, 'roadAddress'),
      detailAddress: optional(o, 'detailAddress'),
      email,
      webSiteUrl: optional(o, 'webSiteUrl'),
      initTab: oneOf(o, 'initTab', BRAND_ENUMS.initTab) ?? kept.initTab,
      initFeedItem: oneOf(o, 'initFeedItem', BRAND_ENUMS.initFeedItem),
      initFeedItems,
      bizInfoYn,
      bizInfoTitle: bizInfoYn === 'Y' ? optional(o, 'bizInfoTitle') : null,
      bizInfoContent: bizInfoYn === 'Y' ? optional(o, 'bizInfoContent') : null,
    },
    templateColor,
  };
}

/**
 * Home-screen buttons: at most three, `app` refused (the document: not
 * registrable since December 2020), a web link on every type but call; fewer
 * than three without call get call added, as the service does.
 */
function parseMenus(raw: unknown): Record<string, unknown>[] {
  if (raw === undefined || raw === null) return withCall([]);
  if (!Array.isArray(raw) || raw.length > BRAND_MENUS.max) fail('brandPropertyValue');
  const seen = new Set<string>();
  const menus = raw.map((item) => {
    if (!isObject(item)) fail('brandPropertyValue');
    const buttonType = item.buttonType;
    if (typeof buttonType !== 'string' || !(BRAND_ENUMS.buttonType as readonly string[]).includes(buttonType) || buttonType === 'app' || seen.has(buttonType)) fail('brandPropertyValue');
    seen.add(buttonType);
    const out: Record<string, unknown> = { buttonType };
    if (buttonType !== 'call') {
      const weblink = item.weblink;
      if (typeof weblink !== 'string' || !/^https?:\/\//.test(weblink)) fail('brandPropertyValue');
      if (weblink.length > BRAND_LENGTH.weblink) fail('brandPropertySize');
      out.weblink = weblink;
    }
    if (item.applink !== undefined && item.applink !== null) {
      if (!isObject(item.applink)) fail('brandPropertyValue');
      const applink: Record<string, string> = {};
      for (const k of ['packageName', 'action', 'uri']) {
        const v = item.applink[k];
        if (typeof v !== 'string' || v === '') fail('requiredValue', `applink.${k}`);
        if (v.length > BRAND_LENGTH.applinkPart) fail('brandPropertySize');
        applink[k] = v;
      }
      out.applink = applink;
    }
    return out;
  });
  return withCall(menus);
}


/** initFeedItems: each a type of `menus` or portalsearch (the document: anything else is an error). */
function feedItems(raw: unknown, menus: Record<string, unknown>[]): string[] {
  if (!Array.isArray(raw)) fail('brandPropertyValue');
  const types = new Set(menus.map((m) => m.buttonType));
  for (const v of raw) if (typeof v !== 'string' || !(BRAND_ENUMS.feedItem as readonly string[]).includes(v) || (v !== 'portalsearch' && !types.has(v))) fail('brandPropertyValue');
  return raw as string[];
}

/** An uploaded brand image checked against its rule (64332 or 64333 format, 64331 size, 64394 ratio, 64335 dimensions). */
export function brandImage(store: EmulatorStore, file: UploadedFile, rule: BrandImageRule): StoredBrandImage {
  if (!rule.extensions.includes(extensionOf(file.filename))) fail(rule === BRAND_PROFILE_IMAGE ? 'brandProfileOnlyPng' : 'brandImageExtension');
  if (file.bytes.length > rule.maxBytes) fail('brandImageTooLarge');
  if (unreadableUpload(file.bytes, file.filename)) fail(rule === BRAND_PROFILE_IMAGE ? 'brandProfileOnlyPng' : 'brandImageExtension');
  let size: { width?: number; height?: number };
  try {
    size = imageSize(file.bytes);
  } catch {
    fail('brandImageExtension');
  }
  const { width = 0, height = 0 } = size;
  if (width !== height) fail('brandImageRatio');
  if (width < rule.minPx || width > rule.maxPx) fail('brandImageSize');
  return { fileId: store.nextId('BRF'), fileName: file.filename, bytes: file.bytes, contentType: contentTypeOf(file.filename) };
}

/** What the form says of the background: a new image, removal (the part without a file), or nothing (undefined). */
export function backgroundPart(store: EmulatorStore, form: MultipartBody): StoredBrandImage | null | undefined {
  const file = form.files.get(BRAND_BACKGROUND_IMAGE.part);
  if (file !== undefined && file.bytes.length > 0) return brandImage(store, file, BRAND_BACKGROUND_IMAGE);
  if (file !== undefined || form.fields.has(BRAND_BACKGROUND_IMAGE.part)) return null;
  return undefined;
}

/** The profile image part, when one is sent with bytes. */
export function profilePart(store: EmulatorStore, form: MultipartBody): StoredBrandImage | undefined {
  const file = form.files.get(BRAND_PROFILE_IMAGE.part);
  return file !== undefined && file.bytes.length > 0 ? brandImage(store, file, BRAND_PROFILE_IMAGE) : undefined;
}

/** The URL a brand image is served at (the brand module's own download route). */
export function brandImageUrl(baseUrl: string, image: StoredBrandImage): string {
  return `${baseUrl}/files/brand/${encodeURIComponent(image.fileId)}/${encodeURIComponent(image.fileName)}`;
}

/** The name and profile image a read shows: the approved ones while a modification is past review but not yet with the carriers (검수완료(수정)). */
function shown(page: StoredBrandPage): { name: string; profileImage: StoredBrandImage | null } {
  return page.approvalResult === '검수완료(수정)' && page.previous !== undefined ? page.previous : page;
}

/** BrandInfo: the list item. */
export function brandInfo(ctx: RequestContext, brand: StoredBrand): Record<string, unknown> {
  const page = pageOf(brand);
  const { name, profileImage } = shown(page);
  const media = [
    ...(profileImage ? [{ fileId: profileImage.fileId, url: brandImageUrl(ctx.baseUrl, profileImage), typeName: 'profile', fileName: profileImage.fileName }] : []),
    ...(page.backgroundImage ? [{ fileId: page.backgroundImage.fileId, url: brandImageUrl(ctx.baseUrl, page.backgroundImage), typeName: 'background', fileName: page.backgroundImage.fileName }] : []),
  ];
  return withUnset(ctx.store, {
    brandId: brand.brandId,
    name,
    brandKey: brand.brandKey,
    registerDate: page.registerDate,
    approvalDate: page.approvalDate,
    updateDate: page.updateDate,
    status: page.approvalResult,
    mediaUrl: media,
    chatbotDate: latest([...brand.chatbots.values()].map((c) => c.updateDate)),
    messagebaseDate: latest([...brand.templates.values()].map((t) => t.updateDate)),
  });
}

/** BrandDetail: BrandInfo and every page field. */
export function brandDetail(ctx: RequestContext, brand: StoredBrand): Record<string, unknown> {
  const p = pageOf(brand);
  const category = BRAND_CATEGORIES.find((c) => c.categoryId === p.categoryId);
  return withUnset(ctx.store, {
    ...brandInfo(ctx, brand),
    description: p.description,
    tel: p.tel,
    menus: p.menus.map((m) => ({ ...m })),
    categoryId: p.categoryId,
    categoryName: category?.categoryName ?? null,
    subCategoryId: p.subCategoryId,
    subCategoryName: category?.subCategories.find((s) => s.subCategoryId === p.subCategoryId)?.subCategoryName ?? null,
    categoryOpt: p.categoryOpt,
    zipCode: p.zipCode,
    roadAddress: p.roadAddress,
    detailAddress: p.detailAddress,
    email: p.email,
    webSiteUrl: p.webSiteUrl,
    approvalReason: p.approvalReason,
    // Generated when the home opens on the news tab (the document: made by the service, never sent).
    brandFeedUrl: p.initTab === 'FEED' ? `${ctx.baseUrl}/feed/${encodeURIComponent(brand.brandId)}` : null,
    initTab: p.initTab,
    initFeedItem: p.initFeedItem,
    initFeedItems: p.initFeedItems,
    templateColor: brand.templateColor,
    bizInfoYn: p.bizInfoYn,
    bizInfoTitle: p.bizInfoTitle,
    bizInfoContent: p.bizInfoContent,
  });
}

function latest(dates: string[]): string | null {
  return dates.length === 0 ? null : dates.reduce((a, b) => (b > a ? b : a));
}

/** A new brand's id, `BR.` and ten characters, the same for the same counter on every run. */
export function newBrandId(store: EmulatorStore): string {
  return 'BR.' + String(store.next('BR')).padStart(10, '0');
}

/** An 18-character brand key for a new brand. */
export function newBrandKey(brandId: string): string {
  return 'BK.' + createHash('sha256').update(`key:${brandId}`).digest('hex').slice(0, 15);
}

/** The service time of a write. */
export function stampNow(store: EmulatorStore): string {
  return formatServiceTime(new Date(store.stamp()));
}

function required(o: Record<string, unknown>, field: keyof typeof BRAND_LENGTH): string {
  const v = o[field];
  if (v === undefined || v === null || v === '') fail('requiredValue', field);
  return checked(v, field);
}

function optional(o: Record<string, unknown>, field: keyof typeof BRAND_LENGTH): string | null {
  const v = o[field];
  if (v === undefined || v === null || v === '') return null;
  return checked(v, field);
}

function oneOf(o: Record<string, unknown>, field: string, allowed: readonly string[]): string | null {
  const v = o[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !allowed.includes(v)) fail('brandPropertyValue');
  return v;
}

function checked(v: unknown, field: keyof typeof BRAND_LENGTH): string {
  if (typeof v !== 'string') fail('invalidType', field);
  if (v.length > BRAND_LENGTH[field]) fail('brandPropertySize');
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
