// The banner of a partial merge (`report merge --allow-partial`), in every
// format the merge writes: a reader must not take a report that lacks shards
// for the whole set, whichever view of it they see.

import type { ShardGaps } from '../plan/shard.js';
import { describeGaps } from '../report/shard-set.js';
import { inline } from '../util/markdown.js';
import { xmlAttr, xmlText } from '../util/xml.js';

/**
 * `PARTIAL REPORT: shard 3/4 is missing. 9 of the 40 brands (those of the
 * shards left out) are not in this report; it holds the other 31.`, one line.
 * The count of what is missing comes first: "It holds 31 of the 40" read as
 * if the missing shard held 31 (issue 35). The missing brands' ids are not
 * known here: a shard report names only its own brands.
 */
export function partialSentence(g: ShardGaps, brands: number): string {
  const size = g.split.brandSetSize;
  const held =
    brands >= size
      ? `This report holds all ${brands} brands, but not every shard's report`
      : `${size - brands} of the ${size} brands (those of the shards left out) are not in this report; it holds the other ${brands}`;
  return `PARTIAL REPORT: ${describeGaps(g)}. ${held}.`;
}

/** The text banner: one line between rules of `!`, for the top and the end of a text report. */
export function partialText(g: ShardGaps, brands: number): string[] {
  const line = `!! ${partialSentence(g, brands)}`;
  return ['!'.repeat(72), line, '!'.repeat(72)];
}

/** A GitHub caution block, for the top of a Markdown report. */
export function partialMarkdown(g: ShardGaps, brands: number): string[] {
  return ['> [!CAUTION]', `> **${inline(partialSentence(g, brands))}**`, ''];
}

/** An errored JUnit test suite of its own, so a CI test view shows the report is partial. */
export function partialJunit(g: ShardGaps, brands: number): string[] {
  const sentence = partialSentence(g, brands);
  return [
    '  <testsuite name="rcsctl report merge" tests="1" failures="0" errors="1" skipped="0">',
    '    <testcase classname="rcsctl report merge" name="shard set">',
    `      <error message="${xmlAttr(sentence)}" type="partial">${xmlText(sentence)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}
