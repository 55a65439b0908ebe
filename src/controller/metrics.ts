// The controller's Prometheus metrics, through prom-client (its text format,
// escaping and histogram buckets are the library's, not ours). Each controller
// has its own registry, so two in one process (tests, a program) never mix.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { NOTIFICATION_TYPES } from '../contract/wire.js';
import { BRAND_STATES, type BrandState } from './state.js';

/** The notification types the service sends; others count as `other`. */
const KNOWN_TYPES = new Set<string>(NOTIFICATION_TYPES);
const KNOWN_METHODS = new Set(['created', 'modified', 'rejected', 'deleted', 'unknown']);

/** What became of a notification for another shard's brand. */
export type ForwardResult = 'forwarded' | 'failed' | 'no-brand' | 'already-forwarded';

/** The metrics of one controller. */
export class ControllerMetrics {
  readonly registry = new Registry();
  private readonly inSync = new Gauge({ name: 'rcsctl_brand_in_sync', help: '1 when the brand matches its manifests, else 0', labelNames: ['brand'], registers: [this.registry] });
  private readonly state = new Gauge({ name: 'rcsctl_brand_state', help: 'The brand\'s state: 1 for the current one, 0 for the others', labelNames: ['brand', 'state'], registers: [this.registry] });
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
  private readonly notifications = new Counter({ name: 'rcsctl_notifications_total', help: 'Notifications received on /webhook and accepted', labelNames: ['type', 'method'], registers: [this.registry] });
  private readonly forwards = new Counter({
    name: 'rcsctl_notification_forwards_total',
    help: 'Notifications for another shard\'s brands (--shard-peers): forwarded, failed, or not forwarded (no-brand, already-forwarded)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly requests = new Counter({ name: 'rcsctl_requests_total', help: 'HTTP requests the controller answered, by status code', labelNames: ['status'], registers: [this.registry] });
  private readonly queue = new Gauge({ name: 'rcsctl_queue_depth', help: 'Brands waiting for a pass', registers: [this.registry] });

  /** A brand's state changed (or was first known). */
  setState(brandId: string, state: BrandState, lateReviews: number): void {
    for (const s of BRAND_STATES) this.state.set({ brand: brandId, state: s }, s === state ? 1 : 0);
    // While a pass runs the brand keeps the verdict of the last one.
    if (state !== 'reconciling') this.inSync.set({ brand: brandId }, state === 'in-sync' ? 1 : 0);
    this.lateReviews.set({ brand: brandId }, lateReviews);
  }

  /** A brand left the manifests: its series go. */
  forget(brandId: string): void {
    for (const s of BRAND_STATES) this.state.remove({ brand: brandId, state: s });
    this.inSync.remove({ brand: brandId });
    this.lateReviews.remove({ brand: brandId });
  }

  /** A pass ended with `result` after `seconds`. */
  pass(brandId: string, result: string, seconds: number): void {
    this.passes.inc({ brand: brandId, result });
    this.duration.observe(seconds);
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
