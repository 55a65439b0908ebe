// The controller's book of brands: each brand's status as /status shows it,
// the state its last pass settled in, and the last pass's plan and findings.
// Every change of a brand's state goes through here, so the log line and the
// metrics always follow it. Each brand also keeps its pass history (history.ts)
// and its last plan, for the page; a brand that leaves the manifests takes both.

import type { BrandPlan } from '../plan/types.js';
import { DEFAULT_HISTORY_SIZE, PassHistory, type PassRecord } from './history.js';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import type { RetryState } from './retry-schedule.js';
import type { BrandState, Classified } from './state.js';
import type { BrandStatus } from './status.js';

interface BrandEntry {
  status: BrandStatus;
  /** The last pass's plan and findings, for /status/BRANDID. */
  detail?: Record<string, unknown>;
  /** The state before the pass now running. */
  settled: BrandState;
  lateReviews: number;
  history: PassHistory;
  /** The plan the last pass read the brand's state off (the page renders it). */
  plan?: BrandPlan;
}

/** An error a pass met, as /status shows it (`httpStatus` when the service answered). */
export interface PassError {
  code: string;
  message: string;
  httpStatus?: number;
}

/** Every brand the controller serves, by id. */
export class BrandBook {
  private readonly entries = new Map<string, BrandEntry>();
  private settleListener: ((brandId: string, c: Classified, detail: Record<string, unknown> | undefined) => void) | undefined;

