// Policies as code (docs/policies.md): the repository's rules, evaluated over
// the manifests (value and brand rules: validate, plan, apply) and over the
// plan (step, plan and run rules: plan, apply). The expressions run in a
// worker thread (cel-worker.ts): CEL reads nothing but the data it is given,
// and the worker is stopped past a time bound per rule or a memory bound, so
// a slow or huge expression fails its rule instead of hanging the run.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { summarise } from '../plan/build-plan.js';
import type { BrandPlan } from '../plan/types.js';
import { KINDS } from '../kinds/index.js';
import { MANIFEST_CHECKS, type PolicyCheck, type PolicyRule } from '../manifest/policy.js';
import { jsonPointer, sourceLocation, type PathSegments, type SourceDoc } from '../manifest/source.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { PolicyViolation } from '../core/policy.js';
import { packageRoot } from '../util/paths.js';
import type { RuleOutcome, WorkerInput, WorkerMessage } from './protocol.js';

/** How long one rule may run over all its items, and how much memory the worker may take. */
export const POLICY_BOUNDS = { ruleMs: 5000, memoryMb: 256 } as const;

/** At most this many broken items are reported per rule; a last line counts the others. */
export const VIOLATIONS_PER_RULE = 200;

/** A brand as the rules see it. */
export interface PolicyBrand {
  brandId: string;
  owners?: string[];
  /** Its documents, composed and interpolated (value and brand rules read them). */
  docs?: SourceDoc[];
  /** Its manifests as loaded: where each resource is written, for a step's place. */
  desired?: DesiredBrand;
  /** Its plan (step, plan and run rules). */
  plan?: BrandPlan;
}

/** A rule that could not be evaluated (RCS803), or was stopped at its bound (RCS804). */
export interface RuleProblem {
  rule: PolicyRule;
  code: 'RCS803' | 'RCS804';
  message: string;
}

/** What evaluating gave: the rules broken, and the rules that could not be evaluated. */
export interface PolicyResult {
  violations: PolicyViolation[];
  problems: RuleProblem[];
}

/** Which rules to run: those on manifests (validate), or all (plan, apply: the brands have plans). */
export type PolicyScope = 'manifests' | 'all';

const FRAME = new Set(['apiVersion', 'kind']);

/** Evaluate `rules` over `brands` with the CI's `labels`. */
export async function evaluatePolicies(rules: readonly PolicyRule[], brands: readonly PolicyBrand[], opts: { labels: readonly string[]; request?: boolean; scope: PolicyScope; bounds?: { ruleMs: number; memoryMb: number } }): Promise<PolicyResult> {
  const chosen = rules.filter((r) => opts.scope === 'all' || MANIFEST_CHECKS.includes(r.check));
  if (chosen.length === 0 || brands.length === 0) return { violations: [], problems: [] };
  const built = buildInput(chosen, brands, opts.labels, opts.request ?? false);
  const outcomes = await runWorker(built.input, opts.bounds ?? POLICY_BOUNDS);
  const violations: PolicyViolation[] = [];
  const problems: RuleProblem[] = [];
  chosen.forEach((rule, r) => {
    const outcome = outcomes[r];
    if (outcome === undefined || 'stopped' in outcome) {
      problems.push({ rule, code: 'RCS804', message: outcome?.stopped ?? `rule "${rule.name}" did not finish` });
      return;
    }
    if (outcome.error !== undefined) {
      const item = outcome.error.item >= 0 ? built.describe(rule.check, outcome.error.item) : undefined;
      problems.push({ rule, code: 'RCS803', message: `rule "${rule.name}" could not be evaluated${item?.brandId !== undefined ? ` for ${item.brandId}${item.subject !== undefined ? ` ${item.subject}` : ''}` : ''}: ${outcome.error.message}` });
      return;
    }
    for (const f of outcome.failed) violations.push({ ...built.describe(rule.check, f.item), rule: rule.name, severity: rule.severity, message: f.message, ruleFile: rule.at.file, ruleLine: rule.at.line });
    const more = outcome.total - outcome.failed.length;
    if (more > 0) violations.push({ rule: rule.name, severity: rule.severity, message: `and ${more} more item${more === 1 ? '' : 's'} break this rule (the first ${outcome.failed.length} are listed)`, ruleFile: rule.at.file, ruleLine: rule.at.line });
  });
  return { violations, problems };
}

