// rcsctl as a library: the programmatic API behind the CLI, for programs that
// embed the pipeline (a deployment service, a custom CI step, a test harness).
// `import { loadManifests, createClient, planBrands } from 'rcsctl'`.
//
// The pipeline, as docs/library.md walks through it:
//   loadManifests → DesiredBrand[]      (offline: schema, files, references, lint)
//   createClient  → RcsClient           (the service, or startEmulator's URL)
//   planBrands / readLive + buildPlan   → BrandPlan per brand (pure after the read)
//   applyEachBrand (runsOf)             → steps run, re-read and verified
//   runApply / applyBrand               → a whole run: locks, plan, dedupe, apply, status
//   buildDrift                          → DriftReport (pure)
//   buildManifest                       → manifests from a live brand (pure)
// and the renderers the CLI prints with. Nothing here touches a terminal or
// reads process.env: what the CLI takes from the environment is passed in.

import { startController as startBareController, type ControllerOptions, type RunningController } from './controller/index.js';
import { controllerViews } from './render/controller-views.js';
import { VERSION as PACKAGE_VERSION } from './version.js';

// ─── Manifests ───────────────────────────────────────────────────────────────

/**
 * Load every manifest under the given paths (files, or directories read
 * recursively): `${env:NAME}` from `opts.env`, relative paths from `opts.cwd`.
 * Never throws for bad input: the result's `diagnostics` name file, line and
 * field; `hasErrors(result.diagnostics)` says whether `brands` may be used.
 */
export { loadManifests, hasErrors, renderDiagnostics, type LoadOptions } from './manifest/index.js';
export type { DesiredBrand, Diagnostic, LoadResult, Severity as DiagnosticSeverity } from './manifest/index.js';

// ─── The service client ──────────────────────────────────────────────────────

/**
 * The service client: `createClient({ baseUrl, credentials: { token } })`
 * (or `{ clientId, clientSecret }`), one module per resource family, retries,
 * timeouts and redaction built in. Errors: `RcsApiError` (the service said no,
 * with its code), `ApiTransportError` (no answer), `OutcomeUnknownError` (a
 * write whose answer was lost).
 */
export {
  createClient,
  DEFAULT_CONCURRENCY,
  ApiTransportError,
  isServiceError,
  OutcomeUnknownError,
  RcsApiError,
  ResponseShapeError,
  type BrandRef,
  type ClientOptions,
  type Credentials,
  type RcsClient,
  type RetryOptions,
  type Timeouts,
} from './api/index.js';

// ─── Reading and planning ────────────────────────────────────────────────────

/** Read everything the registered kinds manage in one brand (the only network part of planning). */
export { readLive, type ReadLiveOptions } from './plan/read-live.js';
/** The ordered, gated plan that turns `live` into the manifests' brand; pure. */
export { buildPlan, summarise, isEmptyPlan } from './plan/build-plan.js';
/**
 * Read and plan several brands concurrently: `planBrands` rejects on the first
 * failure; `planEachBrand` gives a `FailedBrand` (with its error) for a brand
 * that could not be read and plans the others.
 */
export { planBrands, planEachBrand, isFailed, brandRef, type BrandOutcome, type FailedBrand, type PlannedBrand, type PlanBrandsOptions } from './plan/plan-brands.js';
/** Saved plans (`rcsctl plan --out`): made, written and read back (checked against schemas/plan.schema.json). */
export { makePlanFile, readPlanFile, writePlanFile } from './plan/plan-file.js';
export type { BrandError } from './plan/brand-error.js';
export type { BrandPlan, PlanFile, PlanSummary } from './plan/types.js';
export type { FieldChange, Gate, KindName, PlanProblem, Step } from './core/step.js';
export type { LiveBrand } from './core/live.js';
export type { PlanOptions } from './kinds/resource-kind.js';
export { LiveCache } from './kinds/live-cache.js';

// ─── Applying ────────────────────────────────────────────────────────────────

/**
 * Apply brands one after another, each on its own: steps in dependency order
 * with their gates (`allowDelete`, `allowReview`), then a re-read that verifies
 * the result and looks for another process's work. `runsOf(outcomes)` turns
 * `planEachBrand`'s outcomes into runs; `savedPlanRuns` does it for a saved
 * plan, refusing a stale one.
 */
export {
  applyEachBrand,
  brandKeyFromEnv,
  runsOf,
  savedPlanRuns,
  unappliable,
  type ApplyBrandsOptions,
  type BrandApplyOutcome,
  type BrandReporter,
  type BrandRun,
  type SavedPlanOptions,
} from './apply/apply-brands.js';
/**
 * One whole apply run, as `rcsctl apply` makes it: the per-brand locks, plan
 * (and `dedupe`, then plan again), apply each brand, count into one status
 * (`nothing`, `applied`, `held`, `failed`, `interrupted`, `duplicates-held`).
 * `applyBrand` does it for one desired brand (the controller's entry point).
 * Progress, confirmation and outcomes come through `events`; an AbortSignal stops it.
 */
