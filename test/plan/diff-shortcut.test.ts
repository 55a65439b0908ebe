// diffObjects proves most pairs unchanged with one walk (sameJson) before it
// aligns and deep-diffs. The shortcut may only ever answer "no change" where
// the full diff finds none: checked on random data, on copies, and on one
// change planted anywhere in a copy.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffInFull, diffObjects, sameJson } from '../../src/plan/diff.js';

const json = fc.jsonValue({ maxDepth: 4 });

/** `value` with the leaf at a random path replaced by `leaf` (or `value` itself when it has none). */
function plant(value: unknown, pick: number, leaf: unknown): unknown {
  if (Array.isArray(value) && value.length > 0) {
    const i = pick % value.length;
    return value.map((v, j) => (j === i ? plant(v, Math.floor(pick / value.length), leaf) : v));
  }
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    const k = keys[pick % keys.length] as string;
    return { ...value, [k]: plant((value as Record<string, unknown>)[k], Math.floor(pick / keys.length), leaf) };
  }
  return leaf;
}

describe('the unchanged-data shortcut of diffObjects', () => {
  it('gives what the full diff gives, for any two values', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(diffObjects(a, b)).toEqual(diffInFull(a, b));
        if (sameJson(a, b)) expect(diffInFull(a, b)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('proves a copy equal, and a copy with one changed leaf unequal, with the full diff naming the change', () => {
    fc.assert(
      fc.property(json, fc.nat(), fc.oneof(fc.string(), fc.integer(), fc.boolean()), (a, pick, leaf) => {
        expect(sameJson(a, structuredClone(a))).toBe(true);
        expect(diffObjects(a, structuredClone(a))).toEqual([]);
        const changed = plant(structuredClone(a), pick, leaf);
        if (sameJson(a, changed)) return;
        expect(diffObjects(a, changed)).toEqual(diffInFull(a, changed));
      }),
      { numRuns: 500 },
    );
  });

  it('never takes what is not plain data as equal', () => {
    expect(sameJson({ a: Number.NaN }, { a: Number.NaN })).toBe(false);
    expect(sameJson(new Date(0), new Date(1))).toBe(false);
    expect(sameJson({ a: undefined }, {})).toBe(false);
    expect(sameJson([1, [2]], [1, [2]])).toBe(true);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
  });
});