/** The violation a problem is on a plan: an error of the run at the rule's place. */
export function problemViolation(p: RuleProblem): PolicyViolation {
  return { rule: p.rule.name, severity: 'error', message: p.message, ruleFile: p.rule.at.file, ruleLine: p.rule.at.line };
}

interface Place {
  brandId?: string;
  subject?: string;
  file?: string;
  line?: number;
  col?: number;
}

// The worker's input, and how to name an item of each check.
function buildInput(rules: readonly PolicyRule[], brands: readonly PolicyBrand[], labels: readonly string[], request: boolean): { input: WorkerInput; describe: (check: PolicyCheck, item: number) => Place } {
  const wanted = new Set(rules.map((r) => r.check));
  const input: WorkerInput = {
    rules: rules.map((r) => ({ name: r.name, check: r.check, ...(r.where !== undefined ? { where: r.where } : {}), expression: r.expression, message: r.message, ...(r.messageExpression !== undefined ? { messageExpression: r.messageExpression } : {}), except: r.exceptions.map((e) => e.brand) })),
    labels: [...labels],
    request,
    brands: [],
    values: [],
    steps: [],
    plans: [],
    limit: VIOLATIONS_PER_RULE,
  };
  const valueAt: { src: SourceDoc; path: PathSegments }[] = [];
  const stepPlace: Place[] = [];
  brands.forEach((b, i) => {
    input.brands.push({ id: b.brandId, view: brandView(b) });
    if (wanted.has('value')) {
      for (const src of b.docs ?? []) {
        walk(src.value, [], (value, path) => {
          const key = [...path].reverse().find((s): s is string => typeof s === 'string') ?? '';
          input.values.push({ b: i, value, path: jsonPointer(path), key });
          valueAt.push({ src, path });
        });
      }
    }
    if (b.plan !== undefined && b.plan.error === undefined) {
      const sources = b.desired !== undefined ? resourceSources(b.desired) : new Map<string, { file: string; line: number }>();
      const steps = b.plan.steps.map(stepView);
      if (wanted.has('step')) {
        b.plan.steps.forEach((s, j) => {
          input.steps.push({ b: i, step: steps[j] as Record<string, unknown> });
          const at = sources.get(s.address);
          stepPlace.push({ brandId: b.brandId, subject: s.address, ...(at !== undefined ? { file: at.file, line: at.line } : {}) });
        });
      }
      if (wanted.has('plan') || wanted.has('run')) input.plans.push({ b: i, plan: plainData({ brandId: b.brandId, owners: b.owners ?? [], steps, counts: counts(b.plan) }) as Record<string, unknown> });
    }
  });
  const declared = (b: PolicyBrand | undefined): Place => {
    const at = b?.desired?.source ?? b?.plan?.declaredAt;
    return { ...(b !== undefined ? { brandId: b.brandId } : {}), ...(at !== undefined ? { file: at.file, line: at.line } : {}) };
  };
  const describe = (check: PolicyCheck, item: number): Place => {
    switch (check) {
      case 'value': {
        const v = input.values[item];
        const at = valueAt[item];
        if (v === undefined || at === undefined) return {};
        const loc = sourceLocation(at.src, at.path);
        return { brandId: input.brands[v.b]?.id as string, subject: v.path, file: loc.file, line: loc.line, col: loc.col };
      }
      case 'brand':
        return declared(brands[item]);
      case 'step':
        return stepPlace[item] ?? {};
      case 'plan':
        return declared(brands[input.plans[item]?.b ?? -1]);
      case 'run':
        return {};
    }
  };
  return { input, describe };
}

// Each scalar of a document (its frame's kind and apiVersion aside), with its path.
function walk(value: unknown, path: (string | number)[], visit: (value: unknown, path: PathSegments) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], visit));
  else if (value !== null && typeof value === 'object') {
    // The brand key is a credential, never a rule's business (and never a value to quote).
    for (const [k, v] of Object.entries(value)) if ((path.length > 0 || !FRAME.has(k)) && !(path.length === 1 && path[0] === 'brand' && k === 'key')) walk(v, [...path, k], visit);
  } else if (value !== null && value !== undefined) visit(value, path);
}

