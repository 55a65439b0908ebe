// `plan --compare-to DIR`: which steps the change to the manifests causes, and
// which undo changes made outside rcsctl since the base was applied. The plan
// of the head manifests against live is compared, step by step and field by
// field, with the plan the base's manifests would give against the same live
// state (read once): a field the base would set to the same value is one the
// change leaves alone, so live moved away from it outside rcsctl; a field the
// base would not touch is the change's; a field the base would set to another
// value was changed on both sides. Pure, and generic over the kinds.

import type { BrandPlan, FieldChange, Origin, Step } from './types.js';
import { sameJson } from './diff.js';

/** Mark `head`'s steps and field changes with their origin, given the base's plan against the same live state (undefined: the base does not declare the brand). */
export function compareWithBase(head: BrandPlan, base: BrandPlan | undefined): void {
  if (base === undefined) {
    for (const step of head.steps) markAll(step, 'change');
    head.compared = { base: 'new' };
    return;
  }
  const baseSteps = new Map(base.steps.map((s) => [s.id, s]));
  for (const step of head.steps) {
    const before = baseSteps.get(step.id);
    if (before === undefined) {
      // The base would leave the resource as it is live: all of it is the change's.
      markAll(step, 'change');
      continue;
    }
    for (const c of step.changes) c.origin = fieldOrigin(c, before.changes);
    step.origin = stepOrigin(step, before);
  }
  head.compared = { base: 'declared' };
}

/** The base's plan failed (its manifests have errors): the steps are not split, and the plan says why. */
export function baseFailed(head: BrandPlan, message: string): void {
  head.compared = { base: 'failed', message };
}

function markAll(step: Step, origin: Origin): void {
  step.origin = origin;
  for (const c of step.changes) c.origin = origin;
}

/** A field the base changes the same way is outside's; one it does not change the change's; one it changes otherwise both's. */
function fieldOrigin(c: FieldChange, base: FieldChange[]): Origin {
  const b = base.find((x) => x.path === c.path);
  if (b === undefined) return 'change';
  return b.type === c.type && sameJson(b.after, c.after) ? 'outside' : 'both';
}

/** A step's origin from its fields'; a step with no field changes (an upload) that the base would make too is outside's. */
function stepOrigin(step: Step, base: Step): Origin {
  const origins = new Set(step.changes.map((c) => c.origin));
  if (origins.size === 0) return base.op === step.op ? 'outside' : 'change';
  if (origins.size === 1) return [...origins][0] as Origin;
  return 'both';
}

/** Steps by origin: a step of `both` counts in `both` only. */
export interface OriginCounts {
  change: number;
  outside: number;
  both: number;
}

/** How many steps of `plan` each origin caused (all zero for a plan not compared). */
export function originCounts(plan: Pick<BrandPlan, 'steps'>): OriginCounts {
  const n: OriginCounts = { change: 0, outside: 0, both: 0 };
  for (const s of plan.steps) if (s.origin !== undefined) n[s.origin]++;
  return n;
}

/** True when the plan's steps are split by origin (compared with a base that could be planned). */
export function isSplit(plan: Pick<BrandPlan, 'compared'>): boolean {
  return plan.compared !== undefined && plan.compared.base !== 'failed';
}

/**
 * The part of a step that `side` shows: the change's fields, or those that
 * undo changes made outside rcsctl with those changed on both sides (where
 * the reviewer must see that a console edit is overwritten); undefined when
 * the step has none of that side.
 */
export function stepPart(step: Step, side: 'change' | 'outside'): Step | undefined {
  const origin = step.origin ?? 'change';
  const mine = (o: Origin): boolean => (side === 'change' ? o === 'change' : o !== 'change');
  if (step.changes.length === 0) return mine(origin) ? step : undefined;
  const changes = step.changes.filter((c) => mine(c.origin ?? origin));
  return changes.length === 0 ? undefined : { ...step, changes };
}
