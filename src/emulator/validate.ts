// Field checks shared by the routes; each throws the documented error
// (docs/decisions.md, "Error codes beyond the reference"): 64336 missing, 64303 wrong type, 64304 too long.

import { fail } from './service-error.js';

/** A JSON object from a request, or 64303 naming `field`. */
export function asObject(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('invalidType', field);
  return v as Record<string, unknown>;
}

/** A required string no longer than `max`. */
export function requiredString(o: Record<string, unknown>, field: string, max?: number): string {
  const v = o[field];
  if (v === undefined || v === null || v === '') fail('requiredValue', field);
  return checkedString(v, field, max);
}

/** An optional string no longer than `max`; undefined when absent or null. */
export function optionalString(o: Record<string, unknown>, field: string, max?: number): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  return checkedString(v, field, max);
}

/** A value that must be one of `allowed` (64303 otherwise); undefined when absent. */
export function optionalEnum<T>(o: Record<string, unknown>, field: string, allowed: readonly T[]): T | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (!allowed.includes(v as T)) fail('invalidType', field);
  return v as T;
}

/** An optional boolean. */
export function optionalBoolean(o: Record<string, unknown>, field: string): boolean | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') fail('invalidType', field);
  return v;
}

function checkedString(v: unknown, field: string, max?: number): string {
  if (typeof v !== 'string') fail('invalidType', field);
  // Lengths in UTF-16 code units, as rcsctl assumes the service counts them (docs/decisions.md).
  if (max !== undefined && v.length > max) fail('overSize', field);
  return v;
}

/** The lower-case extension of a file name, without the dot. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Deep structural equality of JSON-like values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => sameJson(ao[k], bo[k]));
}
