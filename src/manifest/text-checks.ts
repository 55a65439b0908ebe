// Hostile text in a manifest, caught before anything else reads it: bytes
// that are not UTF-8, NUL, nesting deep enough to exhaust a parser's stack,
// and, after parsing, lone surrogates (errors) and bidirectional or invisible
// characters in the texts people read (warnings). Each with a position.

import type { Document, LineCounter } from 'yaml';
import { diagAt, diagAtOffset, type PathSegments, type SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';
import { yamlLib } from './yaml-lib.js';
import { unstatedBound } from '../spec/limits.js';

/** Deepest nesting accepted (*chosen*): a manifest needs about 10 levels. */
export const MAX_DEPTH = 64;
/** NUL characters reported per file before stopping. */
const MAX_REPORTED = 5;

/** Offset (in bytes) of the first byte that is not well-formed UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= n) return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

/** Line (1-based) and column (1-based, in characters) of byte `offset` of valid-UTF-8 `bytes` prefix. */
function bytePosition(bytes: Uint8Array, offset: number): { line: number; col: number } {
  const prefix = Buffer.from(bytes.subarray(0, offset)).toString('utf8');
  const lines = prefix.split('\n');
  return { line: lines.length, col: (lines[lines.length - 1] ?? '').length + 1 };
}

/** The raw-bytes checks: invalid UTF-8. An error stops the file from being parsed. */
export function checkBytes(bytes: Uint8Array, file: string): Diagnostic[] {
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return [];
  const { line, col } = bytePosition(bytes, bad);
  const hex = Buffer.from(bytes.subarray(bad, Math.min(bad + 4, bytes.length))).toString('hex').replace(/(..)/g, '$1 ').trim();
  return [
    {
      code: 'RCS109',
      severity: 'error',
      file,
      line,
      col,
      path: '',
      message: `the file is not valid UTF-8 at byte ${bad} (bytes ${hex}); manifests are UTF-8 text. Is this a binary file?`,
    },
  ];
}

/** The text checks before parsing: NUL characters and nesting depth. */
export function checkRawText(text: string, file: string, lines: LineCounter): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (let at = text.indexOf('\u0000'); at >= 0 && out.length < MAX_REPORTED; at = text.indexOf('\u0000', at + 1)) {
    out.push(diagAtOffset(file, lines, 'RCS110', at, 'NUL character (U+0000); manifests are text, and no field may hold it'));
  }
  if (out.length > 0) return out;
  const deep = tooDeepAt(text);
  if (deep >= 0) out.push(diagAtOffset(file, lines, 'RCS112', deep, `nesting deeper than ${MAX_DEPTH} levels; a manifest needs about 10`));
  return out;
}

/**
 * The offset where nesting first passes MAX_DEPTH, or -1: flow brackets
 * (outside quotes and comments) plus block levels (indentation and `- `
 * entries), counted without recursion, so no input can exhaust the stack.
 */
export function tooDeepAt(text: string): number {
  const indents: number[] = [];
  let flow = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let end = text.indexOf('\n', lineStart);
    if (end < 0) end = text.length;
    let i = lineStart;
    while (i < end && text[i] === ' ') i++;
    const blank = i >= end || text[i] === '#' || text[i] === '\r';
    if (!blank && flow === 0) {
      const indent = i - lineStart;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
      // `- - - x` opens one level per dash.
      let dashes = 0;
      while (i + 1 < end && (text[i] === '-' || text[i] === '?') && text[i + 1] === ' ') {
        dashes++;
        i += 2;
        while (i < end && text[i] === ' ') i++;
      }
      if (indents.length + dashes > MAX_DEPTH) return i;
    }
    let quote: string | undefined;
    for (; i < end; i++) {
      const c = text[i];
      if (quote !== undefined) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === lineStart || text[i - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        flow++;
        if (indents.length + flow > MAX_DEPTH) return i;
      } else if (c === ']' || c === '}') flow = Math.max(0, flow - 1);
    }
    lineStart = end + 1;
  }
  return -1;
}

