// Checks that a response has the documented shape before anyone uses it, so a
// service change fails here with the field's name instead of later, far away,
// as `undefined is not a function`. Extra fields are allowed (the service adds
// fields over time); missing or mistyped ones named in types.ts are not.

/** A check: calls `fail` with the JSON path when `value` does not fit. */
export type Check = (value: unknown, at: string, fail: ShapeFailure) => void;

/** Called with the JSON path, what was expected and what came. */
export type ShapeFailure = (field: string, expected: string, actual: string) => never;

/** Type name of a value for messages; never the value itself (it may be large or private). */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'undefined' ? 'nothing' : typeof value;
}

function simple(expected: string, ok: (v: unknown) => boolean): Check {
  return (value, at, fail) => {
    if (!ok(value)) fail(at, expected, typeName(value));
  };
}

/** A string. */
export const str: Check = simple('a string', (v) => typeof v === 'string');
/** A finite number. */
export const num: Check = simple('a number', (v) => typeof v === 'number' && Number.isFinite(v));
/** A boolean. */
export const bool: Check = simple('a boolean', (v) => typeof v === 'boolean');
/** Anything at all (documented but not interpreted by the client). */
export const any: Check = () => undefined;
/** A plain object, contents unchecked. */
export const anyObject: Check = simple('an object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v));

/** `inner`, or null, or absent. */
export function opt(inner: Check): Check {
  return (value, at, fail) => {
    if (value !== undefined && value !== null) inner(value, at, fail);
  };
}

/** An array whose every element passes `inner`. */
export function arr(inner: Check): Check {
  return (value, at, fail) => {
    if (!Array.isArray(value)) return fail(at, 'an array', typeName(value));
    value.forEach((item: unknown, i: number) => inner(item, `${at}[${i}]`, fail));
  };
}

/** An object with these fields. */
export function obj(fields: Record<string, Check>): Check {
  return (value, at, fail) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(at, 'an object', typeName(value));
    const rec = value as Record<string, unknown>;
    for (const [key, check] of Object.entries(fields)) check(rec[key], at === '' ? key : `${at}.${key}`, fail);
  };
}

/** Run `check` on `value` and return it typed as T (the check is what earns the cast). */
export function expectShape<T>(value: unknown, check: Check, at: string, fail: ShapeFailure): T {
  check(value, at, fail);
  return value as T;
}

/**
 * A copy of `o` in which each of `fields` that holds no value (absent, null or
 * "") is null: the service's answers are not consistent about which of the three
 * it uses, so the rest of rcsctl sees one.
 */
export function unsetAsNull<T extends object>(o: T, fields: readonly (keyof T)[]): T {
  const out = { ...o } as Record<keyof T, unknown>;
  for (const f of fields) if (out[f] === undefined || out[f] === null || out[f] === '') out[f] = null;
  return out as T;
}
