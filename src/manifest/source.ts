// A manifest document: its plain value, and the YAML node tree that turns any
// JSON path back into a line and column (built on first use for documents the
// fast reader took; see read-yaml.ts).

import type { Document, LineCounter, Node, Pair } from 'yaml';
import { yamlLib } from './yaml-lib.js';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from './codes.js';
import type { Diagnostic, Severity, SourceLocation } from './types.js';

/** A path into a document: map keys and sequence indexes. */
export type PathSegments = readonly (string | number)[];

/** One YAML document of a manifest file. */
export interface SourceDoc {
  /** The file as shown to the user (relative to cwd when inside it). */
  file: string;
  /** Absolute path of the manifest file. */
  absPath: string;
  text: string;
  /** Line starts, for positions (may be built on first use). */
  readonly lines: LineCounter;
  /** The YAML node tree, for positions and how a scalar was written (may be built on first use). */
  readonly doc: Document.Parsed;
  /** The document as plain data, after interpolation. */
  value: unknown;
  /** Every map key was written as text (the fast reader checked): no key needs the tree to say it was a number. */
  keysAreText?: boolean;
  /**
   * Where the keys of the top two levels start (`brand`, `autoReplies`,
   * `autoReplies/<handle>`: each resource's location), by keyPath, as the
   * fast reader saw them: those positions need no tree.
   */
  keyOffsets?: ReadonlyMap<string, number>;
  /**
   * Served by the parse cache (parse-cache.ts) from an entry kept after a
   * load that found nothing in the file, and holding no `${...}`: the text
   * and schema checks, pure functions of the value, found nothing in this
   * very value then.
   */
  checkedBefore?: boolean;
  /** Set on a base's document built for one brand (compose.ts): which brand, and what set each field. */
  composed?: ComposedFrom;
}

/** Where a value was set, and how (composition: base, override, variable, default, generator row). */
export interface Place {
  file: string;
  line: number;
  col: number;
  how: 'base' | 'brand' | 'override' | 'variable' | 'default' | 'generator row';
}

/** A base's document as one brand uses it. */
export interface ComposedFrom {
  /** The brand and where it uses the base, for messages: `brand BR.x (brands/x.yaml:4)`. */
  via: string;
  brandId: string;
  /** What set the value at a path, when not the base's own text (an override, a generator row). */
  place: (path: PathSegments) => Place | undefined;
  /** By JSON pointer: the variables a value interpolates, and where each was given. */
  variables: ReadonlyMap<string, readonly { name: string; at: Place }[]>;
  /** The files (as shown) the document is made of and its findings may name: the base's, the brand's, a generator's and its rows'. */
  inputs: readonly string[];
  /** Where the brand uses the base (its `bases:` key, or its generator row; for a base another base uses, the outer one's). */
  usedAt: Place;
}

/** The key of a path in SourceDoc.keyOffsets. */
export function keyPath(path: PathSegments): string {
  return path.join('\u0000');
}

/**
 * Line starts of `text` (after each `\n`), with the yaml package's
 * LineCounter lookup, counted on the first lookup; no parse needed.
 */
export function lineIndex(text: string): LineCounter {
  let starts: number[] | undefined;
  const get = (): number[] => {
    if (starts === undefined) {
      starts = [0];
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    }
    return starts;
  };
  return {
    get lineStarts() {
      return get();
    },
    addNewLine: (offset: number) => get().push(offset),
    // The same binary search as the yaml package's LineCounter.linePos.
    linePos: (offset: number) => {
      const lineStarts = get();
      let low = 0;
      let high = lineStarts.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((lineStarts[mid] as number) < offset) low = mid + 1;
        else high = mid;
      }
      if (lineStarts[low] === offset) return { line: low + 1, col: 1 };
      if (low === 0) return { line: 0, col: offset };
      return { line: low, col: offset - (lineStarts[low - 1] as number) + 1 };
    },
  };
}

/** JSON Pointer (RFC 6901) for a path: `/autoReplies/hours/body`. */
export function jsonPointer(path: PathSegments): string {
  let out = '';
  for (const seg of path) {
    const text = String(seg);
    // Escaping is rare (a handle holding `~` or `/`); every resource's location is built with one.
    out += '/' + (text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text);
  }
  return out;
}

/** 1-based line and column of a character offset. */
export function position(lines: LineCounter, offset: number): { line: number; col: number } {
  const p = lines.linePos(offset);
  // An empty LineCounter (nothing parsed yet) answers 0:0; positions are 1-based.
  return { line: Math.max(1, p.line), col: Math.max(1, p.col) };
}

/** Each YAML map's pairs by key, built once per map on first lookup (a linear scan per lookup made K lookups O(K²)). */
const pairIndex = new WeakMap<object, { size: number; byKey: Map<string, Pair> }>();

