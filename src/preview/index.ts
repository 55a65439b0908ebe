// The preview stage's public surface: brand previews (`rcsctl preview`) and
// before/after previews of a plan (`rcsctl plan --preview`).

import { KINDS } from '../kinds/index.js';
import { handsetOf } from '../kinds/resource-kind.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import type { BrandPlan, LiveBrand } from '../plan/types.js';
import type { Redaction } from '../util/redaction.js';
import { brandView, logoOf, shownAs, shownObjects, type ShownObject } from './brand.js';
import { changesPage, changesPages, changesView, contextFromPlan, type ChangeView, type ChangesContext, type ChangesPageContext } from './changes.js';
import type { Finding } from './model.js';
import { brandPage, brandPages, count, indexPage, writeBrandFolder, writeSiteIndex } from './site.js';

export { brandView } from './brand.js';
export { brandPage, brandPages, brandFolder, indexPage, MESSAGES_PER_PAGE, writeBrandFolder, writeSiteIndex, type PageFile } from './site.js';
export { changesPage, changesPages, changesView, contextFromPlan } from './changes.js';
export type * from './model.js';

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
    const summary = `${count(view.messages.length, 'auto-reply', 'auto-replies')}, ${count(view.rooms.length, 'room')}, ${count(view.findings.length, 'finding')}`;
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

/** Write the before/after site of `plans` into `dir`: each changed message and menu, live against proposed. */
export function writeChangePreviews(dir: string, plans: PlanToPreview[], opts: { version: string; redaction: Redaction; perPage?: number }): PreviewSummary[] {
  const pages = plans.map((p) => {
    const { plan } = p;
    const { changes, page } = changesOf(p, opts.version);
    // A brand that failed shows no change because nothing can be applied for it: its line says so rather than read clean.
    const failure = plan.error !== undefined ? `${plan.error.code} (${plan.error.stage})` : plan.problems.length > 0 ? count(plan.problems.length, 'plan problem') : undefined;
    const summary = failure !== undefined ? `failed: ${failure}; nothing can be applied for this brand` : count(changes.length, 'auto-reply or menu change', 'auto-reply and menu changes');
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
  const objects = desired === undefined ? [] : shownObjects(desired);
  const ctx = enrich(contextFromPlan(plan), objects, live);
  const changes = changesView(plan, ctx);
  // The brand's name (its home page, declared or live), never a room's: a brand has many rooms.
  const title = shownAs(objects, 'home')[0]?.shown.name ?? liveHandsetName(live, 'home') ?? plan.brandId;
  const roomName = shownAs(objects, 'room').find((r) => r.shown.title !== undefined)?.shown.title ?? liveHandsetName(live, 'room');
  return { changes, page: { title, ...(roomName !== undefined ? { roomName } : {}), version, ...(ctx.logo ? { logo: ctx.logo } : {}) } };
}

/** The name of the first live object a handset shows as `handset` (the brand's home: its name), for a title when the manifests name none. */
function liveHandsetName(live: LiveBrand | undefined, handset: 'home' | 'room'): string | undefined {
  const kind = KINDS.find((k) => handsetOf(k) === handset);
  return live === undefined || kind === undefined ? undefined : (kind.live(live).map((l) => kind.liveName(l))[0] as string | undefined);
}

/** Add the names, room names, images and logo that the manifests (what the kinds show of them) and the live read know. */
function enrich(base: ChangesContext, objects: readonly ShownObject[], live: LiveBrand | undefined): ChangesContext {
  const images = new Map(base.images);
  const names = new Map(base.names);
  const rooms = new Map(base.rooms);
  for (const kind of live === undefined ? [] : KINDS) {
    const handset = handsetOf(kind);
    const to = handset === 'message' ? names : handset === 'room' ? rooms : undefined;
    for (const l of to === undefined ? [] : kind.live(live as LiveBrand)) to?.set(kind.liveId(l), kind.liveName(l));
  }
  for (const { shown } of shownAs(objects, 'image')) images.set(shown.file.uploadName, shown.file);
  for (const { key, shown } of shownAs(objects, 'message')) names.set(key, shown.name);
  for (const { shown } of shownAs(objects, 'room')) if (shown.title !== undefined) rooms.set(shown.id, shown.title);
  const logo = logoOf(objects);
  const ctx: ChangesContext = { images, names, rooms };
  if (logo !== undefined) ctx.logo = logo;
  return ctx;
}
