// Validation in one pass: a document with errors is still built and checked,
// without the nodes its errors are in, so missing files, unknown references and
// lint findings are reported beside the schema errors rather than after they
// are fixed. A resource (`autoReplies.hours`, or a section that is one object,
// `brandProfile`) loses only its wrong fields when what is left still passes
// the schema, so its other fields (its messagebase, its references, its files)
// are checked too; else it is left out whole, as is a section that is wrong as
// a whole, or a top-level key; the brand key when it is wrong. A list item
// taken out leaves its list closed up, in the value and in the tree positions
// come from; findings name it as written.

import type { SourceDoc } from './source.js';
import { yamlLib } from './yaml-lib.js';
import type { Diagnostic } from './types.js';

/** A document without its invalid nodes, and the resources left out (still declared: a reference to one is not "missing"). */
export interface WithoutInvalid {
  src: SourceDoc;
  left: { section: string; key: string }[];
  /**
   * The nodes taken out of resources that were kept (JSON pointers, as
   * written): a finding at or under one, or between one and its resource, is
   * only the echo of its removal.
   */
  pruned: string[];
  /** A finding's pointer into the value built (lists closed up where items were taken out) as written in the file. */
  original: (pointer: string) => string;
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
  // The resources to try to keep: each entry with errors, and each section that is one object (the brand profile).
  const resources = [...[...droppedEntries].flatMap(([section, keys]) => [...keys].map((key) => [section, key])), ...[...dropped].filter((k) => !entries.has(k) && k !== 'brand' && isRec(value[k])).map((k) => [k])];
  const kept = faults === undefined ? undefined : keepWhatPasses(out, value, resources, errors, faults);
  for (const [section, gone] of droppedEntries) {
    for (const key of gone) {
      const entry = kept?.entries.get(join([section, key]));
      if (entry === undefined) left.push({ section, key });
      else (out[section] as Rec)[key] = entry.value;
    }
  }
  for (const k of dropped) {
    const section = kept?.entries.get(join([k]));
    if (section !== undefined) out[k] = section.value;
  }
  const items = [...(kept?.entries.values() ?? [])].flatMap((e) => e.items);
  const arrays = new Map([...(kept?.entries.values() ?? [])].flatMap((e) => [...e.arrays]));
  // The same document (positions, text, tree) with another value: its getters stay lazy. Items taken
  // out of lists leave its tree too, so a path into the value finds the node it was written as.
  const props: PropertyDescriptorMap = { value: { value: out, writable: true, enumerable: true } };
  if (items.length > 0) props.doc = { value: withoutItems(src, items), enumerable: true };
  const pruned = Object.create(src, props) as SourceDoc;
  return { src: pruned, left, pruned: kept?.pruned ?? [], original: (pointer) => original(pointer, arrays) };
}

/** One resource kept without some of its nodes. */
interface Kept {
  /** The resource as checked: its lists without the items taken out. */
  value: unknown;
  /** The list items taken out (JSON pointers, as written). */
  items: string[];
  /** Each list that lost items (by its pointer as written): the indexes as written of the items it keeps. */
  arrays: Map<string, number[]>;
}

/** Stands for a list item taken out, until the list is closed up. */
const GONE = Symbol('taken out');

/**
 * The resources with errors (entries, and sections that are one object) that
 * pass the schema once their wrong nodes are taken out (by the pointer of the
 * resource), and what was taken out. Each
 * round takes out the nodes the errors (then the schema) point at; a node
 * taken out before gives way to its parent; a resource whose own node is at
 * fault is not kept. Pointers are as written throughout: a list is closed up
 * only in the copy the schema checks, whose faults are mapped back. No
 * resource's schema depends on another's, so all are checked together.
 */
function keepWhatPasses(out: Rec, value: Rec, resources: readonly string[][], errors: readonly Diagnostic[], faults: Faults): { entries: Map<string, Kept>; pruned: string[] } {
  const trying = new Map<string, unknown>(resources.map((segs) => [join(segs), structuredClone(nodeAt(value, segs))]));
  const removed = new Map<string, Set<string>>([...trying.keys()].map((k) => [k, new Set<string>()]));
  let closed = new Map<string, { value: unknown; arrays: Map<string, number[]> }>();
  let at: string[] = errors.map((d) => d.path);
  for (let round = 0; round < ROUNDS && trying.size > 0; round++) {
    for (const [entry, node] of [...trying]) {
      const gone = removed.get(entry) as Set<string>;
      for (const pointer of at.filter((p) => within(p, entry))) {
        // Under a node taken out already: gone with it.
        if ([...gone].some((r) => within(pointer, r))) continue;
        const target = removable(pointer, entry, node, gone);
        if (target === undefined) {
          trying.delete(entry);
          break;
        }
        removeAt(node, split(target).slice(split(entry).length));
        gone.add(target);
      }
    }
    closed = new Map([...trying].map(([entry, node]) => [entry, closeUp(node, entry)]));
    const doc: Rec = { ...out };
    for (const [entry, c] of closed) {
      const [section, key] = split(entry) as [string, string | undefined];
      doc[section] = key === undefined ? c.value : { ...(doc[section] as Rec), [key]: c.value };
    }
    const arrays = new Map([...closed.values()].flatMap((c) => [...c.arrays]));
    at = faults(doc).map((p) => original(p, arrays));
    if (!at.some((p) => [...trying.keys()].some((e) => within(p, e)))) break;
  }
  // Whatever the last round still found wrong is not kept.
  for (const entry of [...trying.keys()]) if (at.some((p) => within(p, entry))) trying.delete(entry);
  const entries = new Map<string, Kept>();
  for (const entry of trying.keys()) {
    const c = closed.get(entry);
    if (c === undefined) continue;
    const gone = [...(removed.get(entry) as Set<string>)];
    entries.set(entry, { value: c.value, arrays: c.arrays, items: gone.filter((p) => /^\d+$/.test(split(p).at(-1) ?? '') && Array.isArray(nodeAt(trying.get(entry), split(p).slice(split(entry).length, -1)))) });
  }
  return { entries, pruned: [...entries.keys()].flatMap((e) => [...(removed.get(e) as Set<string>)]) };
}

