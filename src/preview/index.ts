// The preview stage's public surface: brand previews (`rcsctl preview`) and
// before/after previews of a plan (`rcsctl plan --preview`).

import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import { brandView } from './brand.js';
import { brandPage, count, indexPage, writeSite } from './site.js';

export { brandView } from './brand.js';
export { brandPage, brandFolder, indexPage, writeSite } from './site.js';
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
