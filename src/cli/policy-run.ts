// Policies in the commands (docs/policies.md): the labels the CI gives
// (--label, RCSCTL_LABELS), the rules' verdicts as validate's diagnostics,
// and on plans (plan, apply): each brand's violations on its plan, the run's
// on the plan file.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { PolicyViolation } from '../core/policy.js';
import type { LoadedManifests } from '../manifest/load-manifests.js';
import { violationCode, type PolicyRule } from '../manifest/policy.js';
import type { SourceDoc } from '../manifest/source.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import { isFailed, type BrandOutcome } from '../plan/plan-brands.js';
import type { PlanFile } from '../plan/types.js';
import { evaluatePolicies } from '../policy/evaluate.js';
import { checkPlannedBrands, policyBrand } from '../policy/plan-policies.js';
import { recordRunRules } from '../policy/run-rules.js';
import type { CommandContext } from './context.js';

/** Add --label (validate, plan, apply). */
export function withLabelOption(command: Command): Command {
  return command.option('--label <name>', "a label of the pull request, for policy rules (`labels`; repeatable; env: RCSCTL_LABELS, comma-separated)", (v: string, prev: string[] = []) => [...prev, v]);
}

/** What the rules know of the request under review (src/policy/plan-policies.ts). */
export interface RequestContext {
  labels: string[];
  request: boolean;
}

/**
 * The labels (docs/policies.md): each --label, RCSCTL_LABELS (comma-separated),
 * and the CI's own: GitLab's CI_MERGE_REQUEST_LABELS, GitHub's pull request
 * event (the labels of GITHUB_EVENT_PATH's pull_request). `request` is true
 * when the run is for a pull or merge request (a label given, a GitLab merge
 * request pipeline, a GitHub pull_request event), false on a branch.
 */
export function labelsOf(ctx: CommandContext, flags: { label?: string[] }): RequestContext {
  const env = ctx.io.env;
  const list = (text: string | undefined): string[] => (text ?? '').split(',').map((l) => l.trim()).filter((l) => l !== '');
  const github = env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target' ? githubLabels(env.GITHUB_EVENT_PATH) : [];
  const labels = [...new Set([...list(env.RCSCTL_LABELS), ...list(env.CI_MERGE_REQUEST_LABELS), ...github, ...(flags.label ?? [])])];
  const request = labels.length > 0 || (env.CI_MERGE_REQUEST_IID ?? '') !== '' || env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target';
  return { labels, request };
}

// The labels of a GitHub pull request event's payload; none when it cannot be read.
function githubLabels(path: string | undefined): string[] {
  if (path === undefined || path === '') return [];
  try {
    const event = JSON.parse(readFileSync(path, 'utf8')) as { pull_request?: { labels?: { name?: unknown }[] } };
    return (event.pull_request?.labels ?? []).flatMap((l) => (typeof l.name === 'string' ? [l.name] : []));
  } catch {
    return [];
  }
}

/** validate: the manifest rules over `brands`, as diagnostics (RCS810/811 at the value, RCS803/804 at the rule). */
export async function policyDiagnostics(loaded: LoadedManifests, brands: readonly DesiredBrand[], request: RequestContext): Promise<Diagnostic[]> {
  if (loaded.policies.length === 0) return [];
  const result = await evaluatePolicies(loaded.policies, brands.map((b) => policyBrand(b, loaded.docs)), { ...request, scope: 'manifests' });
  const byName = new Map(loaded.policies.map((r) => [r.name, r]));
  const out: Diagnostic[] = result.violations.map((v) => ({
    code: violationCode(v.severity),
    severity: v.severity,
    file: v.file ?? v.ruleFile,
    line: v.line ?? v.ruleLine,
    col: v.file !== undefined ? (v.col ?? 1) : (byName.get(v.rule)?.at.col ?? 1),
    path: v.subject ?? '',
    message: `${v.brandId !== undefined ? `${v.brandId}: ` : ''}${v.message} (rule ${v.rule}, ${v.ruleFile}:${v.ruleLine})`,
    rule: { name: v.rule, file: v.ruleFile, line: v.ruleLine },
  }));
  for (const p of result.problems) out.push(ruleDiagnostic(p.rule, p.code, p.message));
  return out;
}

function ruleDiagnostic(rule: PolicyRule, code: 'RCS803' | 'RCS804', message: string): Diagnostic {
  const at = rule.fieldAt.expression ?? rule.at;
  return { code, severity: 'error', file: at.file, line: at.line, col: at.col, path: '', message, rule: { name: rule.name, file: rule.at.file, line: rule.at.line } };
}

/**
 * plan and apply: every rule over the planned brands (their manifests and
 * their plans). Each brand's violations go on its plan (`policy`), the run's
 * (and rules that could not be evaluated) on the plan file; an error among
 * them fails the brand, or the run.
 */
export async function checkPlanPolicies(rules: readonly PolicyRule[], docs: Map<string, SourceDoc[]> | undefined, outcomes: BrandOutcome[], file: PlanFile, request: RequestContext): Promise<PlanFile> {
  if (rules.length === 0) return file;
  // The outcomes and the file hold the same plan objects: the brands' verdicts set on one show in both.
  const run = await checkPlannedBrands(rules, docs, outcomes, request);
  const byBrand = new Map(outcomes.filter((o) => !isFailed(o)).map((o) => [o.plan.brandId, o.plan.policy]));
  const brandsOf = file.brands.map((p) => {
    const found = byBrand.get(p.brandId);
    return found !== undefined && p.policy === undefined ? { ...p, policy: found } : p;
  });
  // The run rules, for `report merge` to check again over every shard's brands.
  const runRules = recordRunRules(rules, request);
  return { ...file, brands: brandsOf, ...(run.length > 0 ? { policy: run } : {}), ...(runRules !== undefined ? { runRules } : {}) };
}

/** True when a violation among `violations` is an error. */
export function breaksPolicy(violations: readonly PolicyViolation[] | undefined): boolean {
  return (violations ?? []).some((v) => v.severity === 'error');
}