// U+202A..U+202E embeddings and overrides, U+2066..U+2069 isolates, U+200E/F and U+061C marks.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// Zero-width space, non-joiner, word joiner, BOM; and other invisible format characters.
const ZERO_WIDTH = /[\u200b\u200c\u200d\u2060\ufeff\u00ad]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Fields whose text people read: names, titles and display texts. */
const SHOWN = new Set(['name', 'title', 'displayText', 'subTitle', 'description', 'subDescr']);

/** The checks on parsed values: NUL and lone surrogates (errors), bidi and zero-width characters in shown texts (warnings). */
export function checkValues(src: SourceDoc): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Depth first, last child first, a map's keys before its values (the order
  // findings have always come in, which decides the 50 kept); one path,
  // extended and cut back as the walk goes, copied only for a finding.
  const path: (string | number)[] = [];
  const visit = (value: unknown): void => {
    if (out.length >= 50) return;
    if (typeof value === 'string') {
      checkString(src, value, path, out);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        path.push(i);
        visit(value[i]);
        path.pop();
      }
    } else if (value !== null && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      for (const k of keys) {
        path.push(k);
        checkString(src, k, path, out, true);
        path.pop();
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        path.push(k);
        visit(obj[k]);
        path.pop();
      }
    }
  };
  visit(src.value);
  return out;
}

// Appends what `text` holds to `out`; `path` is the walk's, copied only for a finding.
function checkString(src: SourceDoc, text: string, path: PathSegments, out: Diagnostic[], isKey = false): void {
  const at = isKey ? ({ at: 'key' } as const) : {};
  const what = isKey ? 'key' : 'value';
  if (text.includes('\u0000')) {
    out.push(diagAt(src, 'RCS110', [...path], `the ${what} holds a NUL character (U+0000, written "\\0" in YAML); no field may hold it`, at));
    return;
  }
  const lone = LONE_SURROGATE.exec(text);
  if (lone !== null) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    out.push(diagAt(src, 'RCS111', [...path], `the ${what} holds a lone surrogate U+${code} at character ${lone.index + 1}; it is not a character and cannot be sent as UTF-8`, at));
    return;
  }
  const field = path[path.length - 1];
  // A message body's text: the documents state no length for it (a field that has one is the schema's, RCS205).
  if (!isKey && typeof field === 'string' && path[path.length - 2] === 'body' && text.length > unstatedBound(field)) {
    out.push(
      diagAt(src, 'RCS603', [...path], `"${field}" is ${text.length.toLocaleString('en-US')} characters long, over rcsctl's bound of ${unstatedBound(field).toLocaleString('en-US')} for a body text: no document states a length for it, so the service may take it, but a handset shows a few screens at most`),
    );
  }
  if (isKey || typeof field !== 'string' || !SHOWN.has(field)) return;
  const bidi = BIDI.exec(text);
  if (bidi !== null) out.push(diagAt(src, 'RCS601', [...path], `"${field}" holds a bidirectional control U+${hex(bidi[0])} at character ${bidi.index + 1}: it can make the text read differently from how it is stored`));
  const zw = ZERO_WIDTH.exec(text);
  // A zero-width joiner between two emoji builds one emoji; anywhere else it only hides.
  if (zw !== null && !(zw[0] === '\u200d' && isEmojiJoin(text, zw.index))) {
    out.push(diagAt(src, 'RCS602', [...path], `"${field}" holds an invisible character U+${hex(zw[0])} at character ${zw.index + 1}: two names that look the same may differ`));
  }
}

function hex(ch: string): string {
  return (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

function isEmojiJoin(text: string, i: number): boolean {
  const low = text.charCodeAt(i - 1);
  const before = (low >= 0xdc00 && low <= 0xdfff ? text.codePointAt(i - 2) : text.codePointAt(i - 1)) ?? 0;
  const after = text.codePointAt(i + 1) ?? 0;
  return /\p{Extended_Pictographic}/u.test(String.fromCodePoint(before)) && /\p{Extended_Pictographic}/u.test(String.fromCodePoint(after));
}

/** The deepest node of a parsed document beyond MAX_DEPTH (iteratively), as an offset, or -1. */
export function deepNodeOffset(doc: Document.Parsed): number {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (depth > MAX_DEPTH) return (node as { range?: [number] } | null)?.range?.[0] ?? 0;
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) {
          stack.push({ node: item.value, depth: depth + 1 });
        } else if (!isScalar(item)) stack.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return -1;
}
