// One pass of one brand: in observe mode, plan and report drift; in apply
// mode, run the same apply as `rcsctl apply` (applyBrand: its gates, per-brand
// lock, verification and interference check), then read what it left. The
// verdict goes to the brand book; a pass never throws.

import { setMaxListeners } from 'node:events';
import type { RcsClient } from '../api/index.js';
import { applyBrand } from '../apply/apply-run.js';
import type { LockBackend } from '../apply/lock-backend.js';
import { describeHolder, type LockHolder } from '../apply/lock.js';
import { withRequestSignal } from '../api/abort-scope.js';
import { withRequestTally, type RequestTally } from '../api/request-tally.js';
import { RcsApiError } from '../api/errors.js';
import { errorMessage, RcsctlError } from '../errors.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { DesiredBrand } from '../manifest/types.js';
import { planEachBrand, type BrandOutcome } from '../plan/plan-brands.js';
import { buildDrift } from '../report/build-drift.js';
import type { BrandPlan } from '../plan/types.js';
import type { StepResult } from '../apply/execute.js';
import { emptyCounts, type BrandBook, type PassError } from './brand-book.js';
import { changeRecords, distinctTriggers, stepRecord, stepsOf, triggerLabel, type PassResult, type Trigger } from './history.js';
import type { Revision } from './revision.js';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import type { RetrySchedule } from './retry-schedule.js';
import { serviceStateOf, type ServiceCondition } from './service-condition.js';
import { classify, type Classified } from './state.js';
import type { PolicyRule } from '../manifest/policy.js';
import type { SourceDoc } from '../manifest/source.js';
import { checkPlannedBrands } from '../policy/plan-policies.js';
import { violationText } from '../core/policy.js';
import type { Gate } from './brand-controls.js';

const DAY_MS = 86_400_000;

/** How passes run: the controller's settings that concern one brand's pass. */
export interface PassSettings {
  mode: 'observe' | 'apply';
  concurrency: number;
  reviewWarningMs: number;
  allowReview: boolean;
  allowDelete: boolean;
  /** The lock directory, and the service's base URL that names the lock files. */
  lockDir: string;
  baseUrl: string;
  /** How soon a brand whose lock another run holds is tried again. */
  lockRetryMs: number;
  /** The shard this replica serves (`i/n`), named in its locks. */
  shard?: string;
  /** With a lock URL: the backend the brand locks are taken in now (the leader lease's connection). */
  lockBackend?: () => LockBackend | undefined;
  /** With a lock URL: aborted when this replica stops leading; its passes stop after their steps in flight. */
  leaseSignal?: () => AbortSignal;
  /** The account (personId) kinds read as when the manifests name none: the controller's RCSCTL_PERSON_ID. */
  account?: string;
}

/** What a pass needs from the rest of the controller. */
export interface PassDeps {
  client: RcsClient;
  book: BrandBook;
  log: Log;
  metrics: ControllerMetrics;
  /** The shutdown: no step starts once it is aborted. */
  signal: AbortSignal;
  /** The shutdown's bound: the requests in flight are aborted. */
  requests: AbortSignal;
  /** Ask for another pass of a brand (a lock's retry). */
  markDirty: (brandId: string, trigger: Trigger) => void;
  /** The service's condition, told what every pass met. */
  service: ServiceCondition;
  /** The failed brands' retries. */
  retries: RetrySchedule;
  /** The steps an apply pass sent (`address op`), for the notifications out. */
  applied?: (brandId: string, steps: string[]) => void;
  /** Whether the brand may apply now (suspended, a sync window), asked as each pass starts. */
  gate: (brandId: string) => Gate;
  cache?: LiveCache;
  /** The controller's clock: how long a review has waited is read against it. */
  now: () => Date;
  /** The repository's policy rules and the brands' documents they read (docs/policies.md), as last read. */
  policies?: () => { rules: readonly PolicyRule[]; docs: Map<string, SourceDoc[]> };
}

interface PassOutcome {
  classified: Classified;
  error?: PassError;
  detail?: Record<string, unknown>;
  applied?: string;
  /** The plan the brand's state was read off (the page renders it). */
  plan?: BrandPlan;
  /** Apply mode: the steps the apply ran, held or skipped. */
  steps?: StepResult[];
  /** Why the pass observed only (suspended, a sync window), in apply mode. */
  held?: string;
  /** Asked for through the API (sync now). */
  manual?: boolean;
}

/** What a pass is told about itself: why it runs, and the manifest revision it works from. */
export interface PassContext {
  triggers: Trigger[];
  revision?: Revision;
}

/** Runs brands' passes, and tells the service's condition and the retries what each found. */
export class BrandPasses {
  private readonly lockRetries = new Set<NodeJS.Timeout>();

