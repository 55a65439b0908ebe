// A brand as every view names it (issue 38, "Names people use"): its id, then
// its name and the folder its manifests declare it in, when known.

import { cell, escapeHtml, inline } from '../util/markdown.js';

/** What names a brand: a plan's or a drift report's brand. */
export interface Labelled {
  brandId: string;
  name?: string;
  folder?: string;
}

/** The folder worth showing: not the working folder (`.`), which says nothing. */
function shownFolder(b: Labelled): string | undefined {
  return b.folder === '.' ? undefined : b.folder;
}

/** `BR.agcy000007 "Acme Coffee" (brands/acme)`; the id alone when nothing else is known. */
export function brandText(b: Labelled): string {
  const folder = shownFolder(b);
  return `${b.brandId}${b.name !== undefined ? ` ${JSON.stringify(b.name)}` : ''}${folder !== undefined ? ` (${folder})` : ''}`;
}

/** `<code>BR.agcy000007</code> Acme Coffee (brands/acme)`, for a `<summary>` line. */
export function brandHtml(b: Labelled): string {
  return `<code>${escapeHtml(b.brandId)}</code>${tail(b, inline)}`;
}

/** `` `BR.agcy000007` Acme Coffee (brands/acme) ``, for a Markdown table cell. */
export function brandCell(b: Labelled): string {
  return `\`${b.brandId}\`${tail(b, cell)}`;
}

function tail(b: Labelled, escape: (s: string) => string): string {
  const folder = shownFolder(b);
  const parts = [b.name !== undefined ? escape(b.name) : undefined, folder !== undefined ? `(${escape(folder)})` : undefined].filter((s) => s !== undefined);
  return parts.length === 0 ? '' : ` ${parts.join(' ')}`;
}

/** `` `BR.agcy000007` Acme Coffee (brands/acme) `` on a line of Markdown. */
export function brandMarkdown(b: Labelled): string {
  return `\`${b.brandId}\`${tail(b, inline)}`;
}