// The brand as `brand` in an expression: id, owners, and each section (every registered one, empty when not declared).
function brandView(b: PolicyBrand): Record<string, unknown> {
  const view: Record<string, unknown> = { id: b.brandId, owners: b.owners ?? [] };
  for (const kind of KINDS) if (kind.manifest?.section !== undefined) view[kind.manifest.section] = {};
  for (const src of b.docs ?? []) {
    const raw = src.value as Record<string, unknown> | null;
    if (raw === null || typeof raw !== 'object') continue;
    for (const [k, v] of Object.entries(raw)) {
      if (FRAME.has(k) || k === 'brand') continue;
      const prior = view[k];
      view[k] = isMap(prior) && isMap(v) ? { ...prior, ...v } : v;
    }
  }
  return plainData(view) as Record<string, unknown>;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// A step as `step` in an expression: what it does and to what, never what it sends.
function stepView(s: BrandPlan['steps'][number]): unknown {
  return plainData({
    id: s.id,
    kind: s.kind,
    op: s.op,
    address: s.address,
    name: s.name,
    liveId: s.liveId ?? '',
    gate: s.gate,
    changes: s.changes.map((c) => ({ path: c.path, type: c.type, before: c.before ?? null, after: c.after ?? null })),
    declared: s.op === 'delete' && s.declared === true,
    movedFrom: s.movedFrom ?? '',
  });
}

function counts(plan: BrandPlan): Record<string, number> {
  const s = summarise(plan);
  const by = (op: string): number => plan.steps.filter((x) => x.op === op).length;
  return { steps: plan.steps.length, create: s.create, update: s.update, delete: s.delete, upload: by('upload'), link: by('link'), blocked: s.blocked, review: s.review, unmanaged: s.unmanaged };
}

// Where each declared resource is written, by address.
function resourceSources(desired: DesiredBrand): Map<string, { file: string; line: number }> {
  const out = new Map<string, { file: string; line: number }>();
  for (const kind of KINDS) {
    for (const d of kind.desired(desired)) {
      const at = (d as { source?: { file: string; line: number } }).source;
      if (at !== undefined) out.set(`${kind.name}.${kind.identity.key(d)}`, { file: at.file, line: at.line });
    }
  }
  return out;
}

// JSON data only: no undefined, no Map, no class (what CEL and the thread boundary take).
function plainData(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v) ?? 'null') as unknown;
}

/** The worker's script: beside this file when built; the built one when this runs from the sources (tests). */
function workerScript(): URL | string {
  const here = new URL('./cel-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return join(packageRoot(), 'dist', 'src', 'policy', 'cel-worker.js');
}

type Outcome = RuleOutcome | { stopped: string };

// Run the worker: every rule's outcome, or, for the rule running when a bound was passed, why it was stopped (the rules after it are not run).
function runWorker(input: WorkerInput, bounds: { ruleMs: number; memoryMb: number }): Promise<Outcome[]> {
  return new Promise((resolve) => {
    const worker = new Worker(workerScript(), { workerData: input, resourceLimits: { maxOldGenerationSizeMb: bounds.memoryMb, maxYoungGenerationSizeMb: Math.min(64, bounds.memoryMb) }, stdout: true, stderr: true });
    let current = -1;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (outcomes: Outcome[]): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      void worker.terminate();
      resolve(outcomes);
    };
    const stop = (why: string): void => {
      const outcomes: Outcome[] = input.rules.map(() => ({ stopped: `not evaluated: rule "${input.rules[current]?.name ?? '?'}" before it was stopped` }));
      if (current >= 0) outcomes[current] = { stopped: why };
      finish(outcomes);
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'start') {
        current = m.rule;
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => stop(`rule "${input.rules[current]?.name}" was stopped after ${bounds.ruleMs / 1000} s: an expression must finish within that over all its items (make it simpler, or narrow it with where:)`), bounds.ruleMs);
      } else finish(m.outcomes);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      stop(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `rule "${input.rules[current]?.name}" was stopped: it used more than ${bounds.memoryMb} MB` : `rule "${input.rules[current]?.name}" stopped the evaluator: ${err.message}`);
    });
    worker.on('exit', () => stop(`the evaluator ended before rule "${input.rules[current]?.name}" finished`));
  });
}
