// The JSON view of a plan file (schemas/plan.schema.json): the file with a
// summary per brand, as `plan --format json`, `show` and `report merge` print it.

import { summarise } from '../plan/build-plan.js';
import type { PlanFile } from '../plan/types.js';

/** The plan file with a summary per brand. */
export function withSummaries(file: PlanFile): unknown {
  return { ...file, brands: file.brands.map((b) => ({ ...b, summary: summarise(b) })) };
}

/** The plan file as pretty-printed JSON with its summaries and a trailing newline. */
export function renderPlanJson(file: PlanFile): string {
  return JSON.stringify(withSummaries(file), null, 2) + '\n';
}
