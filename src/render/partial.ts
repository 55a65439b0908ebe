// The banner of a partial merge (`report merge --allow-partial`), in every
// format the merge writes: a reader must not take a report that lacks shards
// for the whole set, whichever view of it they see.

import type { ShardGaps } from '../plan/shard.js';
import { describeGaps } from '../report/shard-set.js';
import { inline } from '../util/markdown.js';
import { xmlAttr, xmlText } from '../util/xml.js';

/** `PARTIAL REPORT: shard 3/4 is missing. It holds 31 of the 40 brands; …`, one line. */
export function partialSentence(g: ShardGaps, brands: number): string {
  const held = brands >= g.split.brandSetSize ? `It holds all ${brands} brands, but not every shard's report` : `It holds ${brands} of the ${g.split.brandSetSize} brands; the brands of the shards left out are not in it`;
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
