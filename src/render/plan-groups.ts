// Brands whose plans are the same (issue 37: a change to a shared base makes
// the same steps in every brand that uses it): the text and Markdown plans
// show such steps once, with the brands they are made in, instead of once per
// brand. The JSON plan stays per brand.

import type { BrandPlan } from '../plan/types.js';

/** Brands with the same plan, in the order their first brand comes. */
export type PlanGroup = BrandPlan[];

/**
 * `plans` in groups: brands whose `shown` is the same string share a group;
 * a brand whose `shown` is undefined (it failed, or has nothing to group) is
 * a group of its own. Groups keep the order of their first brand.
 */
export function groupPlans(plans: BrandPlan[], shown: (p: BrandPlan) => string | undefined): PlanGroup[] {
  const groups: PlanGroup[] = [];
  const byShown = new Map<string, PlanGroup>();
  for (const p of plans) {
    const key = shown(p);
    const same = key === undefined ? undefined : byShown.get(key);
    if (same !== undefined) {
      same.push(p);
      continue;
    }
    const group = [p];
    groups.push(group);
    if (key !== undefined) byShown.set(key, group);
  }
  return groups;
}

/** True when a brand's steps may be shown with other brands': it planned, with steps and no problem. */
export function groupable(p: BrandPlan): boolean {
  return p.error === undefined && p.problems.length === 0 && p.steps.length > 0;
}

/** `The same 3 changes in 37 brands`. */
export function groupHeadline(group: PlanGroup): string {
  const steps = group[0]?.steps.length ?? 0;
  return `The same ${steps === 1 ? 'change' : `${steps} changes`} in ${group.length} brands`;
}
