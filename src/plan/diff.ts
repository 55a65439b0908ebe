// Field-level differences between two normalised objects, through deep-diff,
// with paths written the way a reader expects: `buttons[0].suggestions[1].action.displayText`.

import deepDiff from 'deep-diff';
import type { FieldChange } from './types.js';

/** The changes that turn `before` (live, normalised) into `after` (desired, normalised). */
export function diffObjects(before: unknown, after: unknown): FieldChange[] {
  const raw = deepDiff.diff(before as object, after as object) ?? [];
  const changes: FieldChange[] = [];
  for (const d of raw) {
    const path = [...(d.path ?? [])];
    if (d.kind === 'A') {
      path.push(d.index);
      pushChange(changes, path, d.item);
    } else {
      pushChange(changes, path, d);
    }
  }
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

function pushChange(out: FieldChange[], path: (string | number)[], d: deepDiff.Diff<unknown, unknown>): void {
  const p = formatPath(path);
  switch (d.kind) {
    case 'N':
      walkLeaves(d.rhs, path, (leaf, value) => out.push({ path: formatPath(leaf), type: 'add', after: value }));
      return;
    case 'D':
      walkLeaves(d.lhs, path, (leaf, value) => out.push({ path: formatPath(leaf), type: 'remove', before: value }));
      return;
    case 'E':
      out.push({ path: p, type: 'change', before: d.lhs, after: d.rhs });
      return;
    case 'A':
      pushChange(out, [...path, d.index], d.item);
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

/** A value as shown in a plan; ids not known until apply read `(known after apply)`. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') {
    const ref = /^<ref:([A-Za-z]+):([^>]+)>$/.exec(v);
    if (ref) return `(known after apply: ${ref[1]}.${ref[2]})`;
    return JSON.stringify(v);
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** One field change as a line: `+ path: value`, `- path: value`, `~ path: before → after`. */
export function formatChange(c: FieldChange): string {
  switch (c.type) {
    case 'add':
      return `+ ${c.path}: ${formatValue(c.after)}`;
    case 'remove':
      return `- ${c.path}: ${formatValue(c.before)}`;
    case 'change':
      return `~ ${c.path}: ${formatValue(c.before)} → ${formatValue(c.after)}`;
    default: {
      const never: never = c.type;
      throw new Error(`unknown change ${String(never)}`);
    }
  }
}
