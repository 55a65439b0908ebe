// The brand page family's state, seed section and review moves (the hooks of
// src/emulator/module.ts): the page lives in the brand's `page` slot, not in a
// field of the shared Brand type (docs/decisions.md, "The brand profile").

import type { RegBrand } from '../../contract/wire.js';
import { BRAND_MENUS, BRAND_STATES } from '../../spec/brand-profile.js';
import { contentTypeOf } from '../files.js';
import { notice } from '../messaging/notifications.js';
import type { EmulatorModule } from '../module.js';
import type { SeedFile } from '../seed-checker.js';
import { standardReview } from '../state-machines.js';
import { blobView, type EmulatorStore, type StoredBlob, type StoredBrand } from '../store.js';

/** A brand image (profile or background), served back like any stored file. */
export interface StoredBrandImage extends StoredBlob {
  fileId: string;
}

/** The fields of a brand's page that a modification may change (RegBrandInfo, without templateColor). */
export interface BrandPageContent {
  name: string;
  description: string;
  tel: string;
  menus: Record<string, unknown>[];
  categoryId: string;
  subCategoryId: string;
  categoryOpt: string | null;
  zipCode: string | null;
  roadAddress: string | null;
  detailAddress: string | null;
  email: string | null;
  webSiteUrl: string | null;
  initTab: string;
  initFeedItem: string | null;
  initFeedItems: string[] | null;
  bizInfoYn: string;
  bizInfoTitle: string | null;
  bizInfoContent: string | null;
  profileImage: StoredBrandImage | null;
  backgroundImage: StoredBrandImage | null;
}

/** The brand's own page and its review state (docs/decisions.md, "The brand profile"). */
export interface StoredBrandPage extends BrandPageContent {
  /** BrandInfo.status, named as the other reviewed objects name their state. */
  approvalResult: string;
  approvalReason: string | null;
  registerDate: string;
  approvalDate: string | null;
  updateDate: string;
  /** The approved name and profile image while a modification of them waits for review, restored by cancel. */
  previous?: { name: string; profileImage: StoredBrandImage | null };
}

/** A seeded brand page (docs/emulator.md, "Seed format"): the page fields a registration sends (RegBrand), any left out taking a plain approved brand's value, with its review state and images. */
export interface SeedBrandPage extends Partial<Omit<RegBrand, 'menus' | 'templateColor' | 'bizInfoYn' | 'bizInfoTitle' | 'bizInfoContent'>> {
  menus?: Record<string, unknown>[];
  approvalResult?: string;
  approvalReason?: string;
  profileImage?: SeedFile;
  backgroundImage?: SeedFile;
}

/** The slot of a brand that holds its page. */
const PAGE_SLOT = 'page';

/** A brand's own page. */
export function pageOf(brand: StoredBrand): StoredBrandPage {
  return brand.slots.get(PAGE_SLOT) as StoredBrandPage;
}

/** Give a brand its page (a registration's, or a seed's). */
export function setPage(brand: StoredBrand, page: StoredBrandPage): void {
  brand.slots.set(PAGE_SLOT, page);
}