  constructor(
    private readonly settings: PassSettings,
    private readonly deps: PassDeps,
  ) {}

  /** One pass of `brandId` towards `want`: never throws. Its history entry records why it ran, how it ended and, in apply mode, each step. */
  async run(brandId: string, want: DesiredBrand, context: PassContext = { triggers: [] }): Promise<void> {
    const { book, log, metrics, signal } = this.deps;
    if (signal.aborted || !book.begin(brandId)) return;
    const startedAt = new Date().toISOString();
    const started = performance.now();
    let result = 'error';
    let ended: { outcome: PassResult; c?: PassOutcome; error?: PassError } = { outcome: 'error' };
    // What the pass cost the account's rate limit: its own requests, though passes of other brands share the client.
    const tally: RequestTally = { requests: 0, rateLimited: 0 };
    // In apply mode, a suspended brand, or one a sync window holds, is observed only; its reasons say why first.
    const gate = this.deps.gate(brandId);
    const applying = this.settings.mode === 'apply' && gate.apply;
    const held = this.settings.mode === 'apply' && !gate.apply ? gate.why : undefined;
    try {
      // Every request of the pass is aborted when the shutdown's bound is reached.
      const c = await withRequestTally(tally, () => withRequestSignal(this.deps.requests, () => (applying ? this.apply(brandId, want, context) : this.observe(want))));
      if (c !== undefined && held !== undefined) c.classified.reasons.unshift(held);
      if (c !== undefined) Object.assign(c, held !== undefined ? { held } : {}, gate.manual ? { manual: true } : {});
      if (c === undefined) {
        // Waiting for another run's lock: the brand keeps its state until its turn.
        book.resume(brandId);
        result = 'locked';
        ended = { outcome: 'locked' };
        return;
      }
      result = this.record(brandId, c, Math.round(performance.now() - started), tally);
      ended = { outcome: result === 'error' ? 'error' : c.classified.state, c, ...(c.error !== undefined ? { error: c.error } : {}) };
    } catch (err) {
      if (signal.aborted) {
        // Stopped by the shutdown: the next start resyncs it.
        book.resume(brandId);
        const interrupted = err instanceof RcsctlError && err.details.interrupted !== undefined ? { interrupted: err.details.interrupted } : {};
        log('info', 'pass.stopped', { brand: brandId, ...interrupted });
        ended = { outcome: 'stopped', error: { code: 'E_INTERRUPTED', message: errorMessage(err) } };
        return;
      }
      const message = errorMessage(err);
      const error: PassError = { code: err instanceof RcsctlError ? err.code : 'E_INTERNAL', message, ...(err instanceof RcsApiError ? { httpStatus: err.httpStatus } : {}) };
      result = this.record(brandId, { classified: { state: 'failed', reasons: [message], counts: emptyCounts() }, error }, Math.round(performance.now() - started), tally);
      ended = { outcome: 'failed', error };
    } finally {
      // A brand that left the manifests during its pass keeps no series.
      if (book.has(brandId)) metrics.pass(brandId, result, (performance.now() - started) / 1000);
      book.recorded(brandId, {
        startedAt,
        durationMs: Math.round(performance.now() - started),
        mode: this.settings.mode,
        triggers: distinctTriggers(context.triggers),
        outcome: ended.outcome,
        ...(context.revision !== undefined ? { revision: context.revision } : {}),
        planned: ended.c?.classified.counts.steps ?? 0,
        requests: { ...tally },
        ...stepsOf(ended.c?.steps),
        ...(ended.error !== undefined ? { error: { code: ended.error.code, message: ended.error.message } } : {}),
      });
      this.deps.cache?.save();
    }
  }

  /**
   * What a pass found, told to the service's condition, the book and the
   * retries; the result for the metrics. A refused token stops every brand
   * alike: the brand keeps its verdict and the condition says why, once.
   */
  private record(brandId: string, c: PassOutcome, tookMs: number, tally: RequestTally): string {
    const { book, log, service, retries } = this.deps;
    const condition = service.observe(c.error);
    if (c.error !== undefined && serviceStateOf(c.error) === 'unauthorized') {
      book.hold(brandId, c.error, `waiting for the service: ${condition} (${c.error.message})`, tookMs);
      book.retrying(brandId, retries.failed(brandId));
      return 'error';
    }
    book.settle(brandId, c.classified, c.error, c.detail, tookMs);
    for (const v of c.plan?.policy ?? []) log(v.severity === 'error' ? 'error' : 'warn', 'policy', { brand: brandId, rule: v.rule, severity: v.severity, message: violationText(v), applied: v.severity === 'error' ? 'no' : 'yes' });
    if (c.plan !== undefined) book.planned(brandId, c.plan);
    if (c.classified.state === 'failed') {
      const retry = retries.failed(brandId);
      book.retrying(brandId, retry);
      log('error', 'pass.error', { brand: brandId, code: c.error?.code ?? 'E_PLAN', message: c.error?.message ?? c.classified.reasons[0] ?? 'failed', retry: retry.attempt, nextAt: retry.nextAt });
    } else {
      retries.reset(brandId);
      book.retrying(brandId, undefined);
    }
    log('info', 'pass', { brand: brandId, mode: this.settings.mode, state: c.classified.state, ms: tookMs, counts: c.classified.counts, requests: tally.requests, rateLimited: tally.rateLimited, ...(c.applied !== undefined ? { applied: c.applied } : {}), ...(c.held !== undefined ? { held: c.held } : {}), ...(c.manual === true ? { trigger: 'manual' } : {}) });
    return c.classified.state;
  }

