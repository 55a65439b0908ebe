// The brand profile, the pure part: one page per brand, compared field by
// field; the images by content-addressed file name, so an unchanged image is
// never sent again. A new name or profile image goes to operator review; any
// other change applies at once. While a review is pending, changes are
// blocked (--cancel-review withdraws a pending modification first).

import type { BrandDetail, BrandMenuItem, RegBrand } from '../../contract/wire.js';
import { stepFile, type FieldChange, type Gate, type StepFile } from '../../core/step.js';
import { BRAND_FIXED_AFTER_APPROVAL, BRAND_MENUS, BRAND_MODIFIABLE } from '../../spec/brand-profile.js';
import { compact } from '../../util/compact.js';
import { notRead, unmatched, wasNotRead } from '../match.js';
import type { CreateChecked, Drawn, KindPlanning, MatchResult, Plural, Previewable, Reviewed } from '../resource-kind.js';
import { homePreview } from './preview.js';
import { PROFILE_KEY, type DesiredHomeButton, type DesiredProfile } from './types.js';

/** The fields whose change goes to review, as the plan names them. */
export const REVIEWED = ['name', 'profileImage'] as const;

/** A pending review `--cancel-review` withdraws: a modification waiting in the queue. */
const CANCELLABLE = ['승인대기(수정)'];

/** What an update sends: the whole page, the images that changed, and the account it acts as. */
export interface ProfileRequest {
  personId: string;
  regBrand: RegBrand;
  profile?: StepFile;
  /** null: remove the background. */
  background?: StepFile | null;
  cancelReview?: true;
}

/** A live brand page with the account it was read as. */
export type LiveProfile = BrandDetail & { personId: string };

