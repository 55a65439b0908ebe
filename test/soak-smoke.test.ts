// `npm run soak` is run by hand, at scale (200 seeds, 20 kills, 20 pairs):
// this runs one trial of each of its scenarios, so that a change to what a
// converged brand prints cannot leave the soak failing every trial unseen
// (its clean-plan check once looked for "No changes." and failed all 200
// seeds when a brand with undeclared live rooms got another line).

import { describe, expect, it } from 'vitest';
import { formatSoak, runSoak } from '../scripts/soak.js';

describe('the soak, one trial of each scenario', () => {
  it('converges after faults, after kill -9, and after two machines at once', async () => {
    const categories = await runSoak({ seeds: 2, kills: 1, pairs: 1, parallel: 2 });
    expect(categories.map((c) => c.trials).every((n) => n > 0)).toBe(true);
    expect(categories.reduce((n, c) => n + c.failures, 0), formatSoak(categories, 0)).toBe(0);
  }, 120_000);
});