  /** Forget the lock retries not yet due (the controller is stopping). */
  stop(): void {
    for (const t of this.lockRetries) clearTimeout(t);
    this.lockRetries.clear();
  }

  /** Plan the brand (or take the plan an apply made) and classify it with its drift. */
  private async observe(want: DesiredBrand, planned?: BrandOutcome[]): Promise<PassOutcome> {
    const { concurrency, reviewWarningMs } = this.settings;
    const cache = this.deps.cache;
    let outcomes = planned;
    if (outcomes === undefined) {
      const { account } = this.settings;
      outcomes = await planEachBrand(this.deps.client, [want], { concurrency, ...(cache !== undefined ? { cache } : {}), ...(account !== undefined ? { account } : {}) });
      await this.checkPolicies(outcomes);
    }
    const now = this.deps.now();
    const report = buildDrift(outcomes, now, { reviewWarningDays: Math.max(0, Math.floor(reviewWarningMs / DAY_MS)) });
    const outcome = outcomes[0]!;
    const drift = report.brands[0];
    const classified = classify(outcome, drift, now, reviewWarningMs);
    const detail = {
      // The pending plan, each step with the fields it changes (before and after, shortened as every view shows them).
      steps: outcome.plan.steps.map((s) => ({ address: s.address, name: s.name, op: s.op, gate: s.gate, ...changeRecords(s.changes) })),
      // The findings with their reasons: a rejection's operator reason, how long a review has waited.
      findings: (drift?.resources ?? []).flatMap((r) => r.findings.map((f) => ({ code: f.code, severity: f.severity, address: f.address, message: f.message, action: f.action, ...pick(f, ['state', 'approvalReason', 'since', 'ageDays', 'expiryDate', 'daysLeft']) }))),
      // The policy rules the plan breaks: an error among them keeps it from being applied.
      ...(outcome.plan.policy !== undefined ? { policy: outcome.plan.policy } : {}),
    };
    const e = outcome.plan.error;
    const error: PassError | undefined = e !== undefined ? { code: e.code, message: e.message, ...(e.httpStatus !== undefined ? { httpStatus: e.httpStatus } : {}) } : undefined;
    return { classified, detail, plan: outcome.plan, ...(error !== undefined ? { error } : {}) };
  }

