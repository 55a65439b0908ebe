// The summary counts match what a plan lists: every step line is counted once
// as a create, update or delete, and each +, ~ and - marker is counted under
// its own word (blocked ! and review ⚑ steps are counted by what they would do).
// Checked over every golden plan of the plan cases.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CASES = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'plan-cases');

describe('summary counts match the listed steps', () => {
  const cases = readdirSync(CASES).filter((c) => existsSync(join(CASES, c, 'plan.txt')));
  it.each(cases)('%s', (name) => {
    const text = readFileSync(join(CASES, name, 'plan.txt'), 'utf8');
    for (const brand of text.split(/^(?=Brand )/m).filter((b) => b.startsWith('Brand '))) {
      const summary = /^Plan: (\d+) to create, (\d+) to update, (\d+) to delete; (\d+) blocked, (\d+) needs? review/m.exec(brand);
      if (summary === null) continue; // a brand that could not be planned has no summary
      const [create, update, del, blocked, review] = summary.slice(1).map(Number) as [number, number, number, number, number];
      const marker = (m: string): number => brand.split('\n').filter((l) => l.startsWith(`  ${m} `)).length;
      expect(marker('+') + marker('~') + marker('-') + marker('!') + marker('⚑'), 'every listed step is counted once').toBe(create + update + del);
      expect(marker('!')).toBe(blocked);
      expect(marker('⚑')).toBeLessThanOrEqual(review);
      expect(marker('+')).toBeLessThanOrEqual(create);
      expect(marker('~')).toBeLessThanOrEqual(update);
      expect(marker('-')).toBeLessThanOrEqual(del);
      if (blocked + review === 0) expect([marker('+'), marker('~'), marker('-')]).toEqual([create, update, del]);
    }
  });
});
