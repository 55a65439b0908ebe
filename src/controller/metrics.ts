// The controller's Prometheus metrics, through prom-client (its text format,
// escaping and histogram buckets are the library's, not ours). Each controller
// has its own registry, so two in one process (tests, a program) never mix.
// Every metric is listed in docs/controller.md, "Metrics".

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptEvent, RcsClient } from '../api/index.js';
import { findOperation } from '../contract/operations.js';
import { NOTIFICATION_TYPES } from '../contract/wire.js';
import { VERSION } from '../version.js';
import type { LeadershipView } from './leader.js';
import { BRAND_STATES, SERVICE_STATES, type BrandState, type ServiceState } from './state.js';

/** The notification types the service sends; others count as `other`. */
const KNOWN_TYPES = new Set<string>(NOTIFICATION_TYPES);
const KNOWN_METHODS = new Set(['created', 'modified', 'rejected', 'deleted', 'unknown']);

/** The states a pass ends in: `rcsctl_brand_state` names only these, so a running pass never resets an alert's `for:`. */
const SETTLED_STATES = BRAND_STATES.filter((s): s is Exclude<BrandState, 'reconciling'> => s !== 'reconciling');
/** Every `result` of rcsctl_reconcile_total. */
const PASS_RESULTS = [...SETTLED_STATES, 'error', 'locked'];

/** What became of a notification for another shard's brand. */
export type ForwardResult = 'forwarded' | 'failed' | 'no-brand' | 'already-forwarded';