export {
  applyBrand,
  runApply,
  type ApplyBrandOptions,
  type ApplyRunEvents,
  type ApplyRunOptions,
  type ApplyRunResult,
  type ApplyRunStatus,
  type ApplySource,
} from './apply/apply-run.js';
/**
 * The per-brand lock between rcsctl processes on one machine (docs/concurrency.md):
 * `acquireBrandLocks(ids, { dir: lockDir(env), timeoutMs, baseUrl, command })`,
 * all or none, then `releaseAll(locks)`.
 */
export { acquireBrandLock, acquireBrandLocks, lockDir, lockPath, readHolder, releaseAll, type BrandLock, type LockHolder, type LockOptions } from './apply/lock.js';
/**
 * The same locks shared by every machine that reaches one PostgreSQL database
 * (docs/concurrency.md): `openPgLockBackend({ url, command })`, then pass it as
 * `lock.backend` to `runApply` or `applyBrand`; `close()` it at the end.
 * `fileLockBackend(dir)` is the lock files behind the same interface.
 */
export { fileLockBackend, type LockBackend } from './apply/lock-backend.js';
export { openPgLockBackend, type PgLockBackend, type PgLockOptions } from './apply/pg-lock.js';
export { lockEndpoint } from './apply/lock-key.js';
/** One brand's plan run step by step (no verification); `verifyApplied` checks what ran. */
export { executePlan, holdReason, type ApplyReporter, type ExecuteOptions, type GateOptions, type StepResult, type StepStatus } from './apply/execute.js';
export { verifyApplied, type Unconverged, type VerifyReport } from './apply/verify.js';
export type { IdMap } from './core/refs.js';

// ─── Drift and export ────────────────────────────────────────────────────────

/** The drift report of planned brands: content differences and live-state findings; pure. */
export { buildDrift } from './report/build-drift.js';
export { DEFAULT_DRIFT_OPTIONS, type BrandDrift, type DriftOptions, type DriftReport, type DriftSummary, type Finding, type ReportSummary, type ResourceDrift } from './report/types.js';
/** A live brand as manifest documents, with the images to download; pure. `writeExport` writes them. */
export { buildManifest, type Download, type ExportedManifest, type ExportOptions } from './export/build-manifest.js';
export { writeExport, type ExportResult } from './export/write-export.js';

// ─── Rendering ───────────────────────────────────────────────────────────────

/** Plans and drift reports as the CLI prints them; `makeStyle(false)` for plain text. */
export { renderPlan } from './render/plan-text.js';
export { renderPlanMarkdown } from './render/plan-markdown.js';
export { renderPlanJson } from './render/plan-json.js';
export { renderDrift, DRIFT_FORMATS, type DriftFormat } from './render/drift.js';
export { makeStyle, type Style } from './render/style.js';

// ─── Kinds ───────────────────────────────────────────────────────────────────

/** The kind registry: every stage loops over it; `registerKind` adds a kind at run time. */
export { KINDS, kindByName, registerKind, unregisterKind, type AnyKind, type ResourceKind, type KindIdentity, type KindRead, type KindDiff, type KindGates } from './kinds/index.js';
/** The capabilities a kind may add to the core (`ResourceKind<D, L> & Exportable<L>`), and the guards stages ask them with. */
export { isExportable, isPreviewable, isStateful, type Exportable, type Previewable, type Stateful } from './kinds/index.js';

// ─── The emulator ────────────────────────────────────────────────────────────

/**
 * A faithful local copy of the service over real HTTP:
 * `await startEmulator({ port: 0 })` listens on 127.0.0.1 with the example
 * seed (master token `emulator-master-token`); `close()` stops it.
 */
export { startEmulator, loadSeed, type EmulatorOptions, type RunningEmulator, type Seed } from './emulator/index.js';

// ─── The controller ──────────────────────────────────────────────────────────

/**
 * `rcsctl controller` as a function: `await startController({ paths, client,
 * baseUrl, webhookToken, port: 0 })` loads the manifests, listens (/webhook,
 * /status, /metrics, /healthz, /readyz), resyncs every brand and keeps them
 * converged; `url` is where it listens, `close()` stops it gracefully. Its
 * brand pages draw plans and previews as the CLI does (`views`, unless given).
 */
export function startController(options: ControllerOptions): Promise<RunningController> {
  return startBareController({ views: controllerViews(PACKAGE_VERSION, options.cwd ?? process.cwd()), ...options });
}
export { BRAND_STATES, type BrandState, type BrandStatus, type ControllerOptions, type ControllerStatus, type RunningController } from './controller/index.js';

// ─── Misc ────────────────────────────────────────────────────────────────────

/** The error rcsctl throws for anything it refuses, with a stable `code` (`E_PLAN_STALE`). */
export { RcsctlError } from './errors.js';
/** This package's version. */
export { VERSION } from './version.js';
