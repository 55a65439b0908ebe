// Field-level differences between two normalised objects, through deep-diff,
// with paths written the way a reader expects: `buttons[0].suggestions[1].action.displayText`.

import deepDiff from 'deep-diff';
import type { FieldChange } from './types.js';

/**
 * The changes that turn `before` (live, normalised) into `after` (desired,
 * normalised). Lists whose items have an identity (a menu item's title, a
 * suggestion's displayText, a template body entry's param) are compared item
 * by item, so removing the middle item shows as one removal rather than a
 * change to every later item, and a change is shown at the item's place on
 * the desired side (`body[0]` is the manifest's first entry); a list without
 * usable identities is compared by position.
 */
export function diffObjects(before: unknown, after: unknown): FieldChange[] {
  // Most pairs of a plan are unchanged: proving that costs one walk, where
  // aligning and deep-diff copy both sides first.
  return sameJson(before, after) ? [] : diffInFull(before, after);
}

/** diffObjects without the shortcut for equal data (the shortcut's tests compare the two). */
export function diffInFull(before: unknown, after: unknown): FieldChange[] {
  const aligned = new Map<string, AlignedItem>();
  const orders: FieldChange[] = [];
  const [b, a] = align(before, after, [], aligned, orders);
  const raw = deepDiff.diff(b as object, a as object) ?? [];
  const changes: FieldChange[] = [...orders];
  for (const d of raw) {
    const path = [...(d.path ?? [])];
    if (d.kind === 'A') {
      path.push(d.index);
      pushChange(changes, path, d.item, aligned);
    } else {
      pushChange(changes, path, d, aligned);
    }
  }
  return changes.sort((x, y) => comparePaths(x.path, y.path));
}

/**
 * True when `a` and `b` are the same plain data: the same value (===), or
 * arrays and plain objects with the same keys holding the same data. Anything
 * else (NaN, two Dates, class instances) is not proven equal, and takes the
 * full diff, which then finds the changes.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Where an aligned list item sits on each side. */
interface AlignedItem {
  before?: number;
  after?: number;
}

/** Keys standing for aligned list items start with this, which no field name holds. */
const ITEM_KEY = '\u0000';

/**
 * The identity of a list item, if it has one: a menu item's title, a
 * suggestion's displayText, shown in order; or a template body entry's param
 * (or the line it fills), a set in which order means nothing.
 */
function identityOf(item: unknown): { id: string; ordered: boolean } | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  const nested = (k: string): unknown => (o[k] !== null && typeof o[k] === 'object' ? (o[k] as Record<string, unknown>).displayText : undefined);
  for (const v of [o.title, nested('action'), nested('reply'), o.displayText]) if (typeof v === 'string' && v !== '') return { id: v, ordered: true };
  if (typeof o.param === 'string' && o.param !== '') return { id: `param ${o.param}`, ordered: false };
  if (typeof o.lineIndex === 'number') return { id: `line ${o.lineIndex}`, ordered: false };
  return undefined;
}

/** Identities of every item of `list`, or undefined when one has none or two share one; `ordered` unless every item is of a set. */
function identities(list: unknown[]): { ids: string[]; ordered: boolean } | undefined {
  const found = list.map(identityOf);
  if (found.some((f) => f === undefined)) return undefined;
  const ids = found.map((f) => (f as { id: string }).id);
  return new Set(ids).size === ids.length ? { ids, ordered: found.some((f) => f?.ordered === true) } : undefined;
}

/**
 * Both sides with every pair of identity lists turned into maps keyed by
 * identity, so deep-diff matches items by identity; `aligned` records where
 * each key came from, and `orders` gets a change for each list whose shared
 * items changed order.
 */
function align(before: unknown, after: unknown, path: (string | number)[], aligned: Map<string, AlignedItem>, orders: FieldChange[]): [unknown, unknown] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const xb = identities(before);
    const xa = identities(after);
    if (xb === undefined || xa === undefined || (before.length === 0 && after.length === 0)) {
      return pairwise(before, after, path, aligned, orders);
    }
    const ib = xb.ids;
    const ia = renamed(before, after, xb.ids, xa.ids, xb.ordered || xa.ordered);
    const listKey = `${ITEM_KEY}${aligned.size}:`;
    const bMap: Record<string, unknown> = {};
    const aMap: Record<string, unknown> = {};
    ia.forEach((id, i) => aligned.set(listKey + id, { after: i }));
    ib.forEach((id, i) => aligned.set(listKey + id, { ...aligned.get(listKey + id), before: i }));
    for (const [i, id] of ib.entries()) {
      const j = ia.indexOf(id);
      const [x, y] = j === -1 ? [before[i], undefined] : align(before[i], after[j], [...path, j], aligned, orders);
      bMap[listKey + id] = x;
      if (j !== -1) aMap[listKey + id] = y;
    }
    for (const [j, id] of ia.entries()) if (!(listKey + id in aMap)) aMap[listKey + id] = after[j];
    const shared = ib.filter((id) => ia.includes(id));
    const sharedAfter = ia.filter((id) => ib.includes(id));
    // A set's order is no change (a template body: each entry names its param); its entries are still shown at their place in the manifest.
    if ((xb.ordered || xa.ordered) && shared.join('\u0000') !== sharedAfter.join('\u0000')) {
      orders.push({ path: `${formatPath(path)} order`, type: 'change', before: shared, after: sharedAfter });
    }
    return [bMap, aMap];
  }
  if (isRecord(before) && isRecord(after)) {
    const b: Record<string, unknown> = { ...before };
    const a: Record<string, unknown> = { ...after };
    for (const k of Object.keys(before)) if (k in after) [b[k], a[k]] = align(before[k], after[k], [...path, k], aligned, orders);
    return [b, a];
  }
  return [before, after];
}

