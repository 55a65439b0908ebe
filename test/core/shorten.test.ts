// How a long value is shown: short strings as they are, long ones as their
// start and end, length and hash, never cutting a character in two, never
// showing part of a value to hide; objects copied only when something in them
// was shortened.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/core/refs.js';
import { hideWhenShortening, shortenLong, shortText, SHOWN_WHOLE } from '../../src/core/shorten.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('shortText and formatValue', () => {
  it('show a string of up to SHOWN_WHOLE characters whole, and a longer one by its ends, length and hash', () => {
    const edge = 'e'.repeat(SHOWN_WHOLE);
    expect(shortText(edge)).toBe(edge);
    expect(formatValue(edge)).toBe(JSON.stringify(edge));
    const long = `${'h'.repeat(100)}${'m'.repeat(5000)}${'t'.repeat(40)}`;
    const hash = createHash('sha256').update(long).digest('hex').slice(0, 12);
    expect(shortText(long)).toBe(`${'h'.repeat(100)}…${'t'.repeat(40)} (5,140 characters, sha256 ${hash})`);
    expect(formatValue(long)).toBe(`"${'h'.repeat(100)}"…"${'t'.repeat(40)}" (5,140 characters, sha256 ${hash})`);
    expect(formatValue({ body: { description: long, title: 'T' } })).toBe(`{"body":{"description":"${'h'.repeat(100)}…${'t'.repeat(40)} (5,140 characters, sha256 ${hash})","title":"T"}}`);
  });

  it('never cuts an emoji (a surrogate pair) in two, at either end', () => {
    for (let shift = 0; shift < 3; shift++) {
      const text = `${'a'.repeat(shift)}${'😀'.repeat(400)}`;
      expect(shortText(text), String(shift)).not.toMatch(LONE_SURROGATE);
    }
  });

  it('hides a value to hide before it cuts, so no part of it shows', () => {
    const secret = 'Kx7Qm2Vp9Lz4Wt8R';
    hideWhenShortening([secret]);
    const shown = shortText(`${'a'.repeat(95)}${secret}${'b'.repeat(1000)}${secret}c`);
    for (let i = 0; i + 4 <= secret.length; i++) expect(shown).not.toContain(secret.slice(i, i + 4));
    expect(shown.startsWith(`${'a'.repeat(95)}(sens…`)).toBe(true);
  });

  it('returns the same object when nothing in it is long, and a copy holding the shortened form otherwise', () => {
    const small = { a: ['x', { b: 'y' }], n: 1 };
    expect(shortenLong(small)).toBe(small);
    const big = { keep: { c: 'z' }, list: ['ok', 'L'.repeat(SHOWN_WHOLE + 1)] };
    const shown = shortenLong(big);
    expect(shown).not.toBe(big);
    expect(shown.keep).toBe(big.keep);
    expect(shown.list[1]).toMatch(/^L{100}…L{40} \(301 characters, sha256 [0-9a-f]{12}\)$/);
    expect(big.list[1]).toHaveLength(SHOWN_WHOLE + 1);
  });
});
