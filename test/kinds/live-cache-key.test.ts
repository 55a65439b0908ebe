// The live cache's list key is written without stableStringify's copy and
// sort when every field is a string or null (as the list gives them); it must
// stay the very text stableStringify writes, which the cache files on disk hold.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AutoReplyListItem } from '../../src/api/types.js';
import { listKey } from '../../src/kinds/auto-reply/cache.js';
import { stableStringify } from '../../src/util/stable-json.js';

const FIELDS = ['brandId', 'autoReplyMsgId', 'autoReplyMsgName', 'messagebaseId', 'approvalResult', 'registerDate', 'updateDate', 'registerId', 'updateId'] as const;

describe('the live cache list key', () => {
  it('is the stable JSON of the list fields, whatever they hold', () => {
    const value = fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined), fc.integer(), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(fc.record(Object.fromEntries(FIELDS.map((f) => [f, value])) as Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>>), fc.dictionary(fc.string(), fc.string()), (fields, extra) => {
        const item = { ...extra, ...fields } as unknown as AutoReplyListItem;
        const expected: Record<string, unknown> = {};
        for (const f of FIELDS) expected[f] = (item as unknown as Record<string, unknown>)[f] ?? null;
        expect(listKey(item)).toBe(stableStringify(expected));
      }),
      { numRuns: 500 },
    );
  });
});
