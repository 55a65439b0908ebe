// The registry of resource kinds. Every stage (validate, plan, apply, drift,
// export) iterates this list and never names a kind; the list's order is the
// order creates and updates run in (src/plan/order.ts derives the rest from
// references). A program embedding rcsctl, or a test, may add kinds at run
// time with `registerKind`.

import { agencyFileKind } from './agency-file/index.js';
import { autoReplyKind } from './auto-reply/index.js';
import { bidirectionalRoomKind } from './bidirectional-room/index.js';
import { brandProfileKind } from './brand-profile/index.js';
import { chatbotKind } from './chatbot/index.js';
import { fileKind } from './file/index.js';
import { layoutKind } from './layout/index.js';
import { logoKind } from './logo/index.js';
import { persistentMenuKind } from './persistent-menu/index.js';
import { privilegeKind } from './privilege/index.js';
import { isOptioned, isWorded, pruneOf, reviewedOf, type AnyKind, type KindOption } from './resource-kind.js';
import { templateKind } from './template/index.js';

/** The kinds rcsctl ships, in dependency order: what others point at comes first. */
export const BUILTIN_KINDS = [fileKind, agencyFileKind, logoKind, chatbotKind, autoReplyKind, persistentMenuKind, bidirectionalRoomKind, templateKind, brandProfileKind, layoutKind, privilegeKind] as const;

/** The name of a kind rcsctl ships. */
export type BuiltinKindName = (typeof BUILTIN_KINDS)[number]['name'];

const registry: AnyKind[] = [...BUILTIN_KINDS];
let version = 0;

/**
 * Every registered kind, in dependency order. The array is live: stages read
 * it on each call, so a kind registered later is seen by the next run.
 */
export const KINDS: readonly AnyKind[] = registry;

/** Registry changes so far, so derived data (the compiled manifest schema) knows when to rebuild. */
export function registryVersion(): number {
  return version;
}

/**
 * Add a kind. It runs after every kind already registered unless `before`
 * names one it must precede. Throws when the name, manifest section, live
 * section or prune entry is taken.
 */
export function registerKind(kind: AnyKind, opts: { before?: string } = {}): void {
  for (const k of registry) {
    if (k.name === kind.name) throw new Error(`a kind named "${kind.name}" is registered already`);
    if (kind.manifest?.section !== undefined && k.manifest?.section === kind.manifest.section) throw new Error(`manifest section "${kind.manifest.section}" belongs to kind "${k.name}"`);
    if (kind.read.section !== undefined && k.read.section === kind.read.section) throw new Error(`live section "${kind.read.section}" belongs to kind "${k.name}"`);
    if (pruneOf(kind) !== undefined && pruneOf(k) === pruneOf(kind)) throw new Error(`prune entry "${pruneOf(kind)}" belongs to kind "${k.name}"`);
  }
  const at = opts.before === undefined ? -1 : registry.findIndex((k) => k.name === opts.before);
  if (opts.before !== undefined && at < 0) throw new Error(`no kind "${opts.before}" to register "${kind.name}" before`);
  if (at < 0) registry.push(kind);
  else registry.splice(at, 0, kind);
  version++;
}

/** Remove a kind added with `registerKind` (tests clean up with it); the built-in kinds stay. */
export function unregisterKind(name: string): void {
  if (BUILTIN_KINDS.some((k) => k.name === name)) throw new Error(`"${name}" is a built-in kind`);
  const at = registry.findIndex((k) => k.name === name);
  if (at >= 0) {
    registry.splice(at, 1);
    version++;
  }
}

/** Where a kind's section sits among the sections (its `manifest.order`); a kind without one comes last. */
export function manifestOrder(kind: AnyKind): number {
  return kind.manifest?.order ?? 1000;
}

/** Every registered kind in the order of the manifest's sections (as a manifest is read and written), registry order among equals. */
export function kindsInManifestOrder(): AnyKind[] {
  return [...registry].sort((a, b) => manifestOrder(a) - manifestOrder(b));
}

/** The words the step's kind has for its operation (`menu will be replaced`), when it has its own. */
export function wordsFor(step: { kind: string; op: string }): { plan: string; done: string } | undefined {
  const kind = registry.find((k) => k.name === step.kind);
  if (kind === undefined || !isWorded(kind)) return undefined;
  return (kind.words as Partial<Record<string, { plan: string; done: string }>>)[step.op];
}

/**
 * The options every registered kind adds to plan and apply (`Optioned`), each
 * flag once: the first kind to declare a flag gives its help line.
 */
export function kindOptions(): KindOption[] {
  const out = new Map<string, KindOption>();
  for (const kind of registry) if (isOptioned(kind)) for (const o of kind.options) if (!out.has(o.flag)) out.set(o.flag, o);
  return [...out.values()];
}

/** The kind named `name`; throws on an unknown name (a plan file from elsewhere). */
export function kindByName(name: string): AnyKind {
  const kind = registry.find((k) => k.name === name);
  if (kind === undefined) throw new Error(`unknown resource kind "${name}"`);
  return kind;
}

export { agencyFileKind, autoReplyKind, bidirectionalRoomKind, chatbotKind, fileKind, logoKind, persistentMenuKind, templateKind };
export type { AnyKind, KindOption, Optioned, CreateChecked, Ordered, Uploaded, CreatedSince, NotExported, PartlyManaged, Prunable, Reviewed, Doctored, Drawn, DriftNoted, Exportable, KindDiff, KindGates, KindIdentity, KindPlanning, KindRead, LinkSplitting, Listed, LiveChecked, Named, Plural, Previewable, Referring, ReportsUnmanaged, ResourceKind, Stateful, Surveyed, Worded } from './resource-kind.js';
export { previewOf, isOptioned, isCreateChecked, isOrdered, isUploaded, isPartlyManaged, notExportedOf, prunedBy, pruneOf, reviewedOf, isDoctored, isDrawn, isDriftNoted, isExportable, isListed, isLiveChecked, isNamed, isPlural, isPreviewable, isReferring, isReportingUnmanaged, isStateful, liveRefsOf, pluralOf, isSurveyed, isWorded, splitsLinks, tellsCreatedSince, isUsageCounted } from './resource-kind.js';
export type * from './agency-file/index.js';
export type * from './auto-reply/index.js';
export type * from './bidirectional-room/index.js';
export type * from './chatbot/index.js';
export type * from './file/index.js';
export type * from './logo/index.js';
export type * from './persistent-menu/index.js';
export type * from './template/index.js';

/** What `--allow-review` lets through, from the kinds that declare what they send to review: `a logo, room, template, brand name or profile image`. */
export function reviewedThings(): string {
  const things = registry.map(reviewedOf).filter((r): r is string => r !== undefined);
  return things.length === 0 ? 'anything' : `a ${things.join(', ')}`;
}
