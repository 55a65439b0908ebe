// Validation in one pass: a document with errors is still built and checked,
// without the nodes its errors are in, so missing files, unknown references and
// lint findings are reported beside the schema errors rather than after they
// are fixed. A resource (`autoReplies.hours`) loses only its wrong fields when
// what is left still passes the schema, so its other fields (its messagebase,
// its references, its files) are checked too; else it is left out whole, as is
// a section that is wrong as a whole, or a top-level key; the brand key when
// it is wrong. An array item is never taken out of its array (the positions of
// the items after it would move): its array goes instead.

import type { SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

/** A document without its invalid nodes, and the resources left out (still declared: a reference to one is not "missing"). */
export interface WithoutInvalid {
  src: SourceDoc;
  left: { section: string; key: string }[];
  /**
   * The nodes taken out of resources that were kept (JSON pointers): a
   * finding at or under one, or between one and its resource, is only the
   * echo of its removal.
   */
  pruned: string[];
}

/** The schema's faults of a whole document value (schema-check.ts, schemaFaults). */
export type Faults = (value: unknown) => string[];

/** At most this many rounds of taking out faults and checking again (each goes up a level when it must). */
const ROUNDS = 12;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first two segments of a diagnostic's JSON pointer. */
function head(pointer: string): [string | undefined, string | undefined] {
  const segs = split(pointer);
  return [segs[0], segs[1]];
}

function split(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function join(segs: readonly string[]): string {
  return segs.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Whether `pointer` is `at` or under it. */
function within(pointer: string, at: string): boolean {
  return pointer === at || pointer.startsWith(`${at}/`);
}

/**
 * `src` without the nodes `errors` point into; undefined when there is nothing
 * to build: the document as a whole is wrong, or it names no brand id.
 * `entries` are the sections keyed by handle or id: they lose an entry; a
 * single object's section (and any other key) goes whole.
 */
export function withoutInvalid(src: SourceDoc, errors: readonly Diagnostic[], entries: ReadonlySet<string>, faults?: Faults): WithoutInvalid | undefined {
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
    else if (gone !== undefined && isRec(v)) out[k] = Object.fromEntries(Object.entries(v).filter(([key]) => !gone.has(key)));
    else out[k] = v;
  }
  const kept = faults === undefined ? { entries: new Map<string, unknown>(), pruned: [] } : keepWhatPasses(out, value, droppedEntries, errors, faults);
  for (const [section, gone] of droppedEntries) {
    for (const key of gone) {
      const entry = kept.entries.get(join([section, key]));
      if (entry === undefined) left.push({ section, key });
      else (out[section] as Rec)[key] = entry;
    }
  }
  // The same document (positions, text, tree) with another value: its getters stay lazy.
  const pruned = Object.create(src, { value: { value: out, writable: true, enumerable: true } }) as SourceDoc;
  return { src: pruned, left, pruned: kept.pruned };
}

/**
 * The resources with errors that pass the schema once their wrong nodes are
 * taken out (by the pointer of the resource), and what was taken out. Each
 * round takes out the nodes the errors (then the schema) point at; a node
 * taken out before, or an array item, gives way to its parent; a resource whose
 * own node is at fault is not kept. No resource's schema depends on another's,
 * so all are checked together, in one document.
 */
function keepWhatPasses(out: Rec, value: Rec, droppedEntries: ReadonlyMap<string, ReadonlySet<string>>, errors: readonly Diagnostic[], faults: Faults): { entries: Map<string, unknown>; pruned: string[] } {
  const trying = new Map<string, unknown>();
  for (const [section, keys] of droppedEntries) for (const key of keys) trying.set(join([section, key]), structuredClone((value[section] as Rec)[key]));
  const removed = new Map<string, Set<string>>([...trying.keys()].map((k) => [k, new Set<string>()]));
  let at: string[] = errors.map((d) => d.path);
  for (let round = 0; round < ROUNDS && trying.size > 0; round++) {
    for (const [entry, node] of [...trying]) {
      const here = at.filter((p) => within(p, entry));
      for (const pointer of here) {
        // Under a node taken out already: gone with it.
        if ([...(removed.get(entry) as Set<string>)].some((r) => within(pointer, r))) continue;
        const target = removable(pointer, entry, node, removed.get(entry) as Set<string>);
        if (target === undefined) {
          trying.delete(entry);
          break;
        }
        removeAt(node, split(target).slice(2));
        (removed.get(entry) as Set<string>).add(target);
      }
    }
    const doc: Rec = { ...out };
    for (const [entry, node] of trying) {
      const [section, key] = split(entry) as [string, string];
      doc[section] = { ...(doc[section] as Rec), [key]: node };
    }
    at = faults(doc);
    if (!at.some((p) => [...trying.keys()].some((e) => within(p, e)))) break;
  }
  // Whatever the last round still found wrong is not kept.
  for (const entry of [...trying.keys()]) if (at.some((p) => within(p, entry))) trying.delete(entry);
  return { entries: trying, pruned: [...trying.keys()].flatMap((e) => [...(removed.get(e) as Set<string>)]) };
}

/**
 * The node to take out for a fault at `pointer` inside resource `entry`: the
 * node itself, or its nearest ancestor that is neither taken out already nor
 * an array item; undefined when that is the resource itself.
 */
function removable(pointer: string, entry: string, node: unknown, removed: ReadonlySet<string>): string | undefined {
  let segs = split(pointer);
  const depth = split(entry).length;
  for (;;) {
    if (segs.length <= depth) return undefined;
    const parent = nodeAt(node, segs.slice(depth, -1));
    if (!Array.isArray(parent) && !removed.has(join(segs)) && (isRec(parent) ? Object.hasOwn(parent, segs[segs.length - 1] as string) : false)) return join(segs);
    segs = segs.slice(0, -1);
  }
}

function nodeAt(node: unknown, segs: readonly string[]): unknown {
  let at = node;
  for (const s of segs) at = Array.isArray(at) ? at[Number(s)] : isRec(at) ? at[s] : undefined;
  return at;
}

function removeAt(node: unknown, segs: readonly string[]): void {
  const parent = nodeAt(node, segs.slice(0, -1));
  if (isRec(parent)) delete parent[segs[segs.length - 1] as string];
}

/** Whether a finding at `pointer` only echoes a node taken out (`pruned`): at or under it, or between it and its resource. */
export function echoesRemoval(pointer: string, pruned: readonly string[]): boolean {
  return pruned.some((p) => within(pointer, p) || (within(p, pointer) && split(pointer).length > 2));
}
