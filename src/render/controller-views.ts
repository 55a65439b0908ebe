// The controller's page draws plans and previews with the same renderers the
// CLI uses (src/controller/views.ts says why they are handed in): the plan's
// HTML (plan-html.ts) and `rcsctl preview`'s and `plan --preview`'s pages.

import type { DesiredBrand } from '../manifest/types.js';
import type { BrandPlan } from '../plan/types.js';
import { brandPreviewPage, changesPreviewPage } from '../preview/index.js';
import { renderPlanHtml } from './plan-html.js';

/** The renderers for `startController({ views })`; `cwd` is where the manifests' relative paths start. */
export function controllerViews(version: string, cwd: string): { plan(plan: BrandPlan): string; changes(plan: BrandPlan, desired: DesiredBrand | undefined): string; brand(desired: DesiredBrand): string } {
  return {
    plan: renderPlanHtml,
    changes: (plan, desired) => changesPreviewPage({ plan, ...(desired !== undefined ? { desired } : {}) }, version),
    brand: (desired) => brandPreviewPage(desired, version, cwd),
  };
}
