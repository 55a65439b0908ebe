// The `brandProfile:` section: one object, the brand's own page. Its images are
// checked against the document's rules as they are read (the message names the
// file and the rule).

import type { FileUse } from '../../manifest/local-files.js';
import { BRAND_BACKGROUND_IMAGE, BRAND_PROFILE_IMAGE, type BrandImageRule } from '../../spec/brand-profile.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import { PROFILE_KEY, type DesiredHomeButton, type DesiredProfile } from './types.js';

/** An image rule as the loader checks a local file. */
function imageUse(rule: BrandImageRule, label: string): FileUse {
  return {
    label,
    extensions: rule.extensions,
    maxBytes: rule.maxBytes,
    image: true,
    dimensions(width, height) {
      if (width !== height) return 'the service takes square images only';
      if (width < rule.minPx || width > rule.maxPx) return `the service takes ${rule.minPx} to ${rule.maxPx} px`;
      return undefined;
    },
  };
}

/** The profile image: png, square, 388 to 1,080 px, at most 1 MB. */
export const PROFILE_IMAGE = imageUse(BRAND_PROFILE_IMAGE, 'brand profile image');
/** The background image: jpg or png, square, 388 to 1,080 px, at most 1 MB. */
export const BACKGROUND_IMAGE = imageUse(BRAND_BACKGROUND_IMAGE, 'brand background image');

interface RawButton {
  type: string;
  urlAction?: { openUrl: { url: string } };
  appLink?: { packageName: string; action: string; uri: string };
}

type RawProfile = Omit<DesiredProfile, 'menus' | 'profileImage' | 'backgroundImage' | 'source'> & { menus?: RawButton[]; profileImage: string; backgroundImage?: string };

const TEXT_FIELDS = ['account', 'keywords', 'zipCode', 'roadAddress', 'detailAddress', 'email', 'webSiteUrl', 'initTab', 'initFeedItem', 'templateColor'] as const;

/** The profile section. */
export const profileManifest: KindManifest = {
  section: 'brandProfile',
  single: true,
  order: 60,
  schema,
  async build(raw, ctx) {
    const p = raw as unknown as RawProfile;
    if (!ctx.once(PROFILE_KEY, 'RCS403', 'brandProfile')) return;
    const profileImage = await ctx.file(['brandProfile', 'profileImage'], p.profileImage, PROFILE_IMAGE);
    const backgroundImage = p.backgroundImage === undefined ? undefined : await ctx.file(['brandProfile', 'backgroundImage'], p.backgroundImage, BACKGROUND_IMAGE);
    if (profileImage === undefined || (p.backgroundImage !== undefined && backgroundImage === undefined)) return;
    const d: DesiredProfile = {
      name: p.name,
      description: p.description,
      tel: p.tel,
      categoryId: p.categoryId,
      subCategoryId: p.subCategoryId,
      profileImage,
      source: ctx.locationOf(['brandProfile']),
      ...(backgroundImage !== undefined ? { backgroundImage } : {}),
      ...(p.menus !== undefined ? { menus: p.menus.map(button) } : {}),
    };
    for (const f of TEXT_FIELDS) if (p[f] !== undefined) d[f] = p[f];
    ctx.add(PROFILE_KEY, d);
  },
};

function button(b: RawButton): DesiredHomeButton {
  return { type: b.type, ...(b.urlAction !== undefined ? { url: b.urlAction.openUrl.url } : {}), ...(b.appLink !== undefined ? { appLink: b.appLink } : {}) };
}
