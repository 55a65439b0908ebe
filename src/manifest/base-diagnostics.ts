// A shared base's line is shared by every brand that uses it: a problem there
// (a bad value in the base's text, a link to a handle it lacks) is found once
// per brand, as each brand's documents are built and checked, but reported
// once, naming the brands it holds for and where each uses the base. Two
// findings are one when they say the same at the same place, once the brand's
// own id is taken out of the message ("no auto-reply \"x\" in brand BR.a").

import type { Diagnostic } from './types.js';

/** How many brands a merged message names before "and N more" (the `brands` field lists them all). */
const NAMED = 5;

/** Diagnostics with the per-brand copies of a base's findings merged into one each. */
export function oncePerBase(diags: readonly Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const groups = new Map<string, { first: Diagnostic; at: number; brands: { id: string; via: string }[]; messages: Set<string> }>();
  const seen = new Set<string>();
  for (const d of diags) {
    const who = d.forBrand;
    if (who === undefined) {
      // The same finding twice (a generator's rows file read as a manifest and as rows): once.
      const same = [d.code, d.file, d.line, d.col, d.path, d.message].join('\u0000');
      if (!seen.has(same)) out.push(d);
      seen.add(same);
      continue;
    }
    const generic = withoutBrand(d.message, who.id);
    const key = [d.code, d.severity, d.file, d.line, d.col, d.path, generic].join('\u0000');
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { first: d, at: out.length, brands: [who], messages: new Set([d.message]) });
      out.push(d);
    } else if (!group.brands.some((b) => b.id === who.id)) {
      group.brands.push(who);
      group.messages.add(d.message);
    }
  }
  for (const g of groups.values()) {
    const { forBrand: _, ...d } = g.first;
    const one = g.brands.length === 1;
    // Messages that named each brand say "each brand" once they are one.
    const message = one || g.messages.size === 1 ? d.message : withoutBrand(d.message, g.first.forBrand?.id ?? '').replace(/brand \u0000|\u0000/g, 'each brand');
    const named = g.brands.slice(0, NAMED).map((b) => (one ? b.via : b.via.replace(/^brand /, '')));
    const more = g.brands.length > NAMED ? `, and ${g.brands.length - NAMED} more` : '';
    const suffix = one ? ` (for ${named[0] as string})` : ` (for ${g.brands.length} brands: ${named.join(', ')}${more})`;
    out[g.at] = { ...d, message: message.includes(suffix) ? message : message + suffix, brands: g.brands.map((b) => b.id) };
  }
  return out;
}

/** The message with the brand's id marked, so that one brand's finding and another's compare equal. */
function withoutBrand(message: string, id: string): string {
  return id === '' ? message : message.split(id).join('\u0000');
}
