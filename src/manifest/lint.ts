// Checks across a whole brand, once every document is merged: references to
// handles, duplicate names and pinned ids, and the lint rules that catch what
// the service would silently ignore or refuse. Each kind brings its own rules
// (src/kinds/<kind>/manifest.ts); this runs them. Pure: no I/O.

import { checkMoves } from './moves.js';
import { KINDS } from '../kinds/index.js';
import type { LintContext } from '../kinds/manifest-section.js';
import type { BrandDraft } from './build-brand.js';
import { diagAt } from './source.js';
import { didYouMean } from './suggest.js';
import { desiredSection, type Diagnostic } from './types.js';

/**
 * Every reference and lint diagnostic for one brand. `others` are the other
 * brands loaded alongside, so a link to their handles is named as such.
 */
export function lintBrand(draft: BrandDraft, others: readonly BrandDraft[] = []): Diagnostic[] {
  const { brand, origin } = draft;
  const diags: Diagnostic[] = [];
  const ctx: LintContext = {
    brand,
    srcOf: (o) => origin.get(o),
    declared: (section, key) => draft.declared.has(`${section}/${key}`),
    diag: (src, code, path, message, opts) => diags.push(diagAt(src, code, path, message, opts)),
    checkRef(src, path, section, label, handle, code) {
      const mine = desiredSection(brand, section);
      // Declared but not built (its file failed, or it was left out for its errors): reported already.
      if (mine?.has(handle) === true || draft.declared.has(`${section}/${handle}`)) return;
      // Looked up in its own brand; other brands that use the handle only explain why it is not found here.
      const owners = others.filter((o) => o.brand.brandId !== brand.brandId && desiredSection(o.brand, section)?.has(handle) === true).map((o) => o.brand.brandId);
      if (owners.length > 0) {
        const elsewhere = owners.length === 1 ? `brand ${owners[0] as string} declares one` : `brands ${owners.slice(0, 3).join(', ')}${owners.length > 3 ? ` and ${owners.length - 3} more` : ''} declare one`;
        diags.push(diagAt(src, 'RCS510', path, `no ${label} "${handle}" in brand ${brand.brandId}; ${elsewhere}, but a link cannot leave its brand`));
      } else {
        // A handle left out for its errors is still a handle the user meant.
        const declared = [...draft.declared.keys()].filter((k) => k.startsWith(`${section}/`)).map((k) => k.slice(section.length + 1));
        diags.push(diagAt(src, code, path, `no ${label} "${handle}" in brand ${brand.brandId}${didYouMean(handle, [...(mine?.keys() ?? []), ...declared])}`));
      }
    },
  };
  for (const kind of KINDS) kind.manifest?.lint?.(ctx);
  diags.push(...checkMoves(brand, KINDS));
  return diags;
}
