// Where a notification goes: it marks the brands it concerns dirty (one that
// names no brand, such as messagebaseform, format or agencykey, may change
// what any brand's plan allows, so it marks them all), and with --shard-peers
// one for another shard's brand is forwarded to that shard's replica.

import { inShard, type Shard } from '../plan/shard.js';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import type { Notification } from './notifications.js';
import type { Forwarder } from './peers.js';
import type { Trigger } from './history.js';

/** What routing needs from the controller. */
export interface RouterDeps {
  log: Log;
  metrics: ControllerMetrics;
  shard?: Shard;
  forwarder?: Forwarder;
  /** The brands this replica serves now. */
  brands: () => Iterable<string>;
  has: (brandId: string) => boolean;
  /** Mark a brand dirty, saying which notification did. */
  markDirty: (brandId: string, trigger: Trigger) => void;
  /** A notification of this type came: drop the service-wide lists it concerns (the next pass reads them again); how many were dropped. */
  invalidate: (topic: string) => number;
}

/** Routes the webhook's notifications. */
export class NotificationRouter {
  constructor(private readonly deps: RouterDeps) {
    if (deps.forwarder !== undefined) for (const r of ['forwarded', 'failed', 'no-brand', 'already-forwarded'] as const) deps.metrics.forward(r, 0);
  }

  /** `forwarded`: another replica passed these on; never forward them again. */
  notified(list: Notification[], forwarded: boolean): void {
    const { log, metrics, shard, forwarder } = this.deps;
    const elsewhere: Notification[] = [];
    for (const n of list) {
      metrics.notification(n.notiType, n.method);
      const dropped = this.deps.invalidate(n.notiType);
      if (dropped > 0) log('info', 'catalogue.invalidated', { type: n.notiType, lists: dropped });
      const targets = n.brandId === undefined ? [...this.deps.brands()] : this.deps.has(n.brandId) ? [n.brandId] : [];
      const theirs = n.brandId !== undefined && !inShard(n.brandId, shard);
      log('info', 'notification', { type: n.notiType, method: n.method, ...(n.brandId !== undefined ? { brand: n.brandId } : {}), queued: targets.length, ...(forwarded ? { forwarded } : {}) });
      const trigger: Trigger = { kind: 'notification', type: n.notiType, ...(n.method !== undefined ? { method: n.method } : {}) };
      for (const id of targets) this.deps.markDirty(id, trigger);
      if (forwarder === undefined) continue;
      if (theirs && !forwarded) elsewhere.push(n);
      else if (theirs) this.unforwarded(n, 'already-forwarded');
      else if (n.brandId === undefined && !forwarded) this.unforwarded(n, 'no-brand');
    }
    if (elsewhere.length > 0) forwarder?.forward(elsewhere);
  }

  /** A notification another shard may need that is not passed on: its owner's resync catches it. */
  private unforwarded(n: Notification, why: 'already-forwarded' | 'no-brand'): void {
    this.deps.metrics.forward(why, 1);
    this.deps.log('warn', 'notification.not_forwarded', { type: n.notiType, ...(n.brandId !== undefined ? { brand: n.brandId } : {}), reason: why === 'no-brand' ? 'names no brand: the other shards see it at their next resync' : 'already forwarded once, and this replica does not own the brand' });
  }
}