function pairFor(node: unknown, seg: string | number): Pair | undefined {
  const { isMap, isScalar } = yamlLib();
  if (!isMap(node)) return undefined;
  let index = pairIndex.get(node);
  if (index === undefined || index.size !== node.items.length) {
    const byKey = new Map<string, Pair>();
    for (const it of node.items) {
      const k = String(isScalar(it.key) ? it.key.value : it.key);
      // The first of duplicate keys, as a scan would find it.
      if (!byKey.has(k)) byKey.set(k, it);
    }
    index = { size: node.items.length, byKey };
    pairIndex.set(node, index);
  }
  return index.byKey.get(String(seg));
}

/** The deepest YAML node along `path` (and the pair holding it, for keys). */
export function findNode(doc: Document.Parsed, path: PathSegments): { node: Node | undefined; pair?: Pair; depth: number } {
  const { isMap, isSeq } = yamlLib();
  let node: unknown = doc.contents;
  let pair: Pair | undefined;
  let depth = 0;
  for (const seg of path) {
    if (isMap(node)) {
      const p = pairFor(node, seg);
      if (p === undefined) break;
      pair = p;
      node = p.value;
    } else if (isSeq(node) && /^\d+$/.test(String(seg))) {
      const item: unknown = node.items[Number(seg)];
      if (item === undefined) break;
      pair = undefined;
      node = item;
    } else break;
    depth++;
  }
  return { node: (node ?? undefined) as Node | undefined, ...(pair !== undefined ? { pair } : {}), depth };
}

/**
 * Offset of the fault for `path`. `at: 'key'` points at the key of the last
 * segment (unknown keys, duplicate handles); otherwise at the value.
 */
export function offsetOf(src: SourceDoc, path: PathSegments, at: 'key' | 'value' = 'value'): number {
  const known = at === 'key' ? src.keyOffsets?.get(keyPath(path)) : undefined;
  if (known !== undefined) return known;
  const found = findNode(src.doc, path);
  if (at === 'key' && found.depth === path.length && found.pair !== undefined && yamlLib().isPair(found.pair)) {
    const key = found.pair.key as Node | null;
    if (key?.range) return key.range[0];
  }
  // A pair whose value is empty (`title:`) has no node: point at its key.
  if (found.node?.range) return found.node.range[0];
  const key = found.pair?.key as Node | null | undefined;
  if (key?.range) return key.range[0];
  return src.doc.contents?.range?.[0] ?? 0;
}

/**
 * Where the key at `path` is, as a SourceLocation whose line and column are
 * worked out when first read: most runs never print one, and working them out
 * may need the document's tree.
 */
export function sourceLocation(src: SourceDoc, path: PathSegments): SourceLocation {
  const placed = src.composed?.place(path);
  if (placed !== undefined) {
    return {
      file: placed.file,
      get line() {
        return placed.line;
      },
      get col() {
        return placed.col;
      },
      path: jsonPointer(path),
    };
  }
  let at: { line: number; col: number } | undefined;
  const where = (): { line: number; col: number } => (at ??= position(src.lines, offsetOf(src, path, 'key')));
  const loc: SourceLocation = {
    file: src.file,
    get line() {
      return where().line;
    },
    get col() {
      return where().col;
    },
    path: jsonPointer(path),
  };
  const usedAt = src.composed?.usedAt;
  // Worked out when read, as the position is (a spread would work it out now).
  if (usedAt !== undefined) Object.defineProperty(loc, 'usedAt', { enumerable: true, get: () => ({ file: usedAt.file, line: usedAt.line }) });
  return loc;
}

/** Build a diagnostic at `path` of a document. */
export function diagAt(
  src: SourceDoc,
  code: DiagnosticCode,
  path: PathSegments,
  message: string,
  opts: { at?: 'key' | 'value'; severity?: Severity } = {},
): Diagnostic {
  const placed = src.composed?.place(path);
  const { line, col } = placed ?? position(src.lines, offsetOf(src, path, opts.at));
  const d: Diagnostic = { code, severity: opts.severity ?? DIAGNOSTIC_CODES[code].severity, file: placed?.file ?? src.file, line, col, path: jsonPointer(path), message };
  // A base's line is shared by every brand that uses it: the message names the brands (base-diagnostics.ts).
  if (src.composed !== undefined && placed?.how !== 'override') d.forBrand = { id: src.composed.brandId, via: src.composed.via };
  return d;
}

/** Build a diagnostic at a raw offset of a file (YAML errors, before any tree). */
export function diagAtOffset(
  file: string,
  lines: LineCounter,
  code: DiagnosticCode,
  offset: number,
  message: string,
): Diagnostic {
  const { line, col } = position(lines, offset);
  return { code, severity: DIAGNOSTIC_CODES[code].severity, file, line, col, path: '', message };
}
