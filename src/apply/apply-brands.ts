// Apply several brands, each on its own: the shared second half of `apply`,
// as plan-brands.ts is the first. A brand whose plan failed, or whose steps,
// re-reads or verification fail, is an outcome with an error; the others go on.
// No terminal here: the caller asks for confirmation, shows progress through
// the reporter it gives, and renders the outcomes.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { IdMap } from '../core/refs.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { Step } from '../core/step.js';
import { RcsctlError } from '../errors.js';
import { toBrandError, type BrandDeclaration, type BrandError, type HintFor } from '../plan/brand-error.js';
import { brandDeclaration, brandRef, isFailed, type BrandOutcome } from '../plan/plan-brands.js';
import { inShard, type Shard } from '../plan/shard.js';
import type { BrandPlan, PlanFile } from '../plan/types.js';
import { executePlan, type ApplyReporter, type GateOptions, type StepResult } from './execute.js';
import { findInterference, listsFromLive, readKindLists, touchedKinds, type KindLists } from './interference.js';
import { findStale, type StaleResource } from './stale.js';
import { kindListsOf, readTouchedLists, stepsToVerify, verifyApplied, type Unconverged } from './verify.js';

/** One brand to apply: its plan and its brand reference (key from the manifest, or the environment for saved plans). */
export interface BrandRun {
  plan: BrandPlan;
  brand: BrandRef;
  /** The lists of the named kinds the plan touches, as they were before the run (to see another process's work). */
  before: KindLists;
  /** Where the manifests declare the brand (from the saved plan, when it holds it), for its service errors. */
  declared?: BrandDeclaration;
}

/** The runs of freshly planned brands; a failed brand keeps its error and has no steps. */
export function runsOf(outcomes: BrandOutcome[]): BrandRun[] {
  return outcomes.map((p) =>
    isFailed(p)
      ? { plan: p.plan, brand: { id: p.brandId }, before: {} }
      : { plan: p.plan, brand: brandRef(p.desired), before: listsFromLive(p.live, touchedKinds(p.plan)), declared: brandDeclaration(p.desired) },
  );
}

/** Brand keys for saved plans come from RCSCTL_BRAND_KEY_<brandId, non-alphanumerics as _>; a plan file never holds one. */
export function brandKeyFromEnv(brandId: string, env: Record<string, string | undefined>): BrandRef {
  const key = env[`RCSCTL_BRAND_KEY_${brandId.replace(/[^A-Za-z0-9]/g, '_')}`];
  return key !== undefined && key !== '' ? { id: brandId, key } : { id: brandId };
}

/** How a saved plan's brands are chosen and checked. */
export interface SavedPlanOptions {
  concurrency: number;
  /** Where brand keys come from (RCSCTL_BRAND_KEY_<brand>). */
  env: Record<string, string | undefined>;
  /** Only these brands (all when empty). */
  brand?: string[];
  shard?: Shard;
  /** Called with the chosen brands before their live state is read (the per-brand lock). */
  lock?: (brandIds: string[]) => Promise<void>;
  /** Advice added to a brand's read error. */
  hintFor?: HintFor;
}

/**
 * The runs of a saved plan (`path` names it in messages): its brands, narrowed
 * to `brand` and `shard`, locked, checked for staleness, and their touched
 * lists read. A brand whose live objects changed since the plan was made fails
 * alone (E_PLAN_STALE, naming each resource and how it changed), as a brand
 * that cannot be read does: the others of the plan were checked and are applied.
 */
