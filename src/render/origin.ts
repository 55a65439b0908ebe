// The words every view of a compared plan (`plan --compare-to`) uses for the
// two kinds of step: those the change to the manifests causes, and those that
// undo changes made outside rcsctl since the base was applied.

import { isSplit, originCounts, stepPart } from '../plan/compare.js';
import type { BrandPlan, FieldChange, Step } from '../plan/types.js';

/** One group of a compared plan's steps, each step cut to the part of it that group shows. */
export interface OriginSection {
  side: 'change' | 'outside';
  title: string;
  steps: Step[];
}

/** Section titles. */
export const ORIGIN_TITLES = {
  change: 'From the change to the manifests',
  outside: 'Undoing changes made outside rcsctl since the base was applied',
} as const;

/**
 * The steps of a compared plan in their two groups (a step of both kinds in
 * each, with its part); undefined when the plan is not split, or when every
 * step is the change's (its origin line says so).
 */
export function originSections(plan: BrandPlan): OriginSection[] | undefined {
  if (!isSplit(plan) || plan.steps.length === 0 || plan.steps.every((s) => s.origin === 'change')) return undefined;
  const sections: OriginSection[] = [];
  for (const side of ['change', 'outside'] as const) {
    const steps = plan.steps.map((s) => stepPart(s, side)).filter((s): s is Step => s !== undefined);
    if (steps.length > 0) sections.push({ side, title: ORIGIN_TITLES[side], steps });
  }
  return sections;
}

/** Said after a field change both sides made. */
export const BOTH_NOTE = '(the manifests change it too)';

/** True for a field change both sides made. */
export function changedOnBothSides(c: FieldChange): boolean {
  return c.origin === 'both';
}

/** A compared plan's origin line: `Compared with the base: 2 steps from the change, 1 step undoing changes made outside rcsctl, 1 step doing both.`; undefined when not compared. */
export function originLine(plan: BrandPlan): string | undefined {
  const c = plan.compared;
  if (c === undefined) return undefined;
  if (c.base === 'failed') return `Not compared with the base: ${c.message}; the steps are not split.`;
  if (c.base === 'new') return plan.steps.length === 0 ? undefined : 'Compared with the base: the base does not declare this brand; every step is the change\'s.';
  if (plan.steps.length === 0) return undefined;
  const n = originCounts(plan);
  const steps = (k: number): string => `${k} step${k === 1 ? '' : 's'}`;
  const parts = [`${steps(n.change)} from the change`, `${steps(n.outside)} undoing changes made outside rcsctl`, ...(n.both > 0 ? [`${steps(n.both)} doing both`] : [])];
  return `Compared with the base: ${parts.join(', ')}.`;
}

/** Steps that undo changes made outside rcsctl (wholly or in part), over several plans. */
export function outsideSteps(plans: BrandPlan[]): { steps: number; brands: number } {
  let steps = 0;
  let brands = 0;
  for (const p of plans) {
    const n = originCounts(p);
    if (n.outside + n.both > 0) brands++;
    steps += n.outside + n.both;
  }
  return { steps, brands };
}