/** The metrics of one controller. */
export class ControllerMetrics {
  readonly registry = new Registry();
  private readonly inSync = new Gauge({ name: 'rcsctl_brand_in_sync', help: '1 when the brand matches its manifests, else 0', labelNames: ['brand'], registers: [this.registry] });
  private readonly state = new Gauge({
    name: 'rcsctl_brand_state',
    help: 'The state the brand\'s last pass ended in: 1 for it, 0 for the others (a running pass is rcsctl_brand_reconciling)',
    labelNames: ['brand', 'state'],
    registers: [this.registry],
  });
  private readonly reconciling = new Gauge({ name: 'rcsctl_brand_reconciling', help: '1 while a pass of the brand runs, else 0', labelNames: ['brand'], registers: [this.registry] });
  private readonly lastSuccess = new Gauge({
    name: 'rcsctl_brand_last_success_timestamp_seconds',
    help: 'When a pass last read the brand through (any state but failed); when the controller took the brand on, before that',
    labelNames: ['brand'],
    registers: [this.registry],
  });
  private readonly lateReviews = new Gauge({
    name: 'rcsctl_reviews_waiting_late',
    help: 'Resources of the brand waiting for review longer than --review-warning',
    labelNames: ['brand'],
    registers: [this.registry],
  });
  private readonly passes = new Counter({ name: 'rcsctl_reconcile_total', help: 'Reconcile passes, by the state they ended in (or error)', labelNames: ['brand', 'result'], registers: [this.registry] });
  private readonly duration = new Histogram({
    name: 'rcsctl_reconcile_duration_seconds',
    help: 'How long one brand\'s pass took',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly lastResync = new Gauge({ name: 'rcsctl_last_resync_timestamp_seconds', help: 'When the last full resync of every brand began', registers: [this.registry] });
  private readonly interval = new Gauge({ name: 'rcsctl_resync_interval_seconds', help: 'The --interval between full resyncs', registers: [this.registry] });
  private readonly notifications = new Counter({ name: 'rcsctl_notifications_total', help: 'Notifications received on /webhook and accepted', labelNames: ['type', 'method'], registers: [this.registry] });
  private readonly forwards = new Counter({
    name: 'rcsctl_notification_forwards_total',
    help: 'Notifications for another shard\'s brands (--shard-peers): forwarded, failed, or not forwarded (no-brand, already-forwarded)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly requests = new Counter({ name: 'rcsctl_requests_total', help: 'HTTP requests the controller answered, by status code', labelNames: ['status'], registers: [this.registry] });
  private readonly queue = new Gauge({ name: 'rcsctl_queue_depth', help: 'Brands waiting for a pass', registers: [this.registry] });
  private readonly serviceRequests = new Counter({
    name: 'rcsctl_service_requests_total',
    help: 'Requests sent to the service, every attempt counted, by operation and by HTTP status or failure (connect, reset, timeout, unreachable)',
    labelNames: ['operation', 'status'],
    registers: [this.registry],
  });
  private readonly serviceRetries = new Counter({ name: 'rcsctl_service_retries_total', help: 'Attempts beyond the first, by operation', labelNames: ['operation'], registers: [this.registry] });
  private readonly service = new Gauge({
    name: 'rcsctl_service_state',
    help: 'The service as the last pass found it: 1 for the current state (ok, unreachable, unauthorized), 0 for the others',
    labelNames: ['state'],
    registers: [this.registry],
  });
  private readonly notifyOutTotal = new Counter({
    name: 'rcsctl_notifications_out_total',
    help: 'Messages sent to the configured destinations (Slack, webhooks), by destination and result (sent, failed after its retries)',
    labelNames: ['destination', 'result'],
    registers: [this.registry],
  });
  private readonly retrying = new Gauge({ name: 'rcsctl_brands_retrying', help: 'Failed brands waiting for their retry (exponential backoff)', registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({ name: 'rcsctl_build_info', help: 'Always 1; the version of rcsctl running', labelNames: ['version'], registers: [this.registry] }).set({ version: VERSION }, 1);
  }

  /** Count every request `client` sends, and read its limiter at each scrape; returns the call that stops counting. */
  watchClient(client: RcsClient): () => void {
    const limits = (): RcsClient['limits'] => client.limits;
    new Gauge({
      name: 'rcsctl_service_pace_requests_per_second',
      help: 'The pace the limiter keeps after a 429, requests a second; +Inf while none',
      registers: [this.registry],
      collect() {
        this.set(limits().pace);
      },
    });
    new Gauge({
      name: 'rcsctl_service_concurrency_limit',
      help: 'The limiter\'s limit on requests in flight to the service now',
      registers: [this.registry],
      collect() {
        this.set(limits().concurrency);
      },
    });
    return client.observe((e) => this.attempt(e));
  }

  /** Export the controls, read at each scrape: suspended brands, brands a sync window holds, windows open by kind. */
  watchControls(counts: () => { suspended: number; held: number }, open: () => { allow: number; deny: number }): void {
    new Gauge({
      name: 'rcsctl_brands_suspended',
      help: 'Brands suspended (by the configuration file or through the API): observed, never applied',
      registers: [this.registry],
      collect() {
        this.set(counts().suspended);
      },
    });
    new Gauge({
      name: 'rcsctl_brands_held_by_window',
      help: 'Brands a sync window keeps from applying now (inside a deny window, or outside every allow window)',
      registers: [this.registry],
      collect() {
        this.set(counts().held);
      },
    });
    new Gauge({
      name: 'rcsctl_sync_windows_open',
      help: 'Sync windows open now, by kind (allow, deny)',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        const o = open();
        this.set({ kind: 'allow' }, o.allow);
        this.set({ kind: 'deny' }, o.deny);
      },
    });
  }

  /** Export readiness as `rcsctl_ready` (read at each scrape): an alert on a replica that stays unready needs it, as the probe only tells the kubelet. */
  watchReadiness(ready: () => boolean): void {
    new Gauge({
      name: 'rcsctl_ready',
      help: '1 while /readyz answers 200 (this replica can take webhooks), else 0',
      registers: [this.registry],
      collect() {
        this.set(ready() ? 1 : 0);
      },
    });
  }

  /** One attempt of a request to the service. */
  attempt(e: AttemptEvent): void {
    const operation = findOperation(e.method, e.path)?.id ?? 'other';
    this.serviceRequests.inc({ operation, status: String(e.status) });
    if (e.attempt > 1) this.serviceRetries.inc({ operation });
  }

  /** A brand became known (its series start: not yet reconciled, its last success counted from now). */
  brandAdded(brandId: string, now: number = Date.now()): void {
    this.lastSuccess.set({ brand: brandId }, now / 1000);
    this.reconciling.set({ brand: brandId }, 0);
  }

  /** A pass of the brand ended in `state` (or the brand's state is known without one, as a broken manifest). */
  setState(brandId: string, state: Exclude<BrandState, 'reconciling'>, lateReviews: number): void {
    for (const s of SETTLED_STATES) this.state.set({ brand: brandId, state: s }, s === state ? 1 : 0);
    this.inSync.set({ brand: brandId }, state === 'in-sync' ? 1 : 0);
    this.lateReviews.set({ brand: brandId }, lateReviews);
  }

  /** A pass of the brand started (true) or ended (false). */
  setReconciling(brandId: string, running: boolean): void {
    this.reconciling.set({ brand: brandId }, running ? 1 : 0);
  }

  /** A pass read the brand through (it ended in any state but failed). */
  succeeded(brandId: string, now: number = Date.now()): void {
    this.lastSuccess.set({ brand: brandId }, now / 1000);
  }

  /** A brand left the manifests: its series go. */
  forget(brandId: string): void {
    for (const s of SETTLED_STATES) this.state.remove({ brand: brandId, state: s });
    for (const result of PASS_RESULTS) this.passes.remove({ brand: brandId, result });
    for (const g of [this.inSync, this.lateReviews, this.reconciling, this.lastSuccess]) g.remove({ brand: brandId });
  }

  /** A pass ended with `result` after `seconds`. */
  pass(brandId: string, result: string, seconds: number): void {
    this.passes.inc({ brand: brandId, result });
    this.duration.observe(seconds);
  }

  /** A full resync began. */
  resync(now: number = Date.now()): void {
    this.lastResync.set(now / 1000);
  }

  resyncInterval(ms: number): void {
    this.interval.set(ms / 1000);
  }

  /**
   * Export the election's view as `rcsctl_shard_leader{shard}` (read at each
   * scrape): 1 leading (or sole, without a lock URL), 0 standing by, no
   * sample while unknown.
   */
  watchLeadership(view: () => LeadershipView | undefined): void {
    new Gauge({
      name: 'rcsctl_shard_leader',
      help: '1 while this replica leads its shard (writes; also without a lock URL), 0 while it stands by; no sample while its place is unknown',
      labelNames: ['shard'],
      registers: [this.registry],
      collect() {
        this.reset();
        const v = view();
        if (v === undefined || !v.known) return;
        this.set({ shard: v.lease }, v.state === 'standby' ? 0 : 1);
      },
    });
  }

  notification(type: string, method: string): void {
    this.notifications.inc({ type: KNOWN_TYPES.has(type) ? type : 'other', method: KNOWN_METHODS.has(method) ? method : 'other' });
  }

  /** `count` notifications met `result` on their way to another shard; 0 makes the series exist. */
  forward(result: ForwardResult, count: number): void {
    this.forwards.inc({ result }, count);
  }

  request(status: number): void {
    this.requests.inc({ status: String(status) });
  }

  /** The service's condition changed (or was first known). */
  serviceState(state: ServiceState): void {
    for (const s of SERVICE_STATES) this.service.set({ state: s }, s === state ? 1 : 0);
  }

  /** `count` messages to `destination` were sent or failed (after their retries); 0 makes the series exist. */
  notifyOut(destination: string, result: 'sent' | 'failed', count: number): void {
    this.notifyOutTotal.inc({ destination, result }, count);
  }

  /** Failed brands waiting for a retry. */
  retries(count: number): void {
    this.retrying.set(count);
  }

  queueDepth(depth: number): void {
    this.queue.set(depth);
  }

  /** The text exposition format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
