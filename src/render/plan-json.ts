// The JSON view of a plan file (schemas/plan.schema.json): the file with a
// summary per brand, as `plan --format json`, `show` and `report merge` print it.

import { shortenLong } from '../core/shorten.js';
import { baseSummary, summarise } from '../plan/build-plan.js';
import type { PlanFile } from '../plan/types.js';
import { planTotals } from './plan-text.js';

/** The plan file with a summary per brand, one of them all (the failed brands counted), and the shared bases its steps come from with the brands each changes. */
export function withSummaries(file: PlanFile): unknown {
  const bases = baseSummary(file.brands);
  return { ...file, summary: planTotals(file.brands), ...(bases.length > 0 ? { sharedBases: bases } : {}), brands: file.brands.map((b) => ({ ...b, summary: summarise(b) })) };
}

/**
 * The plan file as pretty-printed JSON with its summaries and a trailing newline:
 * a view, so long strings are shortened (src/core/shorten.ts), and a view that
 * shortened one says so (`shortened: true`) and cannot be applied; the saved
 * plan (`--out`, writePlanFile) keeps every value whole.
 */
export function renderPlanJson(file: PlanFile): string {
  const whole = withSummaries(file) as PlanFile;
  const shown = shortenLong(whole);
  return JSON.stringify(shown !== whole || file.shortened === true ? { ...shown, shortened: true } : shown, null, 2) + '\n';
}
