// One apply run, as `rcsctl apply` and `rcsctl controller` both make it: take
// the per-brand locks before the live state is read, plan (and, with dedupe,
// delete the newer identical copies and plan again), apply each brand on its
// own, and count what happened into one status. No terminal here: the caller
// plans with its own progress, confirms through `events.confirm`, shows
// progress through `events.reporterFor`, aborts through `signal`, and renders
// the result.

import { setMaxListeners } from 'node:events';
import type { RcsClient } from '../api/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { BrandError, HintFor } from '../plan/brand-error.js';
import { isFailed, planEachBrand, type BrandOutcome, type PlanBrandsOptions, type PlannedBrand } from '../plan/plan-brands.js';
import { applyEachBrand, runsOf, unappliable, type ApplyBrandsOptions, type BrandApplyOutcome, type BrandRun } from './apply-brands.js';
import { deleteDuplicates, duplicatesOf, type BrandDuplicates, type DedupeOutcome } from './dedupe.js';
import type { GateOptions } from './execute.js';
import type { LockBackend } from './lock-backend.js';
import { acquireBrandLocks, releaseAll, type BrandLock, type LockOptions } from './lock.js';
import type { Unconverged } from './verify.js';

/** Where a run's plans come from. */
export type ApplySource =
  /** Manifests: `brandIds` are locked, then `plan()` reads and plans them (again after dedupe). */
  | { from: 'manifests'; brandIds: string[]; plan: () => Promise<BrandOutcome[]> }
  /** A saved plan: `runs(lock)` chooses its brands, locks them through `lock`, and checks them (savedPlanRuns). */
  | { from: 'saved'; runs: (lock: (brandIds: string[]) => Promise<void>) => Promise<BrandRun[]> };

/** What a caller hears during a run; every member is optional. */
export interface ApplyRunEvents {
  /** `dedupe`: the duplicates found (empty when there are none), before any is deleted. */
  duplicates?(found: BrandDuplicates[]): void;
  /** `dedupe`: what clearing one brand's copies did (links re-pointed, copies deleted, steps that failed). */
  deleted?(brandId: string, outcome: DedupeOutcome): void;
  /** The runs, before anything is sent. */
  planned?(runs: BrandRun[]): void;
  /** Asked before anything is sent (`what`: "apply these changes to"); throw to cancel the run. */
  confirm?(brandIds: string[], what: string): Promise<void>;
  /** A brand's progress reporter, asked for just before its first step. */
  reporterFor?: ApplyBrandsOptions['reporterFor'];
  /** Each brand's outcome as soon as it is known. */
  outcome?(outcome: BrandApplyOutcome): void;
}

/** How to run. */
export interface ApplyRunOptions extends Omit<GateOptions, 'fromSavedPlan'> {
  concurrency: number;
  /**
   * The per-brand locks (`lockDir(env)`, how long to wait, the service's base
   * URL, the command named in the lock file); with `backend`, the locks are
   * taken there instead of in `dir` (lock-backend.ts), and a run whose backend
   * loses its locks (`backend.lost`) stops as an interrupt does.
   */
  lock: LockOptions & { backend?: LockBackend };
  /** First delete the newer of identical live copies of managed names (manifests only; deletes need `allowDelete`). */
  dedupe?: boolean;
  /** Aborted by an interrupt or a shutdown: no brand and no step starts after it. */
  signal?: AbortSignal;
  hintFor?: HintFor;
  /** Verification keeps there the auto-replies it vouched for; the caller saves it. */
  cache?: LiveCache;
  events?: ApplyRunEvents;
}

/**
 * How a run ended, which `rcsctl apply` turns into its exit code:
 * `nothing` (the live service matched), `applied`, `held` (steps blocked or
 * held by a gate), `failed`, `interrupted` (`before: true` when no step had
 * been sent), `duplicates-held` (dedupe found copies and deletes are not allowed).
 */
export type ApplyRunStatus = 'nothing' | 'applied' | 'held' | 'failed' | 'interrupted' | 'duplicates-held';

/** What a run did. */
export interface ApplyRunResult {
  status: ApplyRunStatus;
  /** Every brand's run (its plan), failed ones included. */
  runs: BrandRun[];
  /** What planning gave (manifests only): the live brands, for drift findings after the run. */
  planned: BrandOutcome[];
  /** The brands' outcomes, in order. */
  outcomes: BrandApplyOutcome[];
  /** Brands that could not be planned or applied, by id. */
  failures: Map<string, BrandError>;
  /** Steps that failed. */
  stepsFailed: number;
  /** Steps blocked by a state, held by a gate, or skipped after them. */
  stepsHeld: number;
  /** Resources whose re-read did not match the plan, and another process's work. */
  unconverged: Unconverged[];
  /** The brands an interrupt stopped. */
  interrupted: Extract<BrandApplyOutcome, { status: 'interrupted' }>[];
  /** True when the interrupt came before any step was sent. */
  before?: boolean;
  /** `duplicates-held`: the copies that would have been deleted. */
  duplicatesHeld?: number;
}

/**
 * One apply run over `client`. The locks are taken before the live state is
 * read (all or none; E_LOCKED after `lock.timeoutMs`) and released when the
 * run ends, however it ends.
 */