/** The page a seeded brand starts with: every field the seed gives, the rest a plain approved brand (*chosen*). */
export function brandPageFromSeed(store: EmulatorStore, brandId: string, seed: SeedBrandPage | undefined, now: string): StoredBrandPage {
  const s = seed ?? {};
  const image = (f: { fileName: string; content?: string } | undefined): StoredBrandImage | null =>
    f === undefined ? null : { fileId: store.nextId('BRF'), fileName: f.fileName, bytes: Buffer.from(f.content ?? '', 'base64'), contentType: contentTypeOf(f.fileName) };
  const status = s.approvalResult ?? '승인';
  return {
    name: s.name ?? brandId,
    description: s.description ?? brandId,
    tel: s.tel ?? '15880000',
    menus: withCall((s.menus ?? []).map((m) => ({ ...m }))),
    categoryId: s.categoryId ?? 'ETC',
    subCategoryId: s.subCategoryId ?? 'ETC001',
    categoryOpt: s.categoryOpt ?? null,
    zipCode: s.zipCode ?? null,
    roadAddress: s.roadAddress ?? null,
    detailAddress: s.detailAddress ?? null,
    email: s.email ?? null,
    webSiteUrl: s.webSiteUrl ?? null,
    initTab: s.initTab ?? 'FEED',
    initFeedItem: s.initFeedItem ?? null,
    initFeedItems: s.initFeedItems ?? null,
    bizInfoYn: 'N',
    bizInfoTitle: null,
    bizInfoContent: null,
    profileImage: image(s.profileImage),
    backgroundImage: image(s.backgroundImage),
    approvalResult: status,
    approvalReason: s.approvalReason ?? null,
    registerDate: now,
    approvalDate: status === '승인' ? now : null,
    updateDate: now,
  };
}

/** The menus with a call button added when the service adds one (below BRAND_MENUS.callAddedBelow, none given). */
export function withCall(menus: Record<string, unknown>[]): Record<string, unknown>[] {
  if (menus.length < BRAND_MENUS.callAddedBelow && !menus.some((m) => m.buttonType === 'call')) return [...menus, { buttonType: 'call' }];
  return menus;
}

/** The brand page family's hooks: a plain approved page for every new brand, the seed's `page:`, the `brand` review kind. */
export const BRAND_PAGE_HOOKS: Omit<EmulatorModule, 'routes'> = {
  state: {
    slot: PAGE_SLOT,
    create: (store, brandId, now) => brandPageFromSeed(store, brandId, undefined, now),
    dump: (state) => {
      const { profileImage, backgroundImage, previous, ...rest } = state as StoredBrandPage;
      return {
        ...rest,
        profileImage: profileImage ? { fileId: profileImage.fileId, ...blobView(profileImage) } : null,
        backgroundImage: backgroundImage ? { fileId: backgroundImage.fileId, ...blobView(backgroundImage) } : null,
        previous: previous ? { name: previous.name, profileImage: previous.profileImage ? blobView(previous.profileImage) : null } : null,
      };
    },
  },
  seed: {
    key: 'page',
    check: (c, value, q) => {
      const page = c.object(value, q);
      for (const k of ['name', 'description', 'tel', 'categoryId', 'subCategoryId', 'categoryOpt', 'zipCode', 'roadAddress', 'detailAddress', 'email', 'webSiteUrl', 'initTab', 'initFeedItem', 'approvalReason']) c.optional(page, k, 'string', q);
      if (page.approvalResult !== undefined) c.enumOf(page.approvalResult, BRAND_STATES, `${q}.approvalResult`);
      if (page.menus !== undefined) c.array(page.menus, `${q}.menus`);
      for (const k of ['profileImage', 'backgroundImage']) {
        if (page[k] === undefined) continue;
        const f = c.object(page[k], `${q}.${k}`);
        c.required(f, 'fileName', 'string', `${q}.${k}`);
        c.optional(f, 'content', 'string', `${q}.${k}`);
      }
    },
    apply: (store, brand, value, now) => setPage(brand, brandPageFromSeed(store, brand.brandId, value as SeedBrandPage, now)),
  },
  review: {
    // A brand's own review: `id` is the brandId again.
    brand: {
      states: BRAND_STATES,
      find: (brand, id) => (id === brand.brandId ? pageOf(brand) : undefined),
      transition: standardReview,
      // NotiBrand knows rejected and modified: an approval is announced as a modification.
      notice: (brand, id, to) => {
        if (to === '승인') return notice('brand', id, {}, 'modified');
        if (to === '반려' || to === '반려(수정)') return notice('brand', id, {}, 'rejected', pageOf(brand).approvalReason);
        return undefined;
      },
    },
  },
};
