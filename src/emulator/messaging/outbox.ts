// Posting to agency webhooks: one lane per (kind, URL), one call in flight per
// lane so order holds. msgstatus items are batched (at most 100, sent when 100
// are collected or one interval after the first waiting item); user events and
// notifications go one per call. A call that is not answered HTTP 200 is
// retried after each of `retryDelaysMs`, then dropped and logged.

import { Agent, request } from 'undici';
import { formatServiceTime } from '../../util/time.js';

/** What the outbox posts. */
export type WebhookKind = 'msgstatus' | 'momsg' | 'notification';

/** Timing of the outbox; tests shorten it through /_emulator/messaging/options. */
export interface OutboxSettings {
  /** How long the first waiting msgstatus item waits for others (the platform's ~100 ms). */
  batchIntervalMs: number;
  /** Waits before each retry of a call not answered 200; its length is the number of retries. */
  retryDelaysMs: number[];
  /** Timeout of one webhook call (headers and body). */
  timeoutMs: number;
  /** Hold everything queued (nothing is posted) until set false again. */
  paused: boolean;
}

/** The documented default policy (docs/emulator.md, "Testing your relay"). */
export const DEFAULT_OUTBOX: Readonly<OutboxSettings> = { batchIntervalMs: 100, retryDelaysMs: [500, 1000, 2000], timeoutMs: 5000, paused: false };
/** Most msgstatus items in one call (the service reference, Limits). */
export const MAX_BATCH = 100;
/** Delivery attempts kept in the log (oldest dropped first). */
const MAX_LOG = 10_000;
/** The webhook calls carry a bearer token, as the service's samples do; this one is fixed and public. */
export const WEBHOOK_TOKEN = 'emulator-webhook';

/** One attempt to post to a webhook. */
export interface DeliveryAttempt {
  kind: WebhookKind;
  url: string;
  items: number;
  attempt: number;
  /** HTTP status answered, or 0 when the call failed (refused, reset, timed out). */
  status: number;
  error?: string;
  /** delivered (200), retrying (another attempt follows) or dropped (no retry left). */
  outcome: 'delivered' | 'retrying' | 'dropped';
  /** Service time of the attempt. */
  time: string;
}

interface Lane {
  kind: WebhookKind;
  url: string;
  items: unknown[];
  timer?: NodeJS.Timeout;
  busy: boolean;
}

/** The webhook poster of one emulator. */
export class Outbox {
  settings: OutboxSettings = { ...DEFAULT_OUTBOX, retryDelaysMs: [...DEFAULT_OUTBOX.retryDelaysMs] };
  readonly log: DeliveryAttempt[] = [];
  private lanes = new Map<string, Lane>();
  private waits = new Set<() => void>();
  private generation = 0;
  private stopped = false;
  private agent = new Agent({ keepAliveTimeout: 1000, connections: 8 });

  constructor(private readonly clock: () => number) {}

  /** Queue one item for a webhook URL. */
  post(kind: WebhookKind, url: string, item: unknown): void {
    const key = `${kind} ${url}`;
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { kind, url, items: [], busy: false };
      this.lanes.set(key, lane);
    }
    lane.items.push(item);
    this.schedule(lane);
  }

  /** Items queued and not yet posted, by kind. */
  pending(): Record<WebhookKind, number> {
    const out: Record<WebhookKind, number> = { msgstatus: 0, momsg: 0, notification: 0 };
    for (const lane of this.lanes.values()) out[lane.kind] += lane.items.length;
    return out;
  }

  /** Change the settings; unpausing sends what was held. */
  configure(change: Partial<OutboxSettings>): void {
    Object.assign(this.settings, change);
    for (const lane of this.lanes.values()) {
      if (this.settings.paused) this.clearTimer(lane);
      else this.schedule(lane);
    }
  }

  /** Forget every queued item, retry and log entry (the emulator was reset). */
  reset(): void {
    this.generation++;
    for (const lane of this.lanes.values()) this.clearTimer(lane);
    this.lanes.clear();
    for (const wake of this.waits) wake();
    this.log.length = 0;
    this.settings = { ...DEFAULT_OUTBOX, retryDelaysMs: [...DEFAULT_OUTBOX.retryDelaysMs] };
  }

  /** Stop for good: no timer left behind, open connections closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reset();
    await this.agent.destroy();
  }

  private schedule(lane: Lane): void {
    if (lane.busy || this.stopped || this.settings.paused || lane.items.length === 0) return;
    if (lane.kind !== 'msgstatus' || lane.items.length >= MAX_BATCH) {
      this.clearTimer(lane);
      void this.flush(lane);
    } else if (lane.timer === undefined) {
      lane.timer = setTimeout(() => {
        lane.timer = undefined;
        void this.flush(lane);
      }, this.settings.batchIntervalMs);
      lane.timer.unref();
    }
  }

  private clearTimer(lane: Lane): void {
    if (lane.timer !== undefined) clearTimeout(lane.timer);
    lane.timer = undefined;
  }

  private async flush(lane: Lane): Promise<void> {
    if (lane.busy || this.stopped || this.settings.paused) return;
    const generation = this.generation;
    lane.busy = true;
    try {
      const batch = lane.items.splice(0, lane.kind === 'msgstatus' ? MAX_BATCH : 1);
      await this.deliver(lane, batch, generation);
    } finally {
      lane.busy = false;
    }
    if (generation === this.generation) this.schedule(lane);
  }

  private async deliver(lane: Lane, batch: unknown[], generation: number): Promise<void> {
    const body = JSON.stringify(batch);
    for (let attempt = 1; ; attempt++) {
      const { status, error } = await this.call(lane.url, body);
      if (generation !== this.generation) return;
      const retryLeft = attempt <= this.settings.retryDelaysMs.length;
      const outcome = status === 200 ? 'delivered' : retryLeft ? 'retrying' : 'dropped';
      this.record({ kind: lane.kind, url: lane.url, items: batch.length, attempt, status, ...(error !== undefined ? { error } : {}), outcome, time: formatServiceTime(new Date(this.clock())) });
      if (outcome !== 'retrying') return;
      await this.wait(this.settings.retryDelaysMs[attempt - 1] ?? 0);
      if (generation !== this.generation) return;
    }
  }

  private async call(url: string, body: string): Promise<{ status: number; error?: string }> {
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${WEBHOOK_TOKEN}` },
        body,
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
      });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (err) {
      return { status: 0, error: err instanceof Error ? (err as Error & { code?: string }).code ?? err.message : String(err) };
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.waits.add(done);
    });
  }

  private record(entry: DeliveryAttempt): void {
    this.log.push(entry);
    if (this.log.length > MAX_LOG + 1000) this.log.splice(0, this.log.length - MAX_LOG);
  }
}
