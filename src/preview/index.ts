// The preview stage's public surface: brand previews (`rcsctl preview`) and
// before/after previews of a plan (`rcsctl plan --preview`).

import { declaredObjects } from '../kinds/declared.js';
import type { Finding } from '../kinds/handset-model.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import type { BrandPlan, LiveBrand } from '../plan/types.js';
import type { Redaction } from '../util/redaction.js';
import { avatarOf, brandView, previewKinds } from './brand.js';
import { changesPage, changesPages, changesView, contextFromPlan, countChanges, type ChangeView, type ChangesContext, type ChangesPageContext } from './changes.js';
import { brandPages, count, indexPage, sectionCounts, writeBrandFolder, writeSiteIndex } from './site.js';
import { brandPage } from './site.js';

export { brandView, handsetsIn, type BrandView, type SectionView } from './brand.js';
export { brandPage, brandPages, brandFolder, indexPage, MESSAGES_PER_PAGE, writeBrandFolder, writeSiteIndex, type PageFile } from './site.js';
export { changesPage, changesPages, changesView, contextFromPlan } from './changes.js';
export type * from '../kinds/handset-model.js';
export type * from '../kinds/handset.js';

/** What one brand's preview holds, for the command's summary line. */
export interface PreviewSummary {
  brandId: string;
  path: string;
  summary: string;
  /** What the page lists under Findings, for the command to print too. */
  findings?: Finding[];
}

/** Write the preview site of `brands` into `dir`, brand by brand and page by page; the loader's `diagnostics` become lint findings. */
export function writeBrandPreviews(dir: string, brands: DesiredBrand[], diagnostics: readonly Diagnostic[], opts: { cwd: string; version: string; redaction: Redaction; perPage?: number }): PreviewSummary[] {
  const written = brands.map((b): PreviewSummary => {
    const view = brandView(b, diagnostics, opts.cwd);
    const summary = [...sectionCounts(view), count(view.findings.length, 'finding')].join(', ');
    return { brandId: b.brandId, summary, findings: view.findings, path: writeBrandFolder(dir, b.brandId, brandPages(view, opts.version, opts.perPage), opts.redaction) };
  });
  writeSiteIndex(dir, indexPage('rcsctl preview', written, opts.version), opts.redaction);
  return written;
}

/** A planned brand, with what was read and declared when the plan was made here (not for a saved plan file). */
export interface PlanToPreview {
  plan: BrandPlan;
  desired?: DesiredBrand;
  live?: LiveBrand;
}

/** Write the before/after site of `plans` into `dir`: each changed object its kind draws (messages, menus), live against proposed. */
export function writeChangePreviews(dir: string, plans: PlanToPreview[], opts: { version: string; redaction: Redaction; perPage?: number }): PreviewSummary[] {
  const pages = plans.map((p) => {
    const { plan } = p;
    const { changes, page } = changesOf(p, opts.version);
    // A brand that failed shows no change because nothing can be applied for it: its line says so rather than read clean.
    const failure = plan.error !== undefined ? `${plan.error.code} (${plan.error.stage})` : plan.problems.length > 0 ? count(plan.problems.length, 'plan problem') : undefined;
    const summary = failure !== undefined ? `failed: ${failure}; nothing can be applied for this brand` : countChanges(changes.length);
    const files = changesPages(plan.brandId, changes, page, opts.perPage);
    return { brandId: plan.brandId, summary, path: writeBrandFolder(dir, plan.brandId, files, opts.redaction) };
  });
  writeSiteIndex(dir, indexPage('rcsctl plan: proposed changes', pages, opts.version), opts.redaction);
  return pages;
}

/** One brand's before/after, as one self-contained page (the controller serves it for a brand's pending plan). */
export function changesPreviewPage(p: PlanToPreview, version: string): string {
  const { changes, page } = changesOf(p, version);
  return changesPage(p.plan.brandId, changes, page);
}

/** One brand drawn whole from its manifests, as one self-contained page (the controller serves it: what the brand sends). */
export function brandPreviewPage(brand: DesiredBrand, version: string, cwd: string): string {
  return brandPage(brandView(brand, [], cwd), version);
}

/** A plan's changes as the preview draws them, and what its pages say around them. */
function changesOf({ plan, desired, live }: PlanToPreview, version: string): { changes: ChangeView[]; page: ChangesPageContext } {
  const ctx = enrich(contextFromPlan(plan), desired, live);
  const changes = changesView(plan, ctx);
  const kinds = previewKinds();
  // The brand's name (the first object of a kind that names the brand, declared or live), never a room's: a brand has many rooms.
  const naming = kinds.filter((k) => k.preview.page?.namesBrand === true);
  const title = firstDeclared(desired, naming, (k, d) => k.preview.page?.name?.(d)) ?? firstLiveName(live, naming) ?? plan.brandId;
  const barred = kinds.filter((k) => k.preview.page?.barName !== undefined);
  const barName = firstDeclared(desired, barred, (k, d) => k.preview.page?.barName?.(d)) ?? firstLiveName(live, barred);
  return { changes, page: { title, ...(barName !== undefined ? { barName } : {}), version, ...(ctx.avatar ? { avatar: ctx.avatar } : {}) } };
}

type PreviewKind = ReturnType<typeof previewKinds>[number];

/** The first value `of` gives for the declared objects of `kinds`, in registry order. */
function firstDeclared(desired: DesiredBrand | undefined, kinds: readonly PreviewKind[], of: (k: PreviewKind, d: unknown) => string | undefined): string | undefined {
  for (const kind of desired === undefined ? [] : kinds) {
    for (const [, d] of declaredObjects(kind, desired as DesiredBrand)) {
      const value = of(kind, d);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The name of the first live object of the first of `kinds` that has one, for a title when the manifests name none. */
function firstLiveName(live: LiveBrand | undefined, kinds: readonly PreviewKind[]): string | undefined {
  const kind = kinds[0];
  return live === undefined || kind === undefined ? undefined : (kind.live(live).map((l) => kind.identity.liveName(l))[0] as string | undefined);
}

/** Add the names, images and picture that the manifests (what the kinds draw of them) and the live read know. */
function enrich(base: ChangesContext, desired: DesiredBrand | undefined, live: LiveBrand | undefined): ChangesContext {
  const images = new Map(base.images);
  const names = new Map([...base.names].map(([kind, own]) => [kind, new Map(own)]));
  const own = (kind: string): Map<string, string> => {
    let map = names.get(kind);
    if (map === undefined) names.set(kind, (map = new Map()));
    return map;
  };
  const kinds = previewKinds();
  for (const kind of live === undefined ? [] : kinds) for (const l of kind.live(live as LiveBrand)) own(kind.name).set(kind.identity.liveId(l), kind.identity.liveName(l));
  for (const kind of desired === undefined ? [] : kinds) {
    const { files, page } = kind.preview;
    for (const [key, d] of declaredObjects(kind, desired as DesiredBrand)) {
      for (const file of files?.(d) ?? []) images.set(file.uploadName, file);
      const name = page?.name?.(d);
      if (name !== undefined) own(kind.name).set(key, name);
    }
  }
  const avatar = desired === undefined ? undefined : avatarOf(desired);
  const ctx: ChangesContext = { images, names };
  if (avatar !== undefined) ctx.avatar = avatar;
  return ctx;
}
