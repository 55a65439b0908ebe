// The repository's rules over planned brands (docs/policies.md), as plan and
// apply (the CLI) and the controller check them: each brand's manifests and
// plan, and the run. Each brand's violations go on its plan (`policy`): an
// error among them keeps the brand from being applied (src/apply/apply-brands.ts,
// `unappliable`).

import type { PolicyViolation } from '../core/policy.js';
import type { PolicyRule } from '../manifest/policy.js';
import type { SourceDoc } from '../manifest/source.js';
import type { DesiredBrand } from '../manifest/types.js';
import { isFailed, type BrandOutcome, type PlannedBrand } from '../plan/plan-brands.js';
import { evaluatePolicies, problemViolation, type PolicyBrand } from './evaluate.js';

/** What the rules know of the request under review: its labels, and whether there is one (`request`). */
export interface RequestContext {
  labels: readonly string[];
  request: boolean;
}

/** A brand as the rules see it: its id, owners, manifests and, when given, its documents. */
export function policyBrand(b: DesiredBrand, docs: Map<string, SourceDoc[]> | undefined): PolicyBrand {
  const own = docs?.get(b.brandId);
  return { brandId: b.brandId, ...(b.owners !== undefined ? { owners: b.owners } : {}), desired: b, ...(own !== undefined ? { docs: own } : {}) };
}

/**
 * Every rule over the planned brands of `outcomes` (those that failed are not
 * checked): each brand's violations are set on its plan (`plan.policy`, the
 * outcome's own object); the run's (rules on the whole run, and rules that
 * could not be evaluated) are returned.
 */
export async function checkPlannedBrands(rules: readonly PolicyRule[], docs: Map<string, SourceDoc[]> | undefined, outcomes: readonly BrandOutcome[], request: RequestContext): Promise<PolicyViolation[]> {
  if (rules.length === 0) return [];
  const planned = outcomes.filter((o): o is PlannedBrand => !isFailed(o));
  const result = await evaluatePolicies(rules, planned.map((o) => ({ ...policyBrand(o.desired, docs), plan: o.plan })), { ...request, scope: 'all' });
  const byBrand = new Map<string, PolicyViolation[]>();
  const run: PolicyViolation[] = [...result.problems.map(problemViolation)];
  for (const v of result.violations) {
    if (v.brandId === undefined) run.push(v);
    else byBrand.set(v.brandId, [...(byBrand.get(v.brandId) ?? []), v]);
  }
  for (const o of planned) {
    const found = byBrand.get(o.plan.brandId);
    if (found !== undefined) o.plan.policy = found;
  }
  return run;
}
