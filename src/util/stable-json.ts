import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values give equal text (for hashing). */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** A copy of `value` with every object's keys in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Lower-case hex SHA-256 of the stable JSON of `value`. */
export function hashValue(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}
