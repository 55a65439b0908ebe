// The pure half of `rcsctl export --resource ADDRESS --into FILE`: one live
// resource in, the manifest entries to add to an existing manifest out, so
// that `rcsctl plan` right after shows no change for it. The entry is written
// by the kind's own exporter (the same as a whole-brand export); what it
// refers to is named by the manifest's existing handles where the manifest
// declares it, adopted along with it when nobody could list it on its own
// (auto-reply files), and left as a service id otherwise (a reply link to an
// auto-reply the manifest does not declare). Generic over the kinds.

import type { LiveBrand } from '../core/live.js';
import { RcsctlError } from '../errors.js';
import { HANDLE_PATTERN } from '../kinds/handles.js';
import { KINDS } from '../kinds/index.js';
import { isExportable, isReportingUnmanaged, pluralOf, type AnyKind, type ExportContext } from '../kinds/resource-kind.js';
import { desiredSection, type DesiredBrand, type SourceLocation } from '../manifest/types.js';
import { download, placeImage, type Download } from './build-manifest.js';

/** One entry to add under a section of the manifest. */
export interface Addition {
  section: string;
  /** The section's place among the sections (files 10, autoReplies 20, ...), for a section the file lacks. */
  order: number;
  handle: string;
  entry: Record<string, unknown>;
  /** The resource's address once declared (`autoReply.hours`). */
  address: string;
}

/** What adopting one resource adds. */
export interface Adoption {
  /** The target first, then what it brought along. */
  additions: Addition[];
  downloads: Download[];
  notes: string[];
}

/** How to adopt. */
export interface AdoptOptions {
  /** The handle to declare it under, instead of the one export derives from its name. */
  handle?: string;
  /** Whether an image path (relative to the manifest's folder) is taken already (a file on disk). */
  pathTaken?: (path: string) => boolean;
}

/**
 * The entries that declare the live resource at `address` (`autoReply.ARM…`,
 * `autoReply.Opening hours`, `logo.<fileId or name>`, `chatbot.<chatbotId>`)
 * in `desired`'s manifests. Refuses a resource or handle already declared.
 */
export function adoptResource(desired: DesiredBrand, live: LiveBrand, address: string, opts: AdoptOptions = {}): Adoption {
  const { kind, target } = findTarget(live, address);
  if (!isExportable(kind)) throw new RcsctlError('E_USAGE', `${address}: ${kind.label}s cannot be exported`);
  const exporter = kind.exporter;
  const declared = declaredHandles(desired, live);
  const targetId = kind.identity.liveId(target);
  const already = declared.get(kind.name)?.get(targetId);
  if (already !== undefined) {
    throw new RcsctlError('E_EXPORT_DECLARED', `${kind.label} ${targetId} "${kind.identity.liveName(target)}" is already declared as ${kind.name}.${already.handle}${where(already.source)}; nothing was changed`);
  }

  const notes: string[] = [];
  const downloads: Download[] = [];
  const usedPaths = new Set<string>();
  const taken = (path: string): boolean => usedPaths.has(path.toLowerCase()) || (opts.pathTaken?.(path) ?? false);
  // Handles given in this run, by kind and live id.
  const fresh = new Map<string, Map<string, string>>();
  const additions: Addition[] = [];
  const linkedById = new Set<string>();

  const ctx: ExportContext = {
    handle(kindName, liveId) {
      const own = fresh.get(kindName)?.get(liveId) ?? declared.get(kindName)?.get(liveId)?.handle;
      if (own !== undefined) return own;
      const other = KINDS.find((k) => k.name === kindName);
      // What nobody reports unmanaged cannot be adopted on its own (auto-reply files): it comes along.
      if (other === undefined || !isExportable(other)) return undefined;
      const obj = other.live(live).find((l) => other.identity.liveId(l) === liveId);
      if (obj === undefined) return undefined;
      if (isReportingUnmanaged(other)) {
        linkedById.add(`${other.label} ${liveId} "${other.identity.liveName(obj)}"`);
        return undefined;
      }
      const handle = freeHandle(desired, other, exportHandle(other, live, liveId) ?? liveId, fresh);
      claim(fresh, kindName, liveId, handle);
      additions.push(...entriesOf(other, obj, ctx));
      return handle;
    },
    image(fileName, url, dir) {
      const path = placeImage(fileName, dir, taken);
      usedPaths.add(path.toLowerCase());
      downloads.push(download(url, path, fileName));
      return path;
    },
    note: (message) => notes.push(message),
  };

  if (exporter.handles !== undefined) {
    const handle = opts.handle ?? exportHandle(kind, live, targetId) ?? targetId;
    if (!HANDLE_PATTERN.test(handle)) throw new RcsctlError('E_USAGE', `--handle must start with a letter and hold only letters, digits, - and _, not "${handle}"`);
    const clash = sectionEntry(desired, kind, handle);
    if (clash !== undefined) {
      throw new RcsctlError('E_EXPORT_DECLARED', `the handle ${handle} is already declared${where(clash.source)} for another ${kind.label}; choose one with --handle NAME; nothing was changed`);
    }
    claim(fresh, kind.name, targetId, handle);
  } else if (opts.handle !== undefined) {
    throw new RcsctlError('E_USAGE', `--handle does not apply to ${kind.label}s: their key in the manifest is their service id`);
  }
  const own = entriesOf(kind, target, ctx);
  for (const what of linkedById) notes.push(`it links to ${what}, which the manifests do not declare: the link keeps its id (adopt that one too, then link it by handle)`);
  // The target first, then what came along, in the order it was met.
  return { additions: [...own, ...additions], downloads, notes };
}

