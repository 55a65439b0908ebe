// Rules on the whole run across shards (docs/policies.md, "In CI"): a plan
// made with --shard sees its own brands only, so a limit per change ("at
// most 10 deletes") would hold in each of four shards of 3 deletes. Each
// plan records its run rules and the request they were checked for
// (`runRules`); `report merge` checks them again over the merged brands, and
// that verdict replaces the shards' (docs/decisions.md, "Run rules across
// shards").

import type { PolicyViolation, RunRules } from '../core/policy.js';
import type { PolicyRule } from '../manifest/policy.js';
import type { PlanFile } from '../plan/types.js';
import { evaluatePolicies, problemViolation } from './evaluate.js';

/** What a plan records of `rules`' run rules, or undefined when there is none. */
export function recordRunRules(rules: readonly PolicyRule[], request: { labels: readonly string[]; request: boolean }): RunRules | undefined {
  const run = rules.filter((r) => r.check === 'run');
  if (run.length === 0) return undefined;
  return {
    rules: run.map((r) => ({
      name: r.name,
      severity: r.severity,
      expression: r.expression,
      message: r.message,
      ...(r.messageExpression !== undefined ? { messageExpression: r.messageExpression } : {}),
      exceptions: r.exceptions.map((e) => ({ brand: e.brand, reason: e.reason })),
      file: r.at.file,
      line: r.at.line,
      col: r.at.col,
    })),
    labels: [...request.labels],
    request: request.request,
  };
}

/** The rules a plan recorded, as the evaluator takes them. */
function rulesOf(recorded: RunRules): PolicyRule[] {
  return recorded.rules.map((r) => ({
    name: r.name,
    severity: r.severity,
    check: 'run',
    expression: r.expression,
    message: r.message,
    ...(r.messageExpression !== undefined ? { messageExpression: r.messageExpression } : {}),
    exceptions: r.exceptions,
    at: { file: r.file, line: r.line, col: r.col },
    fieldAt: {},
  }));
}

/**
 * A merged plan with its run rules checked again over all its brands: the
 * shards' verdicts of those rules are replaced by the whole's; the rest of
 * the run's verdicts (rules that could not be evaluated) stay. A plan that
 * recorded no run rule is returned as it is.
 */
export async function checkRunRulesAgain(file: PlanFile): Promise<PlanFile> {
  const recorded = file.runRules;
  if (recorded === undefined) return file;
  const names = new Set(recorded.rules.map((r) => r.name));
  const kept = (file.policy ?? []).filter((v) => !names.has(v.rule));
  const brands = file.brands.map((p) => ({ brandId: p.brandId, ...(p.owners !== undefined ? { owners: p.owners } : {}), plan: p }));
  const result = await evaluatePolicies(rulesOf(recorded), brands, { labels: recorded.labels, request: recorded.request, scope: 'all' });
  const policy: PolicyViolation[] = [...kept, ...result.problems.map(problemViolation), ...result.violations];
  const { policy: _, ...rest } = file;
  return { ...rest, ...(policy.length > 0 ? { policy } : {}) };
}