/**
 * The after side's identities, with each item whose identity changed (a menu
 * item or a chip renamed) given the identity it had, so it shows as a change
 * of that item rather than one removed and another added. An item only the
 * before side has is paired with one only the after side has between the same
 * kept items (so a pair never reads as a new order), the one whose content is
 * otherwise the same first; a set (template body entries) pairs none.
 */
function renamed(before: unknown[], after: unknown[], ib: string[], ia: string[], ordered: boolean): string[] {
  if (!ordered) return ia;
  // Where an item sits: how many kept items come before it on its side.
  const place = (ids: string[], other: string[]) => {
    let kept = 0;
    return ids.map((id, i) => (other.includes(id) ? (kept++, undefined) : { id, i, at: kept })).filter((x) => x !== undefined);
  };
  const gone = place(ib, ia);
  const come = place(ia, ib);
  if (gone.length === 0 || come.length === 0) return ia;
  const out = [...ia];
  for (const sameRest of [true, false]) {
    for (const g of [...gone]) {
      const c = come.find((x) => x.at === g.at && (!sameRest || sameJson(withoutIdentity(before[g.i]), withoutIdentity(after[x.i]))));
      if (c === undefined) continue;
      out[c.i] = g.id;
      gone.splice(gone.indexOf(g), 1);
      come.splice(come.indexOf(c), 1);
    }
  }
  return out;
}

/** An item without the fields its identity is read from (identityOf), to compare the rest. */
function withoutIdentity(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const { title: _t, displayText: _d, ...rest } = item;
  for (const k of ['action', 'reply']) {
    const v = rest[k];
    if (isRecord(v)) {
      const { displayText: _n, ...inner } = v;
      rest[k] = inner;
    }
  }
  return rest;
}

/** Lists compared by position; items at the same index may still hold identity lists. */
function pairwise(before: unknown[], after: unknown[], path: (string | number)[], aligned: Map<string, AlignedItem>, orders: FieldChange[]): [unknown[], unknown[]] {
  const b = [...before];
  const a = [...after];
  for (let i = 0; i < Math.min(b.length, a.length); i++) [b[i], a[i]] = align(before[i], after[i], [...path, i], aligned, orders);
  return [b, a];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A deep-diff path with aligned item keys turned back into the index of the side shown. */
function realPath(path: (string | number)[], side: 'before' | 'after', aligned: Map<string, AlignedItem>): (string | number)[] {
  return path.map((part) => {
    if (typeof part !== 'string' || !part.startsWith(ITEM_KEY)) return part;
    const at = aligned.get(part);
    return (side === 'before' ? (at?.before ?? at?.after) : (at?.after ?? at?.before)) ?? part;
  });
}

function pushChange(out: FieldChange[], path: (string | number)[], d: deepDiff.Diff<unknown, unknown>, aligned: Map<string, AlignedItem>): void {
  const p = formatPath(realPath(path, 'after', aligned));
  switch (d.kind) {
    case 'N':
      walkLeaves(d.rhs, realPath(path, 'after', aligned), (leaf, value) => out.push({ path: formatPath(leaf), type: 'add', after: value }));
      return;
    case 'D':
      walkLeaves(d.lhs, realPath(path, 'before', aligned), (leaf, value) => out.push({ path: formatPath(leaf), type: 'remove', before: value }));
      return;
    case 'E':
      out.push({ path: p, type: 'change', before: d.lhs, after: d.rhs });
      return;
    case 'A':
      pushChange(out, [...path, d.index], d.item, aligned);
      return;
    default: {
      const never: never = d;
      throw new Error(`unknown diff kind ${JSON.stringify(never)}`);
    }
  }
}

/** `['buttons', 0, 'suggestions']` → `buttons[0].suggestions`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * Order by the array indices along each path (items[0] before items[1], even
 * though deep-diff reports array changes from the end), keeping deep-diff's
 * field order among changes at the same indices (the sort is stable).
 */
function comparePaths(a: string, b: string): number {
  const ia = indices(a);
  const ib = indices(b);
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) {
    const d = (ia[i] as number) - (ib[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

function indices(path: string): number[] {
  return [...path.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
}

/** Every leaf of a new object as an `add` change, for the create view of a plan. */
export function additions(after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walkLeaves(after, [], (path, value) => out.push({ path: formatPath(path), type: 'add', after: value }));
  return out;
}

/** Every leaf of an old object as a `remove` change, for the delete view of a plan. */
export function removals(before: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walkLeaves(before, [], (path, value) => out.push({ path: formatPath(path), type: 'remove', before: value }));
  return out;
}

function walkLeaves(value: unknown, path: (string | number)[], visit: (path: (string | number)[], value: unknown) => void): void {
  if (Array.isArray(value)) {
    if (value.length === 0 && path.length > 0) visit(path, value);
    value.forEach((v, i) => walkLeaves(v, [...path, i], visit));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0 && path.length > 0) visit(path, value);
    for (const [k, v] of entries) walkLeaves(v, [...path, k], visit);
  } else if (value !== undefined) {
    visit(path, value);
  }
}
