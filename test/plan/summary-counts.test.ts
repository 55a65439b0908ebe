// The summary counts match what a plan lists: every step line is counted once
// as a create, update or delete, and each +, ~ and - marker is counted under
// its own word (blocked ! and review ⚑ steps are counted by what they would do).
// Checked over every golden plan of the plan cases. Every brand either has a
// summary line or says its plan failed, so a reworded summary fails here
// instead of leaving every case with nothing to check; and what was checked is
// counted.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CASES = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'plan-cases');
const SUMMARY = /^Plan: (\d+) to create, (\d+) to update, (\d+) to delete; (\d+) blocked, (\d+) needs? review/m;
/** A brand that could not be planned says so instead of a summary (`Plan failed: 1 problem`, `Brand BR.x: failed: …`). */
const FAILED = /^Plan failed: |^Brand [^\n]*: failed: /m;

/** The cases where a brand's plan fails on purpose (an error case): they have no summary line to check. */
const FAILING = [
  '016-duplicate-live-names-error',
  '022-new-room-without-certificate-error',
  '023-pinned-id-missing-error',
  '038-two-brands-one-with-problem',
  '067-template-breaks-its-form',
  '068-auto-reply-unknown-common-messagebase',
  '080-template-image-wrong-size',
  '095-base-error-once-for-its-brands',
  '096-base-variable-missing-and-unused-override',
];

describe('summary counts match the listed steps', () => {
  const cases = readdirSync(CASES).filter((c) => existsSync(join(CASES, c, 'plan.txt')));
  const checked: string[] = [];
  const failed: string[] = [];
  it.each(cases)('%s', (name) => {
    const text = readFileSync(join(CASES, name, 'plan.txt'), 'utf8');
    const brands = text.split(/^(?=Brand )/m).filter((b) => b.startsWith('Brand '));
    // A case with no brand at all stopped before planning: its plan.txt is an error.
    if (brands.length === 0) expect(text).toMatch(/error/i);
    for (const brand of brands) {
      const summary = SUMMARY.exec(brand);
      if (summary === null) {
        expect(brand, `${name}: a brand with no summary line must say its plan failed`).toMatch(FAILED);
        failed.push(name);
        continue;
      }
      checked.push(name);
      const [create, update, del, blocked, review] = summary.slice(1).map(Number) as [number, number, number, number, number];
      // A step listed twice is one step: a plan compared with its base (`--compare-to`) lists a step of both origins in each group, with its part.
      const compared = /^Compared with the base: /m.test(brand);
      const marker = (m: string): number => {
        const lines = brand.split('\n').filter((l) => l.startsWith(`  ${m} `));
        return compared ? new Set(lines).size : lines.length;
      };
      expect(marker('+') + marker('~') + marker('-') + marker('!') + marker('⚑'), 'every listed step is counted once').toBe(create + update + del);
      expect(marker('!')).toBe(blocked);
      expect(marker('⚑')).toBeLessThanOrEqual(review);
      expect(marker('+')).toBeLessThanOrEqual(create);
      expect(marker('~')).toBeLessThanOrEqual(update);
      expect(marker('-')).toBeLessThanOrEqual(del);
      if (blocked + review === 0) expect([marker('+'), marker('~'), marker('-')]).toEqual([create, update, del]);
    }
  });

  // Counted after every case ran: every case has a summary to check but the error cases (FAILING).
  afterAll(() => {
    console.log(`summary counts: ${checked.length} brand summaries checked in ${new Set(checked).size} of ${cases.length} cases; ${failed.length} brands failed to plan (${[...new Set(failed)].join(', ')})`);
    expect(new Set(checked).size).toBeGreaterThanOrEqual(cases.length - FAILING.length);
    // Exactly the cases written to fail a brand plan on purpose (a new one is added here), each brand once.
    expect([...failed].sort()).toEqual([...FAILING].sort());
  });
});
