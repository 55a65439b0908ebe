// Turning schema-clean documents into DesiredBrand objects: documents for the
// same brandId merge, local files are read and checked, and handles declared
// twice across documents are reported. Each kind builds its own section (its
// manifest part, src/kinds/<kind>/manifest.ts); this never names a kind.

import { KINDS } from '../kinds/index.js';
import type { DiagnosticCode } from './codes.js';
import { FileReader, loadLocalFile } from './local-files.js';
import { diagAt, sourceLocation, type PathSegments, type SourceDoc } from './source.js';
import type { DesiredBrand, Diagnostic, LocalFile, PruneKind, SourceLocation } from './types.js';

/** A brand being assembled, with the document each resource came from (for positions). */
export interface BrandDraft {
  brand: DesiredBrand;
  /** Which document declared each resource object (DesiredAutoReply, DesiredChatbot, ...). */
  origin: Map<object, SourceDoc>;
  /** Where the brand key was set, for conflict messages. */
  keyFrom?: SourceDoc;
  /**
   * Every `section/key` declared, even when its file failed to load, so a
   * broken file is reported once and not again as a missing handle.
   */
  declared: Map<string, SourceLocation>;
  /** The brand's `source` is a base's document's, which a document of the brand's own replaces. */
  sourceFromBase?: true;
}

// The frame is what the schema has already guaranteed; sections are the kinds'.
interface RawDoc {
  brand: { id: string; key?: string; owners?: string[] };
  prune?: PruneKind[];
  moved?: { from: string; to: string }[];
  [section: string]: unknown;
}

/** Source location of the node at `path`. */
export function locationOf(src: SourceDoc, path: PathSegments): SourceLocation {
  return sourceLocation(src, path);
}

/** Add one schema-clean document to the drafts (merging by brandId). */
export async function addDocument(
  drafts: Map<string, BrandDraft>,
  src: SourceDoc,
  reader: FileReader,
  /** Values of sensitive variables interpolated so far: kept out of upload names. */
  sensitive: readonly string[] = [],
  /** Resources the document declares but left out for their errors: declared, so no reference to one is "missing". */
  left: readonly { section: string; key: string }[] = [],
): Promise<Diagnostic[]> {
  const raw = src.value as RawDoc;
  const diags: Diagnostic[] = [];
  const brandId = raw.brand.id;
  let draft = drafts.get(brandId);
  if (draft === undefined) {
    draft = {
      brand: emptyBrand(brandId, locationOf(src, ['brand'])),
      origin: new Map(),
      declared: new Map(),
    };
    if (src.composed !== undefined && src.composed.place(['brand']) === undefined) draft.sourceFromBase = true;
    drafts.set(brandId, draft);
  } else if (draft.sourceFromBase === true && src.composed === undefined) {
    // Where the brand is declared is its own document (brands/one.yaml), not the base it uses.
    draft.brand.source = locationOf(src, ['brand']);
    delete draft.sourceFromBase;
  }
  const { brand, origin } = draft;
  if (!brand.manifestFiles.includes(src.file)) brand.manifestFiles.push(src.file);
  if (raw.brand.key !== undefined) {
    if (brand.brandKey !== undefined && brand.brandKey !== raw.brand.key) {
      diags.push(diagAt(src, 'RCS406', ['brand', 'key'], `brand ${brandId} is given a different key in ${draft.keyFrom?.file ?? 'another document'}`));
    } else {
      brand.brandKey = raw.brand.key;
      draft.keyFrom = src;
    }
  }
  for (const kind of raw.prune ?? []) if (!brand.prune.includes(kind)) brand.prune.push(kind);
  for (const owner of raw.brand.owners ?? []) if (!(brand.owners ??= []).includes(owner)) brand.owners.push(owner);
  (raw.moved ?? []).forEach(({ from, to }, i) => {
    (brand.moved ??= []).push({ from, to, fromAt: locationOf(src, ['moved', i, 'from']), toAt: locationOf(src, ['moved', i, 'to']) });
  });
  for (const { section, key } of left) if (!draft.declared.has(`${section}/${key}`)) draft.declared.set(`${section}/${key}`, locationOf(src, [section, key]));

  // Declared twice across documents: the first one wins, the second is an error.
  // The location `once` records is the one a kind asks for next, for the resource it builds: made once, shared.
  let recorded: { section: string; key: string; at: SourceLocation } | undefined;
  const once = (section: string, key: string, code: DiagnosticCode, what: string): boolean => {
    const id = `${section}/${key}`;
    const prior = draft.declared.get(id);
    if (prior === undefined) {
      recorded = { section, key, at: locationOf(src, [section, key]) };
      draft.declared.set(id, recorded.at);
      return true;
    }
    diags.push(diagAt(src, code, [section, key], `${what} "${key}" is declared twice in brand ${brandId} (first at ${prior.file}:${prior.line}:${prior.col})`, { at: 'key' }));
    return false;
  };
  const file = async (at: PathSegments, rel: string, use: Parameters<typeof loadLocalFile>[3]): Promise<LocalFile | undefined> => {
    const r = await loadLocalFile(src, at, rel, use, reader, sensitive);
    diags.push(...r.diagnostics);
    return r.file;
  };

  for (const kind of KINDS) {
    const part = kind.manifest;
    const section = part?.section;
    if (part?.build === undefined || section === undefined) continue;
    const value = raw[section];
    if (value === undefined) continue;
    const map = sectionOf(brand, section);
    await part.build(value as Record<string, unknown>, {
      src,
      brand,
      once: (key, code, what) => once(section, key, code, what),
      file,
      locationOf: (path) => (recorded !== undefined && path.length === 2 && path[0] === recorded.section && path[1] === recorded.key ? recorded.at : locationOf(src, path)),
      diag: (code, path, message, opts) => diags.push(diagAt(src, code, path, message, opts)),
      add(key, desired) {
        map.set(key, desired);
        origin.set(desired, src);
      },
    });
  }
  return diags;
}

/** A brand that declares nothing yet: an empty section for every registered kind. */
export function emptyBrand(brandId: string, source: SourceLocation): DesiredBrand {
  const brand: Record<string, unknown> = { brandId, prune: [], manifestFiles: [], source };
  for (const kind of KINDS) if (kind.manifest?.section !== undefined) brand[kind.manifest.section] = new Map();
  return brand as unknown as DesiredBrand;
}

/** A section of a desired brand, made empty when its kind was registered after the brand was. */
function sectionOf(brand: DesiredBrand, section: string): Map<string, unknown> {
  const sections = brand as unknown as Record<string, Map<string, unknown> | undefined>;
  return (sections[section] ??= new Map());
}