/** The profile kind's pure part. */
export const profilePlanning: KindPlanning<DesiredProfile, LiveProfile, 'brandProfile'> & Previewable<DesiredProfile> & Drawn<DesiredProfile> & Reviewed & CreateChecked<DesiredProfile> & Plural = {
  name: 'brandProfile',
  label: 'brand profile',
  reviewed: 'brand name or profile image',
  plural: 'brand profiles',
  preview: homePreview<DesiredProfile>((d) => ({
    name: d.name,
    description: d.description,
    profileImage: d.profileImage,
    ...(d.backgroundImage !== undefined ? { backgroundImage: d.backgroundImage } : {}),
    // In the auto-reply action vocabulary: a link opens its URL, call dials the brand's tel.
    buttons: homeButtons(d.menus).map((b) =>
      b.url !== undefined
        ? { action: { displayText: b.type, urlAction: { openUrl: { url: b.url } } } }
        : { action: { displayText: b.type, dialerAction: { dialPhoneNumber: { phoneNumber: d.tel } } } },
    ),
    source: d.source,
  })),
  drawing: {
    colour: ['#fff4d6', '#7a5a00'],
    details: (d) => [d.tel, ...(d.webSiteUrl !== undefined ? [d.webSiteUrl] : [])],
    links: (d) => homeButtons(d.menus).flatMap((b) => (b.url !== undefined ? [{ to: `link.${b.url}`, label: b.type, outside: true }] : [])),
  },

  desired: (brand) => [...(brand.brandProfile?.values() ?? [])],
  // A page not read (the account unknown or refused: profileProblems says why) is no brand missing.
  live: (live) => (live.brandProfile?.unread !== undefined ? notRead() : live.brandProfile?.page ? [live.brandProfile.page] : []),
  identity: {
    key: () => PROFILE_KEY,
    desiredName: (d) => d.name,
    liveId: (l) => l.brandId,
    liveName: (l) => l.name,
    liveState: (l) => l.status,
  },

  diff: {
    match(desired, live): MatchResult<DesiredProfile, LiveProfile> {
      if (wasNotRead(live)) return unmatched();
      const d = desired[0];
      const l = live[0];
      if (d === undefined) return { pairs: [], missing: [], extra: [...live], problems: [] };
      return l === undefined ? { pairs: [], missing: [d], extra: [], problems: [] } : { pairs: [[d, l]], missing: [], extra: [], problems: [] };
    },
    normaliseLive: (l) =>
      compact({
        ...pageFields(l),
        profileImage: imageOf(l, 'profile'),
        backgroundImage: imageOf(l, 'background'),
      }),
    normaliseDesired: (d, _ctx, l) =>
      compact({
        name: d.name,
        description: d.description,
        tel: d.tel,
        categoryId: d.categoryId,
        subCategoryId: d.subCategoryId,
        keywords: d.keywords,
        zipCode: d.zipCode,
        roadAddress: d.roadAddress,
        detailAddress: d.detailAddress,
        email: d.email,
        webSiteUrl: d.webSiteUrl,
        // Left out: what the brand has (the tab is chosen once; the colour colours its templates).
        initTab: d.initTab ?? l?.initTab ?? undefined,
        initFeedItem: d.initFeedItem ?? l?.initFeedItem ?? undefined,
        templateColor: d.templateColor ?? l?.templateColor ?? undefined,
        menus: homeButtons(d.menus),
        profileImage: d.profileImage.uploadName,
        backgroundImage: d.backgroundImage?.uploadName,
      }),
    createStep: () => undefined,
    updateStep(d, l, ctx, seed) {
      const changed = new Set(seed.changes.map((c) => c.path.split(/[.[]/)[0]));
      const request: ProfileRequest = {
        personId: l.personId,
        regBrand: regBrand(d, l),
        ...(changed.has('profileImage') ? { profile: stepFile(d.profileImage) } : {}),
        ...(changed.has('backgroundImage') ? { background: d.backgroundImage === undefined ? null : stepFile(d.backgroundImage) } : {}),
      };
      if (ctx.options?.cancelReview === true && CANCELLABLE.includes(l.status)) {
        request.cancelReview = true;
        return { ...seed, op: 'update', liveId: l.brandId, readAs: l.personId, request, gate: cancelGate(l, seed.changes) };
      }
      return { ...seed, op: 'update', liveId: l.brandId, readAs: l.personId, request };
    },
  },

  createProblems: (d) => [
    {
      code: 'BRAND_NOT_FOUND',
      address: `brandProfile.${PROFILE_KEY}`,
      message: `brand not found: register it in the console or with POST /corp/brand (rcsctl does not register brands: the service chooses a new brand's id), then name that id in brand.id`,
      file: d.source.file,
      line: d.source.line,
    },
  ],

  gates: {
    create: () => ({ type: 'none' }),
    update: (l, changes) => updateGate(l.status, changes),
    delete: () => ({ type: 'blocked', state: 'any', reason: 'rcsctl never deletes a brand' }),
  },
};

/** The review gate, naming the changed fields that send the brand to review; blocked while a review is pending or when a field fixed at the first approval changes. */
function updateGate(state: string, changes: FieldChange[]): Gate {
  const fixed = fixedGate(state, changes);
  if (fixed !== undefined) return fixed;
  if (!(BRAND_MODIFIABLE as readonly string[]).includes(state)) {
    const how = CANCELLABLE.includes(state) ? '; rerun with --cancel-review to withdraw the pending modification first' : '';
    return { type: 'blocked', state, reason: `the brand is under review (${state}); the service accepts changes only in ${BRAND_MODIFIABLE.join(', ')}${how}` };
  }
  const reviewed = reviewedFields(changes);
  if (reviewed.length === 0) return { type: 'none' };
  const rest = changes.map((c) => topField(c.path)).filter((f, i, all) => !(REVIEWED as readonly string[]).includes(f) && all.indexOf(f) === i);
  const also = rest.length > 0 ? `; ${rest.join(', ')} change at once` : '';
  return { type: 'review', review: `the brand goes back to operator review (${state} → 승인대기(수정))${also}`, fields: reviewed };
}

/**
 * Blocked when a field the brand chose at its first approval would change: a
 * brand rcsctl may modify has been approved (the modification route takes
 * approved brands only), and the service refuses any other value (64337).
 */
function fixedGate(state: string, changes: FieldChange[]): Gate | undefined {
  const fixed = changes.filter((c) => (BRAND_FIXED_AFTER_APPROVAL as readonly string[]).includes(topField(c.path)));
  if (fixed.length === 0) return undefined;
  const names = fixed.map((c) => c.path).join(', ');
  const live = fixed.map((c) => `${c.path}: ${JSON.stringify(c.before)}`).join(', ');
  const one = fixed.length === 1;
  return {
    type: 'blocked',
    state,
    reason: `${names} ${one ? 'is' : 'are'} chosen at the brand's first approval and the service refuses any change afterwards (64337); leave ${one ? 'it' : 'them'} out of the manifest or write the live value (${live})`,
  };
}

function cancelGate(l: LiveProfile, changes: FieldChange[]): Gate {
  const fixed = fixedGate(l.status, changes);
  if (fixed !== undefined) return fixed;
  const gate = updateGate('승인', changes);
  const review = gate.type === 'review' ? gate.review : 'nothing goes back to review: the changes apply at once';
  return { type: 'review', review, ...(gate.type === 'review' && gate.fields !== undefined ? { fields: gate.fields } : {}), withdraws: `the pending modification (${l.status}) is withdrawn first (→ 승인, the approved name and profile image), which gives up its place in the queue` };
}

/** The changed fields that go to review, in the plan's words. */
export function reviewedFields(changes: FieldChange[]): string[] {
  const fields = new Set(changes.map((c) => topField(c.path)));
  return REVIEWED.filter((f) => fields.has(f));
}

function topField(path: string): string {
  return path.split(/[.[]/)[0] as string;
}

/** The buttons as the service keeps them: fewer than three without call get call added. */
export function homeButtons(menus: DesiredHomeButton[] | undefined): DesiredHomeButton[] {
  const list = (menus ?? []).map((b) => compact({ type: b.type, url: b.url, appLink: b.appLink }) as DesiredHomeButton);
  if (list.length < BRAND_MENUS.callAddedBelow && !list.some((b) => b.type === 'call')) list.push({ type: 'call' });
  return list;
}

/** The page fields of a live brand, in the manifest's words. */
function pageFields(l: BrandDetail): Record<string, unknown> {
  return {
    name: l.name,
    description: l.description,
    tel: l.tel,
    categoryId: l.categoryId,
    subCategoryId: l.subCategoryId,
    keywords: l.categoryOpt ?? undefined,
    zipCode: l.zipCode ?? undefined,
    roadAddress: l.roadAddress ?? undefined,
    detailAddress: l.detailAddress ?? undefined,
    email: l.email ?? undefined,
    webSiteUrl: l.webSiteUrl ?? undefined,
    initTab: l.initTab ?? undefined,
    initFeedItem: l.initFeedItem ?? undefined,
    templateColor: l.templateColor ?? undefined,
    menus: (l.menus ?? []).map(liveButton),
  };
}

/** A live home button in the manifest's words. */
export function liveButton(m: BrandMenuItem): DesiredHomeButton {
  return compact({ type: m.buttonType, url: m.weblink, appLink: m.applink }) as DesiredHomeButton;
}

/** The file name of the live image of a type, if the brand has one. */
export function imageOf(l: BrandDetail, typeName: 'profile' | 'background'): string | undefined {
  return l.mediaUrl?.find((m) => m.typeName === typeName)?.fileName ?? undefined;
}

/** The regBrand part: the desired page; what the manifest leaves out keeps the live value where the service would keep it. */
function regBrand(d: DesiredProfile, l: LiveProfile): RegBrand {
  return compact({
    name: d.name,
    description: d.description,
    tel: d.tel,
    menus: homeButtons(d.menus).map((b) => compact({ buttonType: b.type, weblink: b.url, applink: b.appLink }) as BrandMenuItem),
    categoryId: d.categoryId,
    subCategoryId: d.subCategoryId,
    categoryOpt: d.keywords,
    zipCode: d.zipCode,
    roadAddress: d.roadAddress,
    detailAddress: d.detailAddress,
    email: d.email,
    webSiteUrl: d.webSiteUrl,
    initTab: d.initTab ?? l.initTab ?? undefined,
    initFeedItem: d.initFeedItem ?? l.initFeedItem ?? undefined,
    initFeedItems: l.initFeedItems ?? undefined,
    templateColor: d.templateColor ?? l.templateColor ?? undefined,
    // Not managed by rcsctl: sent back as read, so a modification never clears them.
    bizInfoYn: l.bizInfoYn ?? undefined,
    bizInfoTitle: l.bizInfoTitle ?? undefined,
    bizInfoContent: l.bizInfoContent ?? undefined,
  }) as RegBrand;
}
