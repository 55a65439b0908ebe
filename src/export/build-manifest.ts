// The pure half of `rcsctl export`: a live brand in, the manifest document and
// the list of images to download out, so that `rcsctl plan` on the result
// right away is empty. Each kind writes its own section (its exporter, in
// src/kinds/<kind>/export.ts); this frames the document, hands out handles
// and places images, and never names a kind.

import { basename, extname } from 'node:path';
import type { LiveBrand } from '../core/live.js';
import { exportedCounts, type KindCount } from '../kinds/counts.js';
import { KINDS, kindsInManifestOrder, notExportedOf } from '../kinds/index.js';
import { isExportable, type ExportContext } from '../kinds/resource-kind.js';
import { localName } from '../util/upload-name.js';

export { localName } from '../util/upload-name.js';

/** An image to fetch into the export directory. */
export interface Download {
  url: string;
  /** Path relative to the export directory (`images/hero.png`). */
  path: string;
  /** The live file name: when it ends in `-<sha256 first 12>`, the content is checked against it. */
  liveFileName: string;
  /** The hash prefix the live name promises, when it has one. */
  expectedSha12?: string;
}

/** The manifest object (key order as written) and the images it refers to. */
export interface ExportedManifest {
  manifest: Record<string, unknown>;
  downloads: Download[];
  /** Things the user should know (files that will be uploaded again, and so on). */
  notes: string[];
  /** Why each kind that cannot be exported is left out (the kinds' `notExported`), for the output and the manifest's header. */
  notExported: string[];
  /** Entries written per exported kind, in the order of the manifest's sections. */
  counts: KindCount[];
}

/** How to export. */
export interface ExportOptions {
  /** Write `brand.key: "${env:NAME}"` for an agency account. */
  brandKeyEnv?: string;
  /**
   * Handles already chosen, by kind and live id (a base's keys for the live
   * objects it declares, export --base): kept, and every other object's handle
   * is numbered past them.
   */
  handles?: Map<string, Map<string, string>>;
}

/** Build the manifest for `live`. */
export function buildManifest(live: LiveBrand, opts: ExportOptions = {}): ExportedManifest {
  const notes: string[] = [];
  const downloads: Download[] = [];
  const usedPaths = new Set<string>();
  const exporting = kindsInManifestOrder().filter(isExportable);

  // Handles first, for every kind: other kinds' entries refer to them (media, reply links).
  const handles = new Map<string, Map<string, string>>();
  for (const kind of exporting) {
    const assign = kind.exporter.handles;
    if (assign !== undefined) handles.set(kind.name, withChosen(assign(kind.live(live)), opts.handles?.get(kind.name)));
  }
  const ctx: ExportContext = {
    handle: (kind, liveId) => handles.get(kind)?.get(liveId),
    image(fileName, url, dir) {
      const path = placeImage(fileName, dir, (p) => usedPaths.has(p.toLowerCase()));
      usedPaths.add(path.toLowerCase());
      downloads.push(download(url, path, fileName));
      return path;
    },
    note: (message) => notes.push(message),
  };

  const manifest: Record<string, unknown> = {
    apiVersion: 'rcsctl/v1',
    kind: 'Brand',
    brand: opts.brandKeyEnv !== undefined ? { id: live.brandId, key: `\${env:${opts.brandKeyEnv}}` } : { id: live.brandId },
  };
  const unread = new Set<string>();
  for (const kind of exporting) {
    const exporter = kind.exporter;
    const why = exporter.unread?.(live);
    if (why !== undefined) {
      unread.add(kind.name);
      notes.push(`the ${kind.label} was not read, so it is not exported: ${why}`);
      continue;
    }
    const entries = exporter.entries(kind.live(live), ctx);
    if (Object.keys(entries).length > 0) manifest[exporter.section] = entries;
  }
  const notExported = KINDS.flatMap((k) => (isExportable(k) ? [] : (notExportedOf(k) ?? [])));
  return { manifest, downloads, notes, notExported, counts: exportedCounts(manifest, unread) };
}

/** `assigned` handles with `chosen` ones in their place; another object given a chosen handle is numbered (`-2`, `-3`, …) past every taken one. */
function withChosen(assigned: Map<string, string>, chosen: Map<string, string> | undefined): Map<string, string> {
  if (chosen === undefined || chosen.size === 0) return assigned;
  const fixed = new Set(chosen.values());
  const taken = new Set([...fixed, ...assigned.values()]);
  const out = new Map<string, string>();
  for (const [id, handle] of assigned) {
    const mine = chosen.get(id);
    let h = mine ?? handle;
    if (mine === undefined && fixed.has(handle)) for (let n = 2; taken.has(h); n++) h = `${handle}-${n}`;
    taken.add(h);
    out.set(id, h);
  }
  return out;
}

/**
 * A path under `dir` whose base name gives back the live upload name. Equal
 * stems (and paths `taken` says are in use) go into numbered subfolders
 * (`images/2/hero.png`), never renamed, because the upload name is made from
 * the base name.
 */
export function placeImage(fileName: string, dir: string, taken: (path: string) => boolean): string {
  const { stem, ext, sha12 } = localName(fileName);
  const base = (sha12 !== undefined ? stem : basename(fileName, ext)) + ext.toLowerCase();
  let path = `${dir}/${safe(base)}`;
  for (let n = 2; taken(path); n++) path = `${dir}/${n}/${safe(base)}`;
  return path;
}

function safe(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_');
  return cleaned === '' ? 'file' : cleaned;
}

/** The download of a live image to `path`, with the hash its name promises. */
export function download(url: string, path: string, liveFileName: string): Download {
  const sha12 = localName(liveFileName).sha12;
  return sha12 !== undefined ? { url, path, liveFileName, expectedSha12: sha12 } : { url, path, liveFileName };
}
