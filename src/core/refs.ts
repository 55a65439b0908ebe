// Placeholders `<ref:kind:key>` in step requests are ids the plan could not know:
// the applier learns them as create and upload steps finish.

import { PLACEHOLDER_PATTERN } from './step.js';
import { RcsctlError } from '../errors.js';
import { isLong, shortenLong, shortNote, shortParts } from './shorten.js';
import type { Step } from './step.js';

/** Service ids learnt during a run, by token (`autoReply:hours`). */
export type IdMap = Map<string, string>;

/** A copy of `value` with every placeholder replaced by its id; an unknown one is an error. */
export function resolveRefs<T>(value: T, ids: IdMap): T {
  return walk(value, ids) as T;
}

function walk(value: unknown, ids: IdMap): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER_PATTERN, (_m, kind: string, key: string) => {
      const id = ids.get(`${kind}:${key}`);
      if (id === undefined) throw new RcsctlError('E_APPLY_REF', `${kind}.${key} has no id yet: the step that creates it did not run`);
      return id;
    });
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, ids));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, ids)]));
  }
  return value;
}

/** The token (`autoReply:hours`) of the resource a step acts on, from its address. */
export function tokenOf(step: Pick<Step, 'kind' | 'address'>): string {
  return `${step.kind}:${keyOf(step)}`;
}

/** The key in a step's address (`persistentMenu.0212345678` → `0212345678`): a handle, or the service id where identity is one. */
export function keyOf(step: Pick<Step, 'kind' | 'address'>): string {
  return step.address.slice(step.kind.length + 1);
}

/**
 * A value as shown in a plan, a drift report or a message; ids not known until
 * apply read `(known after apply)`, and a long string its start and end, length
 * and hash: `"Dear…" … "…end." (3,145,728 characters, sha256 9f86d081e2a4)`
 * (src/core/shorten.ts). Every view of a value comes here, so every format shortens alike.
 */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') {
    const ref = /^<ref:([A-Za-z]+):([^>]+)>$/.exec(v);
    if (ref) return `(known after apply: ${ref[1]}.${ref[2]})`;
    if (isLong(v)) {
      const p = shortParts(v);
      return `${JSON.stringify(p.head)}…${JSON.stringify(p.tail)} ${shortNote(p)}`;
    }
    return JSON.stringify(v);
  }
  return JSON.stringify(shortenLong(v)) ?? 'undefined';
}
