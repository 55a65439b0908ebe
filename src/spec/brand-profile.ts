// The brand's own page (its home on a handset): field lengths, enumerations,
// home-screen buttons and the image rules, as the public OpenAPI document gives
// them (RegBrandInfo, BrandDetail, MenuItemInfo, the brandProfile and
// brandBackground parts; docs/decisions.md, "The brand profile"). Shared by the
// manifest schema, the profile kind and the emulator.

/** Maximum string lengths of RegBrandInfo and BrandDetail, by field. */
export const BRAND_LENGTH = {
  name: 20,
  description: 150,
  tel: 12,
  categoryId: 64,
  subCategoryId: 64,
  categoryOpt: 20,
  zipCode: 5,
  roadAddress: 200,
  detailAddress: 200,
  email: 30,
  webSiteUrl: 128,
  templateColor: 10,
  bizInfoTitle: 20,
  bizInfoContent: 200,
  weblink: 128,
  applinkPart: 40,
  personId: 20,
  agencyId: 20,
} as const;

/** Brand states (BrandInfo.status). */
export const BRAND_STATES = ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'] as const;

/** States in which a running brand may be modified (PUT /corp/{personId}/brand/{brandId}). */
export const BRAND_MODIFIABLE = ['승인', '반려(수정)'] as const;

/** States in which a new or saved brand may be corrected and sent for approval again (PUT /corp/brand/{brandId}). */
export const BRAND_RESUBMITTABLE = ['저장', '반려'] as const;

/** States in which a brand review is pending and can be withdrawn. */
export const BRAND_PENDING = ['승인대기', '승인대기(수정)'] as const;

/**
 * The fields chosen at the brand's first approval that no modification may
 * change (a different value is `64337`;
 * docs/decisions.md, "Fields fixed at the first approval").
 */
export const BRAND_FIXED_AFTER_APPROVAL = ['initTab'] as const;

/** The fields whose change sends a running brand back to operator review. */
export const BRAND_REVIEWED_FIELDS = ['name', 'profileImage'] as const;

/** Enumerations of the brand page. */
export const BRAND_ENUMS = {
  initTab: ['FEED', 'INFO'],
  initFeedItem: ['TEL', 'HOME', 'SEARCH'],
  /** Home-screen button types (MenuItemInfo.buttonType). */
  buttonType: ['call', 'web', 'app', 'store', 'order', 'buy', 'tickets', 'moreinfo'],
  /** initFeedItems: a button type of `menus`, or the feed-only portal search. */
  feedItem: ['call', 'web', 'store', 'order', 'buy', 'tickets', 'moreinfo', 'portalsearch'],
  bizInfoYn: ['Y', 'N'],
} as const;

/** Home-screen buttons: at most three (chat is always there); fewer than three without call get call added. */
export const BRAND_MENUS = { max: 3, callAddedBelow: 3 } as const;

/** One image rule: its formats, its square size range and its byte limit. */
export interface BrandImageRule {
  /** The multipart part that carries it. */
  part: 'brandProfile' | 'brandBackground';
  extensions: readonly string[];
  minPx: number;
  maxPx: number;
  maxBytes: number;
}

/** The profile image: png only, square, 388 to 1,080 px, at most 1 MB. */
export const BRAND_PROFILE_IMAGE: BrandImageRule = { part: 'brandProfile', extensions: ['png'], minPx: 388, maxPx: 1080, maxBytes: 1024 * 1024 };

/** The background image: jpg or png, square, 388 to 1,080 px, at most 1 MB. */
export const BRAND_BACKGROUND_IMAGE: BrandImageRule = { part: 'brandBackground', extensions: ['jpg', 'jpeg', 'png'], minPx: 388, maxPx: 1080, maxBytes: 1024 * 1024 };

/** A template colour: a hex code. */
export const TEMPLATE_COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** What breaks an image rule, in words naming the rule; undefined when the image keeps it. */
export function brandImageProblem(rule: BrandImageRule, extension: string, bytes: number, width: number | undefined, height: number | undefined): string | undefined {
  if (!rule.extensions.includes(extension.toLowerCase())) return `must be ${rule.extensions.filter((e) => e !== 'jpeg').join(' or ')}`;
  if (bytes > rule.maxBytes) return `must be at most 1 MB (${bytes} bytes)`;
  if (width === undefined || height === undefined) return 'has no readable size';
  if (width !== height) return `must be square (${width}x${height})`;
  if (width < rule.minPx || width > rule.maxPx) return `must be ${rule.minPx} to ${rule.maxPx} px wide (${width}x${height})`;
  return undefined;
}
