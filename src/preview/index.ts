// The preview stage's public surface: brand previews (`rcsctl preview`) and
// before/after previews of a plan (`rcsctl plan --preview`).

import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import type { BrandPlan, LiveBrand } from '../plan/types.js';
import { brandView, imageOf } from './brand.js';
import { changesPage, changesView, contextFromPlan, type ChangesContext } from './changes.js';
import { brandPage, count, indexPage, writeSite } from './site.js';

export { brandView } from './brand.js';
export { brandPage, brandFolder, indexPage, writeSite } from './site.js';
export { changesPage, changesView, contextFromPlan } from './changes.js';
export type * from './model.js';

/** What one brand's preview holds, for the command's summary line. */
export interface PreviewSummary {
  brandId: string;
  path: string;
  summary: string;
}

/** Write the preview site of `brands` into `dir`; the loader's `diagnostics` become lint findings. */
export function writeBrandPreviews(dir: string, brands: DesiredBrand[], diagnostics: readonly Diagnostic[], opts: { cwd: string; version: string }): PreviewSummary[] {
  const pages = brands.map((b) => {
    const view = brandView(b, diagnostics, opts.cwd);
    const summary = `${count(view.messages.length, 'auto-reply', 'auto-replies')}, ${count(view.rooms.length, 'room')}, ${count(view.findings.length, 'finding')}`;
    return { brandId: b.brandId, summary, html: brandPage(view, opts.version) };
  });
  const written = writeSite(dir, indexPage('rcsctl preview', pages, opts.version), pages);
  return pages.map((p, i) => ({ brandId: p.brandId, summary: p.summary, path: written[i] as string }));
}

/** A planned brand, with what was read and declared when the plan was made here (not for a saved plan file). */
export interface PlanToPreview {
  plan: BrandPlan;
  desired?: DesiredBrand;
  live?: LiveBrand;
}

/** Write the before/after site of `plans` into `dir`: each changed auto-reply and menu, live against proposed. */
export function writeChangePreviews(dir: string, plans: PlanToPreview[], opts: { version: string }): PreviewSummary[] {
  const pages = plans.map(({ plan, desired, live }) => {
    const ctx = enrich(contextFromPlan(plan), desired, live);
    const changes = changesView(plan, ctx);
    const title = (desired && [...desired.chatbots.values()].find((c) => c.subTitle !== undefined)?.subTitle) ?? live?.chatbots[0]?.subTitle ?? plan.brandId;
    const summary = count(changes.length, 'auto-reply or menu change', 'auto-reply and menu changes');
    return { brandId: plan.brandId, summary, html: changesPage(plan.brandId, changes, { title, version: opts.version, ...(ctx.logo ? { logo: ctx.logo } : {}) }) };
  });
  const written = writeSite(dir, indexPage('rcsctl plan: proposed changes', pages, opts.version), pages);
  return pages.map((p, i) => ({ brandId: p.brandId, summary: p.summary, path: written[i] as string }));
}

/** Add the names, room names, images and logo that the manifests and the live read know. */
function enrich(base: ChangesContext, desired: DesiredBrand | undefined, live: LiveBrand | undefined): ChangesContext {
  const images = new Map(base.images);
  const names = new Map(base.names);
  const rooms = new Map(base.rooms);
  for (const a of live?.autoReplies ?? []) names.set(a.autoReplyMsgId, a.autoReplyMsgName);
  for (const c of live?.chatbots ?? []) rooms.set(c.chatbotId, c.subTitle);
  for (const f of desired?.files.values() ?? []) images.set(f.file.uploadName, f.file);
  for (const a of desired?.autoReplies.values() ?? []) names.set(a.handle, a.name);
  for (const c of desired?.chatbots.values() ?? []) if (c.subTitle !== undefined) rooms.set(c.chatbotId, c.subTitle);
  const logo = desired === undefined ? undefined : [...desired.logos.values()][0];
  const ctx: ChangesContext = { images, names, rooms };
  if (logo !== undefined) ctx.logo = imageOf(logo.file, `${logo.name} (logo)`);
  return ctx;
}
