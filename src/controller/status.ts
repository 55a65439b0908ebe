// What /status reports: the controller and each brand's state, with the last
// pass's time, duration, outcome and counts, the pending reasons and the last
// error. Plain data; the controller keeps it current.

import type { ControlView } from './brand-controls.js';
import type { LeadershipView } from './leader.js';
import type { RetryState } from './retry-schedule.js';
import type { ServiceStatus } from './service-condition.js';
import type { BrandState, PassCounts } from './state.js';

/** One brand, as GET /status lists it; `suspended` and `syncWindow` (ControlView) say why apply mode does not apply it now. */
export interface BrandStatus extends ControlView {
  brandId: string;
  /** `standby`: another replica leads the shard and runs the brand's passes (this one runs none). */
  state: BrandState | 'standby';
  /** On a standby: the replica that leads the shard (`host pid N`), whose /status has the brand's state. */
  leader?: string;
  /** The brand's owners, as its manifests declare them (`brand.owners`); absent when they declare none. */
  owners?: string[];
  /** Since when the brand has been in its state (the pass that first found it so ended then), absent before the first pass. */
  stateSince?: string;
  /** When the last pass ended (ISO 8601), absent before the first. */
  lastPassAt?: string;
  lastPassDurationMs?: number;
  /** The state the last pass ended in, or `error` when it threw. */
  lastPassOutcome?: BrandState | 'error';
  counts?: PassCounts;
  /** Why the brand is not in sync: steps, gates, reviews, findings; and a lock it waits for. */
  pendingReasons: string[];
  lastError?: { code: string; message: string; at: string };
  /** Passes run since the controller started. */
  passes: number;
  /** After a failed pass: passes failed in a row, and when the next try starts (absent once a pass succeeds). */
  retry?: RetryState;
}

/** The whole controller, as GET /status gives it. */
export interface ControllerStatus {
  mode: 'observe' | 'apply';
  /** The shard this replica serves (`i/n`), when sharded. */
  shard?: string;
  ready: boolean;
  startedAt: string;
  /** When the last full resync began. */
  lastResyncAt?: string;
  queueDepth: number;
  /** Leader, standby, sole (no lock URL) or unknown, and the shard's leader (leader.ts). */
  leadership?: LeadershipView;
  /** The service's condition: ok, unreachable or unauthorized, since when, and the error that said so. */
  service: ServiceStatus;
  brands: BrandStatus[];
}

/**
 * A brand as a standby shows it: state `standby` naming the leader, which
 * runs the brand's passes; what this replica's own passes found, if it led
 * before, stays beside it. Other places leave the brand as it is.
 */
export function asSeenBy(brand: BrandStatus, leadership: LeadershipView | undefined): BrandStatus {
  if (leadership?.state !== 'standby') return brand;
  const leader = leadership.leader !== undefined ? `${leadership.leader.host} pid ${leadership.leader.pid}` : 'another replica';
  return { ...brand, state: 'standby', leader, pendingReasons: [`standby: ${leader} leads shard ${leadership.lease} and runs this brand's passes`] };
}