  constructor(
    private readonly log: Log,
    private readonly metrics: ControllerMetrics,
    /** Passes kept per brand. */
    private readonly historySize: number = DEFAULT_HISTORY_SIZE,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Keep exactly the brands `ids`: new ones start `reconciling`; the ones gone are forgotten and returned. */
  retain(ids: ReadonlySet<string>): string[] {
    const gone = [...this.entries.keys()].filter((id) => !ids.has(id));
    for (const id of gone) {
      this.entries.delete(id);
      this.metrics.forget(id);
      this.log('info', 'brand.removed', { brand: id });
    }
    for (const id of ids) {
      if (this.entries.has(id)) continue;
      this.entries.set(id, { status: { brandId: id, state: 'reconciling', pendingReasons: [], passes: 0 }, settled: 'reconciling', lateReviews: 0, history: new PassHistory(this.historySize) });
      this.metrics.brandAdded(id);
    }
    return gone;
  }

  /** A pass of `brandId` begins; false when the brand is not (or no longer) served. */
  begin(brandId: string): boolean {
    const entry = this.entries.get(brandId);
    if (entry === undefined) return false;
    entry.status.state = 'reconciling';
    // A separate gauge: rcsctl_brand_state keeps the last verdict, so a pass never resets an alert's `for:`.
    this.metrics.setReconciling(brandId, true);
    return true;
  }

  /** A pass ended without a verdict (a lock another run holds, a shutdown): the brand keeps the state it had. */
  resume(brandId: string): void {
    const entry = this.entries.get(brandId);
    if (entry === undefined) return;
    entry.status.state = entry.settled;
    this.metrics.setReconciling(brandId, false);
  }

  /** Record a pass's verdict (`tookMs` absent: no pass ran, as for a broken manifest). */
  settle(brandId: string, c: Classified, error: PassError | undefined, detail: Record<string, unknown> | undefined, tookMs?: number): void {
    const entry = this.entries.get(brandId);
    if (entry === undefined) return;
    const now = new Date().toISOString();
    const s = entry.status;
    if (entry.settled !== c.state || s.stateSince === undefined) s.stateSince = now;
    if (entry.settled !== c.state) this.log(c.state === 'failed' ? 'error' : 'info', 'brand.state', { brand: brandId, from: entry.settled, to: c.state, reasons: c.reasons.slice(0, 20) });
    entry.settled = c.state;
    entry.lateReviews = c.counts.lateReviews;
    s.state = c.state;
    s.pendingReasons = c.reasons;
    s.counts = c.counts;
    s.lastPassAt = now;
    if (tookMs !== undefined) s.passes++;
    if (tookMs !== undefined) s.lastPassDurationMs = tookMs;
    s.lastPassOutcome = error !== undefined && c.state !== 'failed' ? 'error' : c.state;
    if (error !== undefined) s.lastError = { code: error.code, message: error.message, at: now };
    if (detail !== undefined) entry.detail = detail;
    this.metrics.setState(brandId, c.state, c.counts.lateReviews);
    this.metrics.setReconciling(brandId, false);
    if (c.state !== 'failed' && error === undefined) this.metrics.succeeded(brandId);
    this.settleListener?.(brandId, c, detail);
  }

  /** Be told of every verdict settled (notify-out.ts: the transitions it sends). */
  onSettle(listener: (brandId: string, c: Classified, detail: Record<string, unknown> | undefined) => void): void {
    this.settleListener = listener;
  }

  /** The brand's owners, as its manifests now declare them (none: the field goes). */
  owners(brandId: string, owners: readonly string[] | undefined): void {
    const s = this.entries.get(brandId)?.status;
    if (s === undefined) return;
    if (owners === undefined || owners.length === 0) delete s.owners;
    else s.owners = [...owners];
  }

  /** A pass ended: its entry in the brand's history. */
  recorded(brandId: string, pass: PassRecord): void {
    this.entries.get(brandId)?.history.add(pass);
  }

  /** The plan the brand's last pass read its state off. */
  planned(brandId: string, plan: BrandPlan): void {
    const entry = this.entries.get(brandId);
    if (entry !== undefined) entry.plan = plan;
  }

  /** The brand's last plan, for the page. */
  plan(brandId: string): BrandPlan | undefined {
    return this.entries.get(brandId)?.plan;
  }

  /** Whether `brandId` is served (it may have left the manifests during its pass). */
  has(brandId: string): boolean {
    return this.entries.has(brandId);
  }

  /**
   * A pass that the service's condition stopped (the token refused): the
   * brand keeps the verdict it had, with the error and why it waits; the
   * condition is the controller's, said once (src/controller/service-condition.ts),
   * so no brand logs it. A brand never read through has no verdict to keep:
   * it is failed (it could not be read), quietly.
   */
  hold(brandId: string, error: PassError, reason: string, tookMs: number): void {
    const entry = this.entries.get(brandId);
    if (entry === undefined) return;
    if (entry.settled === 'reconciling') {
      // Settled first, so settle() writes no brand.state line.
      entry.settled = 'failed';
      this.settle(brandId, { state: 'failed', reasons: [reason], counts: emptyCounts() }, error, undefined, tookMs);
      return;
    }
    const s = entry.status;
    s.state = entry.settled;
    s.passes++;
    s.lastPassAt = new Date().toISOString();
    s.lastPassDurationMs = tookMs;
    s.lastPassOutcome = 'error';
    s.lastError = { code: error.code, message: error.message, at: s.lastPassAt };
    s.pendingReasons = [reason, ...s.pendingReasons.filter((r) => !r.startsWith('waiting for the service'))];
    // rcsctl_brand_state keeps the last verdict.
    this.metrics.setReconciling(brandId, false);
  }

  /** The brand's pending retry (undefined: none). */
  retrying(brandId: string, retry: RetryState | undefined): void {
    const s = this.entries.get(brandId)?.status;
    if (s === undefined) return;
    if (retry === undefined) delete s.retry;
    else s.retry = retry;
  }

  /** Put `reason` first among the brand's pending reasons, replacing one that starts with `kind`; true when it was not there yet. */
  note(brandId: string, reason: string, kind: string): boolean {
    const entry = this.entries.get(brandId);
    if (entry === undefined || entry.status.pendingReasons[0] === reason) return false;
    entry.status.pendingReasons = [reason, ...entry.status.pendingReasons.filter((r) => !r.startsWith(kind))];
    return true;
  }

  /** Every brand's status, by id. */
  list(): BrandStatus[] {
    return [...this.entries.values()].map((b) => ({ ...b.status })).sort((a, b) => a.brandId.localeCompare(b.brandId));
  }

  /** One brand's status with its last plan and findings and its history (newest first), as /status/BRANDID gives it. */
  view(brandId: string): (BrandStatus & { history: PassRecord[] } & Record<string, unknown>) | undefined {
    const b = this.entries.get(brandId);
    return b === undefined ? undefined : { ...b.status, ...(b.detail ?? {}), history: b.history.list() };
  }
}

/** Counts of a pass that planned nothing (it failed first). */
export function emptyCounts(): Classified['counts'] {
  return { steps: 0, blocked: 0, review: 0, findings: 0, waitingReview: 0, lateReviews: 0 };
}