/** Each manifest section's place among the sections (files 10, autoReplies 20, ...). */
export function sectionOrder(): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of KINDS) if (k.manifest?.section !== undefined) out.set(k.manifest.section, k.manifest.order ?? 1000);
  return out;
}

/** The kind and live object an address names: by live id, export handle, or name. */
function findTarget(live: LiveBrand, address: string): { kind: AnyKind; target: unknown } {
  const dot = address.indexOf('.');
  const kindName = dot > 0 ? address.slice(0, dot) : '';
  const rest = dot > 0 ? address.slice(dot + 1) : '';
  const adoptable: AnyKind[] = KINDS.filter((k) => isExportable(k) && isReportingUnmanaged(k));
  const kind = KINDS.find((k) => k.name === kindName);
  if (kind === undefined || rest === '') {
    throw new RcsctlError('E_USAGE', `--resource must be an address like ${adoptable.map((k) => `${k.name}.<id or name>`).join(', ')}, not "${address}"`);
  }
  if (!adoptable.includes(kind)) {
    throw new RcsctlError('E_USAGE', `${address}: ${pluralOf(kind)} are not adopted on their own (adoptable: ${adoptable.map((k) => k.name).join(', ')}); ${isExportable(kind) ? 'it comes along with what uses it' : 'export cannot read it back'}`);
  }
  const all = kind.live(live);
  const byId = all.find((l) => kind.identity.liveId(l) === rest);
  if (byId !== undefined) return { kind, target: byId };
  const handles = isExportable(kind) ? kind.exporter.handles?.(all) : undefined;
  const byHandle = handles !== undefined ? all.find((l) => handles.get(kind.identity.liveId(l)) === rest) : undefined;
  if (byHandle !== undefined) return { kind, target: byHandle };
  const byName = all.filter((l) => kind.identity.liveName(l) === rest);
  if (byName.length === 1) return { kind, target: byName[0] };
  if (byName.length > 1) {
    throw new RcsctlError('E_USAGE', `${address}: ${byName.length} live ${kind.label}s are named "${rest}" (${byName.map((l) => kind.identity.liveId(l)).join(', ')}); name one by its id`);
  }
  throw new RcsctlError('E_NOT_FOUND', `${address}: brand ${live.brandId} has no live ${kind.label} with that id or name`);
}

/** The entries a kind's exporter writes for one live object. */
function entriesOf(kind: AnyKind, obj: unknown, ctx: ExportContext): Addition[] {
  if (!isExportable(kind)) return [];
  const exporter = kind.exporter;
  const order = kind.manifest?.order ?? 1000;
  return Object.entries(exporter.entries([obj], ctx)).map(([handle, entry]) => ({
    section: exporter.section,
    order,
    handle,
    entry: entry as Record<string, unknown>,
    address: `${kind.name}.${exporter.handles !== undefined ? handle : kind.identity.liveId(obj)}`,
  }));
}

interface Declared {
  handle: string;
  source?: SourceLocation;
}

/** For each kind, the live ids the manifests already declare, with the handle and place that declares them. */
function declaredHandles(desired: DesiredBrand, live: LiveBrand): Map<string, Map<string, Declared>> {
  const out = new Map<string, Map<string, Declared>>();
  for (const kind of KINDS) {
    const section = sectionOf(desired, kind);
    if (section === undefined) continue;
    const byId = new Map<string, Declared>();
    for (const [d, l] of kind.diff.match(kind.desired(desired), kind.live(live), desired).pairs) {
      const handle = [...section.entries()].find(([, v]) => v === d)?.[0] ?? kind.identity.key(d);
      const source = (d as { source?: SourceLocation }).source;
      byId.set(kind.identity.liveId(l), source !== undefined ? { handle, source } : { handle });
    }
    out.set(kind.name, byId);
  }
  return out;
}

/** The entry that declares `handle` in the kind's section, if any. */
function sectionEntry(desired: DesiredBrand, kind: AnyKind, handle: string): { source?: SourceLocation } | undefined {
  return sectionOf(desired, kind)?.get(handle) as { source?: SourceLocation } | undefined;
}

/** The kind's section of the desired brand (handle → desired object). */
function sectionOf(desired: DesiredBrand, kind: AnyKind): Map<string, unknown> | undefined {
  const name = kind.manifest?.section ?? (isExportable(kind) ? kind.exporter.section : undefined);
  return name !== undefined ? desiredSection(desired, name) : undefined;
}

/** The handle a whole-brand export gives the object (stable: derived from all live objects of the kind). */
function exportHandle(kind: AnyKind, live: LiveBrand, liveId: string): string | undefined {
  return isExportable(kind) ? kind.exporter.handles?.(kind.live(live)).get(liveId) : undefined;
}

/** `base`, or `base-2`, `base-3`, ... : the first not declared and not given in this run. */
function freeHandle(desired: DesiredBrand, kind: AnyKind, base: string, fresh: Map<string, Map<string, string>>): string {
  const given = new Set(fresh.get(kind.name)?.values() ?? []);
  let handle = base;
  for (let n = 2; sectionEntry(desired, kind, handle) !== undefined || given.has(handle); n++) handle = `${base}-${n}`;
  return handle;
}

function claim(fresh: Map<string, Map<string, string>>, kind: string, liveId: string, handle: string): void {
  const m = fresh.get(kind) ?? new Map<string, string>();
  m.set(liveId, handle);
  fresh.set(kind, m);
}

function where(source: SourceLocation | undefined): string {
  return source !== undefined ? ` in ${source.file}:${source.line}` : '';
}
