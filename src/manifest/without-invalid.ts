// Validation in one pass: a document with errors is still built and checked,
// without the nodes its errors are in, so missing files, unknown references and
// lint findings are reported beside the schema errors rather than after they
// are fixed. The unit left out is a resource (`autoReplies.hours`), a section
// that is wrong as a whole, or a top-level key; the brand key when it is wrong.

import type { SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

/** A document without its invalid nodes, and the resources left out (still declared: a reference to one is not "missing"). */
export interface WithoutInvalid {
  src: SourceDoc;
  left: { section: string; key: string }[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first two segments of a diagnostic's JSON pointer. */
function head(pointer: string): [string | undefined, string | undefined] {
  const segs = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [segs[0], segs[1]];
}

/**
 * `src` without the nodes `errors` point into; undefined when there is nothing
 * to build: the document as a whole is wrong, or it names no brand id.
 * `entries` are the sections keyed by handle or id: they lose an entry; a
 * single object's section (and any other key) goes whole.
 */
export function withoutInvalid(src: SourceDoc, errors: readonly Diagnostic[], entries: ReadonlySet<string>): WithoutInvalid | undefined {
  const value = src.value;
  if (!isRec(value) || !isRec(value.brand) || typeof value.brand.id !== 'string') return undefined;
  const dropped = new Set<string>();
  const droppedEntries = new Map<string, Set<string>>();
  let dropBrandKey = false;
  for (const d of errors) {
    const [top, key] = head(d.path);
    if (top === undefined) return undefined;
    // A wrong brand id is reported, and the rest is still checked under it; only `id` and `key` are read of `brand`.
    if (top === 'brand') dropBrandKey ||= key === 'key';
    else if (key !== undefined && entries.has(top) && isRec(value[top])) droppedEntries.set(top, (droppedEntries.get(top) ?? new Set()).add(key));
    else dropped.add(top);
  }
  const out: Rec = {};
  const left: WithoutInvalid['left'] = [];
  for (const [k, v] of Object.entries(value)) {
    if (dropped.has(k)) {
      if (entries.has(k) && isRec(v)) left.push(...Object.keys(v).map((key) => ({ section: k, key })));
      continue;
    }
    const gone = droppedEntries.get(k);
    if (k === 'brand' && dropBrandKey) out[k] = { id: value.brand.id };
    else if (gone !== undefined && isRec(v)) {
      out[k] = Object.fromEntries(Object.entries(v).filter(([key]) => !gone.has(key)));
      left.push(...[...gone].map((key) => ({ section: k, key })));
    } else out[k] = v;
  }
  // The same document (positions, text, tree) with another value: its getters stay lazy.
  const pruned = Object.create(src, { value: { value: out, writable: true, enumerable: true } }) as SourceDoc;
  return { src: pruned, left };
}