export async function savedPlanRuns(client: RcsClient, file: PlanFile, path: string, opts: SavedPlanOptions): Promise<BrandRun[]> {
  const brandFilter = opts.brand ?? [];
  let brands = file.brands.filter((b) => inShard(b.brandId, opts.shard));
  if (brandFilter.length > 0) {
    const missing = brandFilter.filter((id) => !brands.some((b) => b.brandId === id));
    if (missing.length > 0) throw new RcsctlError('E_PLAN_TARGET', `plan file ${path} holds no plan for brand ${missing.join(', ')}${opts.shard !== undefined ? ' in this shard' : ''} (it has: ${file.brands.map((b) => b.brandId).join(', ')})`);
    brands = brands.filter((b) => brandFilter.includes(b.brandId));
  }
  await opts.lock?.(brands.map((b) => b.brandId));
  const runs: BrandRun[] = brands.map((plan) => ({
    plan,
    brand: brandKeyFromEnv(plan.brandId, opts.env),
    before: {},
    ...(plan.declaredAt !== undefined ? { declared: { brandId: plan.brandId, ...plan.declaredAt } } : {}),
  }));
  for (const run of runs) {
    if (run.plan.error !== undefined) continue;
    try {
      const stale = await findStale(client, run.brand, run.plan, opts.concurrency);
      if (stale.length > 0) run.plan = { ...run.plan, steps: [], error: staleError(stale, run.declared) };
    } catch (err) {
      // The brand cannot be checked (403, no connection): it fails alone.
      run.plan = { ...run.plan, steps: [], error: toBrandError(err, 'read', opts.hintFor, run.declared) };
    }
  }
  for (const run of runs) {
    if (run.plan.error !== undefined) continue;
    try {
      run.before = await readKindLists(client, run.brand, touchedKinds(run.plan));
    } catch (err) {
      run.plan = { ...run.plan, steps: [], error: toBrandError(err, 'read', opts.hintFor, run.declared) };
    }
  }
  return runs;
}

/** A brand of a saved plan whose live objects changed since the plan was made: nothing of it is applied. */
function staleError(stale: StaleResource[], declared: BrandRun['declared']): BrandError {
  const lines = stale.map((s) => `  ${s.address}: ${s.how}`).join('\n');
  return {
    code: 'E_PLAN_STALE',
    stage: 'plan',
    message: `the saved plan is stale for this brand; the live service changed since it was made:\n${lines}`,
    hint: 'Make a new plan (rcsctl plan --out) and review it again.',
    ...(declared?.file !== undefined ? { file: declared.file } : {}),
    ...(declared?.line !== undefined ? { line: declared.line } : {}),
  };
}

/** The brands that will not be applied, by id: those that failed to read or plan, and those whose plan has problems. */
export function unappliable(runs: BrandRun[]): Map<string, BrandError> {
  const failures = new Map<string, BrandError>();
  for (const r of runs) {
    if (r.plan.error !== undefined) failures.set(r.plan.brandId, r.plan.error);
    else if (r.plan.problems.length > 0) failures.set(r.plan.brandId, { code: 'E_PLAN', stage: 'plan', message: `the plan has ${r.plan.problems.length} problem${r.plan.problems.length === 1 ? '' : 's'} (above); nothing was applied for this brand` });
    else if ((r.plan.policy ?? []).some((v) => v.severity === 'error')) {
      const broken = [...new Set((r.plan.policy ?? []).filter((v) => v.severity === 'error').map((v) => v.rule))];
      failures.set(r.plan.brandId, { code: 'E_POLICY', stage: 'plan', message: `the plan breaks policy rule${broken.length === 1 ? '' : 's'} ${broken.join(', ')} (above); nothing was applied for this brand` });
    }
  }
  return failures;
}

/** What applying one brand gave. */
export type BrandApplyOutcome =
  /** Its steps ran and what they touched was re-read: `unconverged` lists what is not as planned; `error` says when steps failed. */
  | { status: 'verified'; brandId: string; results: StepResult[]; ids: IdMap; unconverged: Unconverged[]; error?: BrandError }
  /** The interrupt came before (no `results`) or during its steps; it was not verified. */
  | { status: 'interrupted'; brandId: string; steps: Step[]; results?: StepResult[] }
  /** Running or verifying it threw (`results` when the steps had run). */
  | { status: 'failed'; brandId: string; error: BrandError; results?: StepResult[] };