/**
 * The node to take out for a fault at `pointer` inside resource `entry`: the
 * node itself, or its nearest ancestor not taken out already; undefined when
 * that is the resource itself.
 */
function removable(pointer: string, entry: string, node: unknown, removed: ReadonlySet<string>): string | undefined {
  let segs = split(pointer);
  const depth = split(entry).length;
  for (;;) {
    if (segs.length <= depth) return undefined;
    const parent = nodeAt(node, segs.slice(depth, -1));
    const last = segs[segs.length - 1] as string;
    const there = Array.isArray(parent) ? /^\d+$/.test(last) && Number(last) < parent.length && parent[Number(last)] !== GONE : isRec(parent) && Object.hasOwn(parent, last);
    if (there && !removed.has(join(segs))) return join(segs);
    segs = segs.slice(0, -1);
  }
}

function nodeAt(node: unknown, segs: readonly string[]): unknown {
  let at = node;
  for (const s of segs) at = Array.isArray(at) ? at[Number(s)] : isRec(at) ? at[s] : undefined;
  return at;
}

/** Take out the node at `segs`: a key is deleted, a list item marked (closeUp drops it). */
function removeAt(node: unknown, segs: readonly string[]): void {
  const parent = nodeAt(node, segs.slice(0, -1));
  const last = segs[segs.length - 1] as string;
  if (Array.isArray(parent)) parent[Number(last)] = GONE;
  else if (isRec(parent)) delete parent[last];
}

/** A copy of `node` (at pointer `base`, as written) with its lists closed up, and the indexes each changed list keeps. */
function closeUp(node: unknown, base: string): { value: unknown; arrays: Map<string, number[]> } {
  const arrays = new Map<string, number[]>();
  const copy = (v: unknown, at: string[]): unknown => {
    if (Array.isArray(v)) {
      const keep = v.flatMap((item, i) => (item === GONE ? [] : [i]));
      if (keep.length !== v.length) arrays.set(join(at), keep);
      return keep.map((i) => copy(v[i], [...at, String(i)]));
    }
    if (isRec(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, [...at, k])]));
    return v;
  };
  return { value: copy(node, split(base)), arrays };
}

/** A pointer into the closed-up value as written: each index of a list that lost items mapped back. */
function original(pointer: string, arrays: ReadonlyMap<string, readonly number[]>): string {
  if (arrays.size === 0) return pointer;
  const out: string[] = [];
  for (const seg of split(pointer)) {
    const keep = arrays.get(join(out));
    out.push(keep !== undefined && /^\d+$/.test(seg) ? String(keep[Number(seg)] ?? seg) : seg);
  }
  return join(out);
}

/** The document's tree without the list items taken out (deepest first, then the last of a list first), so paths into the value find their nodes. */
function withoutItems(src: SourceDoc, items: readonly string[]): SourceDoc['doc'] {
  const { isMap, isSeq } = yamlLib();
  const tree = src.doc.clone();
  const order = items.map(split).sort((a, b) => b.length - a.length || Number(b.at(-1)) - Number(a.at(-1)));
  for (const segs of order) {
    // Walked by hand: a map key of digits ("0212345678") stays a string, a list index is a number.
    let node: unknown = tree.contents;
    for (const seg of segs.slice(0, -1)) node = isSeq(node) ? node.items[Number(seg)] : isMap(node) ? node.get(seg, true) : undefined;
    if (isSeq(node)) node.delete(Number(segs.at(-1)));
  }
  return tree as SourceDoc['doc'];
}

/** Whether a finding at `pointer` only echoes a node taken out (`pruned`): at or under it, or between it and its resource. */
export function echoesRemoval(pointer: string, pruned: readonly string[]): boolean {
  return pruned.some((p) => within(pointer, p) || (within(p, pointer) && split(pointer).length > 2));
}
