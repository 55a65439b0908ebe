// How many objects of each kind a brand holds, worded by the kind's own
// label: the summary lines of `validate` and `export` say what the registry
// holds, so a kind added to it is counted without a change to a command.

import type { DesiredBrand } from '../manifest/types.js';
import type { LiveBrand } from '../core/live.js';
import { kindsInManifestOrder } from './index.js';
import { isExportable, pluralOf, type AnyKind } from './resource-kind.js';

/** One kind's count, with the words for it. */
export interface KindCount {
  /** The kind's name (`autoReply`), the key in JSON output. */
  kind: string;
  count: number;
  /** `auto-reply` */
  one: string;
  /** `auto-replies` */
  many: string;
  /** The section could not be read (export): the count says nothing of what the brand holds. */
  unread?: boolean;
}

function counted(kind: AnyKind, count: number): KindCount {
  return { kind: kind.name, count, one: kind.label, many: pluralOf(kind) };
}

/** How many objects of each registered kind `brand` declares, in the order of the manifest's sections. */
export function declaredCounts(brand: DesiredBrand): KindCount[] {
  return kindsInManifestOrder().map((k) => counted(k, k.desired(brand).length));
}

/** How many objects of each registered kind the live brand holds, in the order of the manifest's sections. */
export function liveCounts(live: LiveBrand): KindCount[] {
  return kindsInManifestOrder().map((k) => counted(k, k.live(live).length));
}

/**
 * How many entries of each exported kind `manifest` holds (a section left out
 * holds none), in the order of the manifest's sections; a kind named in
 * `unread` could not be read, and is marked so rather than counted as empty.
 */
export function exportedCounts(manifest: Readonly<Record<string, unknown>>, unread: ReadonlySet<string> = new Set()): KindCount[] {
  return kindsInManifestOrder()
    .filter(isExportable)
    .map((k) => {
      const section = manifest[k.exporter.section];
      const present = section !== null && typeof section === 'object';
      // A section that is one object (the brand's own settings) holds one entry, not one per field.
      const c = counted(k, !present ? 0 : k.manifest?.single === true ? 1 : Object.keys(section).length);
      return unread.has(k.name) ? { ...c, unread: true } : c;
    });
}

/** `2 auto-reply files, 1 logo, 6 auto-replies, brand profile not read` */
export function describeCounts(counts: readonly KindCount[]): string {
  return counts.map((c) => (c.unread === true ? `${c.one} not read` : `${c.count} ${c.count === 1 ? c.one : c.many}`)).join(', ');
}

/** The counts as JSON: `{ autoReply: 6, … }`. */
export function countsByKind(counts: readonly KindCount[]): Record<string, number> {
  return Object.fromEntries(counts.map((c) => [c.kind, c.count]));
}
