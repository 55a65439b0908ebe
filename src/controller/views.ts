// What the controller's page draws with but may not import: the plan's HTML
// and the preview's drawing live in src/render and src/preview, above which
// the controller sits only as a driver (the layer rules). Whoever starts the
// controller (the CLI, the library entry) hands them in
// (src/render/controller-views.ts); without them the brand page lists the
// pending steps from /status and draws no preview.

import type { DesiredBrand } from '../manifest/types.js';
import type { BrandPlan } from '../plan/types.js';

/** The renderers the brand page uses. Each returns HTML whose every value is escaped. */
export interface ControllerViews {
  /** The pending plan, as a fragment (the plan's own rendering: fields before and after). */
  plan(plan: BrandPlan): string;
  /** A whole self-contained page: the pending plan's messages and menus, live against proposed (`rcsctl plan --preview`). */
  changes(plan: BrandPlan, desired: DesiredBrand | undefined): string;
  /** A whole self-contained page: the brand drawn from its manifests (`rcsctl preview`). */
  brand(desired: DesiredBrand): string;
}