/** A reporter whose display may need to settle before the brand's outcome is told. */
export interface BrandReporter extends ApplyReporter {
  finished?(): Promise<void>;
}

/** How to apply. */
export interface ApplyBrandsOptions extends GateOptions {
  concurrency: number;
  /** Aborted by an interrupt: no brand and no step starts after it. */
  signal?: AbortSignal;
  /** Advice added to a failed brand's error. */
  hintFor?: HintFor;
  /** The progress reporter for a brand, asked for just before its first step. */
  reporterFor?: (plan: BrandPlan) => Promise<BrandReporter> | BrandReporter;
  /** Told each brand's outcome as soon as it is known. */
  onOutcome?: (outcome: BrandApplyOutcome) => void;
  /** The live cache: verification keeps there the auto-replies it vouched for as created (the caller saves it). */
  cache?: LiveCache;
}

/**
 * Apply `runs` one brand after another: run the steps (gates honoured), then
 * re-read what the plan touched, verify it and look for another process's
 * work. Each brand stands alone: one that fails does not stop the next.
 */
export async function applyEachBrand(client: RcsClient, runs: BrandRun[], opts: ApplyBrandsOptions): Promise<BrandApplyOutcome[]> {
  const outcomes: BrandApplyOutcome[] = [];
  for (const run of runs) {
    const outcome = await applyOne(client, run, opts);
    outcomes.push(outcome);
    opts.onOutcome?.(outcome);
  }
  return outcomes;
}

async function applyOne(client: RcsClient, run: BrandRun, opts: ApplyBrandsOptions): Promise<BrandApplyOutcome> {
  const brandId = run.plan.brandId;
  if (aborted(opts.signal)) return { status: 'interrupted', brandId, steps: run.plan.steps };
  let stage: BrandError['stage'] = 'apply';
  let results: StepResult[] | undefined;
  try {
    const reporter = await opts.reporterFor?.(run.plan);
    const ran = await executePlan(run.plan, {
      client,
      brand: run.brand,
      concurrency: opts.concurrency,
      allowDelete: opts.allowDelete,
      allowReview: opts.allowReview,
      ...(opts.options !== undefined ? { options: opts.options } : {}),
      fromSavedPlan: opts.fromSavedPlan,
      ...(reporter !== undefined ? { reporter } : {}),
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
    results = ran.results;
    await reporter?.finished?.();
    // Verification would compare a half-run brand; the caller says what happened instead.
    if (aborted(opts.signal)) return { status: 'interrupted', brandId, steps: run.plan.steps, results };
    const stepsFailed = results.filter((r) => r.status === 'failed').length;
    stage = 'verify';
    // One read of each touched kind's list serves verification and the check for another process.
    const kinds = touchedKinds(run.plan);
    const lists = await readTouchedLists(client, run.brand, new Set([...kinds, ...stepsToVerify(run.plan, results).map((s) => s.kind)]));
    const unconverged = (await verifyApplied(client, run.brand, run.plan, results, ran.ids, opts.concurrency, lists, opts.cache)).unconverged;
    for (const i of findInterference(run.before, kindListsOf(lists, kinds), run.plan, results, ran.ids)) unconverged.push({ address: `${i.kind}:${i.name}`, changes: [], message: `${brandId}: ${i.message}` });
    const outcome: BrandApplyOutcome = { status: 'verified', brandId, results, ids: ran.ids, unconverged };
    if (stepsFailed > 0) outcome.error = { code: 'E_STEP_FAILED', stage: 'apply', message: `${stepsFailed} step${stepsFailed === 1 ? '' : 's'} failed (above)` };
    return outcome;
  } catch (err) {
    const error = toBrandError(err, stage, opts.hintFor, run.declared);
    return results !== undefined ? { status: 'failed', brandId, error, results } : { status: 'failed', brandId, error };
  }
}

/** Read through a function: the signal may have been aborted while a step was awaited. */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
