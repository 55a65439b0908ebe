// The JSON view of a drift report: the report object as is, valid against
// schemas/drift-report.schema.json (tested), for scripts and dashboards.

import { shortenLong } from '../core/shorten.js';
import type { DriftReport } from '../report/types.js';

/** Render the report as pretty-printed JSON with a trailing newline; long strings shortened, as in every view. */
export function renderDriftJson(report: DriftReport): string {
  return JSON.stringify(shortenLong(report), null, 2) + '\n';
}