  /** Apply the brand; undefined when another run holds its lock (a retry is scheduled). */
  private async apply(brandId: string, want: DesiredBrand, context: PassContext): Promise<PassOutcome | undefined> {
    const s = this.settings;
    const cache = this.deps.cache;
    const backend = s.lockBackend?.();
    const lease = s.leaseSignal?.();
    if (s.lockBackend !== undefined && (backend === undefined || lease?.aborted === true)) return undefined;
    const signal = lease !== undefined ? AbortSignal.any([this.deps.signal, lease]) : this.deps.signal;
    // Every step in flight listens on it: not a leak.
    setMaxListeners(0, signal);
    let run;
    try {
      run = await applyBrand(this.deps.client, want, {
        concurrency: s.concurrency,
        allowDelete: s.allowDelete,
        allowReview: s.allowReview,
        // Never wait on a slot: a brand another run holds is tried again later, and the others go on.
        lock: { dir: s.lockDir, timeoutMs: 0, baseUrl: s.baseUrl, command: 'controller', ...(s.shard !== undefined ? { shard: s.shard } : {}), ...(backend !== undefined ? { backend } : {}) },
        signal,
        ...(cache !== undefined ? { cache } : {}),
        ...(s.account !== undefined ? { plan: { account: s.account } } : {}),
        // The repository's rules, on the plan before anything is sent: a brand that breaks an error rule is not applied.
        checkPlan: (outcomes) => this.checkPolicies(outcomes),
      });
    } catch (err) {
      if (err instanceof RcsctlError && err.code === 'E_LOCKED') {
        this.waitForLock(brandId, err.details.holder as LockHolder | undefined);
        return undefined;
      }
      // The lease went with its connection while the locks were taken: the new leader resyncs the brand.
      if (err instanceof RcsctlError && err.code === 'E_LOCK_LOST') return undefined;
      throw err;
    }
    // No longer the leader: the pass stopped after its steps in flight, and the new leader resyncs the brand.
    if (run.status === 'interrupted' && !this.deps.signal.aborted) {
      this.deps.log('warn', 'pass.stopped', { brand: brandId, reason: 'this replica lost the leader lease' });
      return undefined;
    }
    if (run.status === 'nothing') return this.observe(want, run.planned);
    // Refused by a policy rule before anything was sent: blocked, with the rules it breaks (state.ts).
    if (run.status === 'failed' && run.failures.size > 0 && [...run.failures.values()].every((e) => e.code === 'E_POLICY') && run.unconverged.length === 0) return this.observe(want, run.planned);
    if (run.status === 'interrupted') {
      // Steps cut short (in flight when the shutdown came, or never started): the next pass reads where they stand.
      const interrupted = run.interrupted.flatMap((o) => (o.results ?? []).filter((r) => r.status === 'cancelled' || r.inFlightAtInterrupt === true).map((r) => `${r.step.address} ${r.step.op}: ${r.status === 'cancelled' ? 'not started' : `interrupted in flight (${r.message})`}`));
      throw new RcsctlError('E_INTERRUPTED', 'the controller is shutting down: the pass stopped', { interrupted });
    }
    const ran = run.outcomes.flatMap((o) => ('results' in o && o.results !== undefined ? o.results : []));
    const applied = ['done', 'failed', 'blocked', 'held', 'skipped'].map((st) => `${ran.filter((r) => r.status === st).length} ${st}`).join(', ');
    // One line per step sent, with what it changed: the audit trail outlives the in-memory history.
    for (const r of ran) if (r.status === 'done' || r.status === 'failed') this.deps.log(r.status === 'done' ? 'info' : 'error', 'apply.step', { brand: brandId, ...stepRecord(r), ...(context.revision !== undefined ? { revision: context.revision.commit } : {}), why: distinctTriggers(context.triggers).map(triggerLabel) });
    this.deps.applied?.(brandId, ran.filter((r) => r.status === 'done').map((r) => `${r.step.address} ${r.step.op}`));
    this.deps.log('info', 'apply', { brand: brandId, status: run.status, steps: applied, ...(context.revision !== undefined ? { revision: context.revision.commit } : {}) });
    if (run.status === 'failed') {
      const reasons = [...[...run.failures.values()].map((e) => `${e.code}: ${e.message}`), ...run.unconverged.map((u) => u.message)];
      const first = [...run.failures.values()][0];
      const error: PassError = { code: first?.code ?? 'E_UNCONVERGED', message: reasons[0] ?? 'apply failed', ...(first?.httpStatus !== undefined ? { httpStatus: first.httpStatus } : {}) };
      return { classified: { state: 'failed', reasons, counts: emptyCounts() }, error, applied, steps: ran };
    }
    // What the apply left (held or blocked steps, reviews it started): read once more.
    return { ...(await this.observe(want)), applied, steps: ran };
  }

  /**
   * The repository's rules over a pass's plan (docs/policies.md): the
   * brand's violations go on its plan. A pass is one brand's, so a rule on
   * the whole run sees that brand alone, and its verdict is the brand's. The
   * controller reviews no request: `request` is false and there are no
   * labels, as on the main branch.
   */
  private async checkPolicies(outcomes: BrandOutcome[]): Promise<void> {
    const policies = this.deps.policies?.();
    if (policies === undefined || policies.rules.length === 0) return;
    const run = await checkPlannedBrands(policies.rules, policies.docs, outcomes, { labels: [], request: false });
    if (run.length === 0) return;
    for (const o of outcomes) if (o.plan.error === undefined) o.plan.policy = [...(o.plan.policy ?? []), ...run];
  }

  /** Another run holds the brand's lock: say who, and try again after lockRetryMs. */
  private waitForLock(brandId: string, holder: LockHolder | undefined): void {
    const who = holder !== undefined ? describeHolder(holder).replace(/, started .*\)$/, ')') : 'another rcsctl run';
    if (this.deps.book.note(brandId, `waiting for the brand's lock, held by ${who}`, 'waiting for the brand')) this.deps.log('info', 'brand.locked', { brand: brandId, holder: who });
    const t = setTimeout(() => {
      this.lockRetries.delete(t);
      this.deps.markDirty(brandId, { kind: 'lock' });
    }, this.settings.lockRetryMs);
    this.lockRetries.add(t);
  }
}

/** The fields of `o` named in `keys` that are set. */
function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