export async function runApply(client: RcsClient, source: ApplySource, opts: ApplyRunOptions): Promise<ApplyRunResult> {
  const ev = opts.events ?? {};
  const locks: BrandLock[] = [];
  const backend = opts.lock.backend;
  const lock = async (brandIds: string[]): Promise<void> => {
    locks.push(...(await (backend !== undefined ? backend.acquire(brandIds, opts.lock) : acquireBrandLocks(brandIds, opts.lock))));
  };
  // Locks that went with a lost database connection protect nothing: no step starts after that.
  const signal = backend !== undefined ? AbortSignal.any([backend.lost, ...(opts.signal !== undefined ? [opts.signal] : [])]) : opts.signal;
  // Every step in flight listens on it (as many as --concurrency allows): not a leak.
  if (signal !== undefined) setMaxListeners(0, signal);
  const result: ApplyRunResult = { status: 'nothing', runs: [], planned: [], outcomes: [], failures: new Map(), stepsFailed: 0, stepsHeld: 0, unconverged: [], interrupted: [] };
  try {
    if (source.from === 'saved') {
      result.runs = await source.runs(lock);
    } else {
      await lock(source.brandIds);
      result.planned = await source.plan();
      if (opts.dedupe === true) {
        const held = await dedupe(client, result.planned.filter((o): o is PlannedBrand => !isFailed(o)), opts);
        if (held > 0) return { ...result, runs: runsOf(result.planned), status: 'duplicates-held', duplicatesHeld: held };
        if (held < 0) result.planned = await source.plan();
      }
      result.runs = runsOf(result.planned);
    }
    ev.planned?.(result.runs);
    // Each brand stands alone: one that failed to plan is reported, the others are applied.
    result.failures = unappliable(result.runs);
    const runs = result.runs.filter((r) => !result.failures.has(r.plan.brandId));
    const total = runs.reduce((n, r) => n + r.plan.steps.length, 0);
    if (total === 0 && result.failures.size === 0) return result;
    if (total > 0 && source.from === 'manifests') await ev.confirm?.(runs.filter((r) => r.plan.steps.length > 0).map((r) => r.plan.brandId), 'apply these changes to');
    if (signal?.aborted === true) return { ...result, status: 'interrupted', before: true };

    result.outcomes = await applyEachBrand(client, total > 0 ? runs : [], {
      concurrency: opts.concurrency,
      allowDelete: opts.allowDelete,
      allowReview: opts.allowReview,
      ...(opts.options !== undefined ? { options: opts.options } : {}),
      fromSavedPlan: source.from === 'saved',
      ...(signal !== undefined ? { signal } : {}),
      ...(opts.hintFor !== undefined ? { hintFor: opts.hintFor } : {}),
      ...(ev.reporterFor !== undefined ? { reporterFor: ev.reporterFor } : {}),
      ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
      onOutcome: (o) => {
        count(result, o);
        ev.outcome?.(o);
      },
    });
    result.status =
      result.interrupted.length > 0 ? 'interrupted' : result.failures.size > 0 || result.unconverged.length > 0 ? 'failed' : result.stepsHeld > 0 ? 'held' : total > 0 ? 'applied' : 'nothing';
    return result;
  } finally {
    releaseAll(locks);
    await backend?.flush();
  }
}

function count(result: ApplyRunResult, o: BrandApplyOutcome): void {
  if (o.status === 'interrupted') {
    result.interrupted.push(o);
    return;
  }
  if (o.results !== undefined) {
    result.stepsFailed += o.results.filter((r) => r.status === 'failed').length;
    result.stepsHeld += o.results.filter((r) => r.status === 'blocked' || r.status === 'held' || r.status === 'skipped').length;
  }
  if (o.error !== undefined) result.failures.set(o.brandId, o.error);
  if (o.status === 'verified') result.unconverged.push(...o.unconverged);
}

/** Find and delete the duplicates: the number held back (deletes not allowed), or -1 when some were deleted (plan again), or 0. */
async function dedupe(client: RcsClient, plans: PlannedBrand[], opts: ApplyRunOptions): Promise<number> {
  const ev = opts.events ?? {};
  const found = duplicatesOf(plans);
  ev.duplicates?.(found);
  const deletable = found.reduce((n, f) => n + f.deletable, 0);
  if (deletable === 0) return 0;
  if (!opts.allowDelete) return deletable;
  await ev.confirm?.(plans.map((p) => p.plan.brandId), `delete ${deletable} duplicate cop${deletable === 1 ? 'y' : 'ies'} from`);
  await deleteDuplicates(client, found, (brandId, outcome) => ev.deleted?.(brandId, outcome));
  return -1;
}

/** How one brand is applied from its manifests: the run's options and the planning's. */
export interface ApplyBrandOptions extends ApplyRunOptions {
  plan?: Omit<PlanBrandsOptions, 'concurrency' | 'hintFor' | 'cache'>;
  /**
   * Told the plan before anything is sent (the controller's policy rules):
   * it may mark the brand's plan unappliable (`plan.policy`), and then
   * nothing is applied for it.
   */
  checkPlan?: (outcomes: BrandOutcome[]) => Promise<void>;
}

/**
 * Apply one brand from its desired state: lock it (waiting as `lock.timeoutMs`
 * says), read and plan it, apply and verify. The entry point for a caller that
 * reconciles brand by brand (`rcsctl controller`).
 */
export function applyBrand(client: RcsClient, desired: DesiredBrand, opts: ApplyBrandOptions): Promise<ApplyRunResult> {
  const planOpts: PlanBrandsOptions = {
    ...opts.plan,
    concurrency: opts.concurrency,
    ...(opts.hintFor !== undefined ? { hintFor: opts.hintFor } : {}),
    ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
  };
  const plan = async (): Promise<BrandOutcome[]> => {
    const outcomes = await planEachBrand(client, [desired], planOpts);
    await opts.checkPlan?.(outcomes);
    return outcomes;
  };
  return runApply(client, { from: 'manifests', brandIds: [desired.brandId], plan }, opts);
}
