// An auto-reply's messagebaseId against the service's own list of common
// messagebases (read once per run with the templates' forms): an id the
// service does not list is an error when planning, with the nearest ids.

import type { LiveBrand } from '../../core/live.js';
import type { PlanProblem } from '../../core/step.js';
import { didYouMean } from '../../manifest/suggest.js';
import type { DesiredAutoReply } from './types.js';

/** Desired auto-replies whose messagebaseId the service does not list. */
export function unknownMessagebases(desired: DesiredAutoReply[], live: LiveBrand): PlanProblem[] {
  const common = live.templates?.commonIds;
  if (common === undefined || common.length === 0) return [];
  const known = new Set(common);
  return desired
    .filter((d) => !known.has(d.messagebaseId))
    .map((d) => ({
      code: 'RCS536',
      address: `autoReply.${d.handle}`,
      message: `${d.source.file}:${d.source.line}: messagebaseId "${d.messagebaseId}" is not a common messagebase of this service${didYouMean(d.messagebaseId, common)}`,
      file: d.source.file,
      line: d.source.line,
    }));
}
