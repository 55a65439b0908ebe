// Notifications out: messages about brands' state changes sent to
// Slack-compatible incoming webhooks and generic JSON webhooks, as Argo CD
// Notifications and Flux's notification-controller send them. (Not to be
// confused with notifications.ts: the service's change notifications coming in.)
//
// One message per transition, not per pass: each brand's last settled state,
// and the resources waiting for review, rejected and late, are remembered, and
// a pass that finds the same sends nothing. The first pass after a start sets
// that baseline and sends nothing (a restart does not repeat old news). Each
// message goes to the destinations whose triggers and brands match, through
// the run's redaction, retried with backoff when the receiver fails.

import { request } from 'undici';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import { brandMatches } from './sync-windows.js';
import type { BrandState, Classified } from './state.js';

/** What a destination can be told about, one message per transition. */
export const NOTIFY_TRIGGERS = ['drifted', 'failed', 'recovered', 'review-completed', 'review-rejected', 'step-applied', 'review-late'] as const;

/** One of NOTIFY_TRIGGERS. */
export type NotifyTrigger = (typeof NOTIFY_TRIGGERS)[number];

/** The placeholders a destination's message may use. */
export const MESSAGE_FIELDS = ['brand', 'event', 'from', 'to', 'reason', 'time', 'controller'] as const;

/** The text of a message when the destination gives none. */
export const DEFAULT_MESSAGE = '[rcsctl] {{brand}}: {{event}} ({{from}} → {{to}}): {{reason}}';

/** A destination, read from the configuration file. */
export interface Destination {
  name: string;
  type: 'slack' | 'webhook';
  url: string;
  headers: Record<string, string>;
  triggers: ReadonlySet<NotifyTrigger>;
  /** Brand ids, `*` a wildcard. */
  brands: string[];
  /** The message's text, with `{{field}}` placeholders (MESSAGE_FIELDS). */
  message?: string;
}

/** One transition of one brand. */
export interface NotifyEvent {
  event: NotifyTrigger;
  brand: string;
  from: string;
  to: string;
  /** One line: why. */
  reason: string;
  time: string;
  /** The addresses it concerns (the steps applied, the resources reviewed). */
  details: string[];
}

/** How failed deliveries are tried again: `attempts` in all, waiting `baseMs` doubling up to `maxMs` (with jitter). */
export interface NotifyRetry {
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** One attempt's bound. */
  timeoutMs: number;
}

/** Five attempts over about half a minute (*chosen*: a receiver's blip passes; an outage is logged and counted, not queued forever). */
export const DEFAULT_NOTIFY_RETRY: NotifyRetry = { attempts: 5, baseMs: 1000, maxMs: 16_000, timeoutMs: 10_000 };

/** A finding as the brand book keeps it (brand-pass.ts `detail.findings`). */
interface KeptFinding {
  address: string;
  severity: string;
  message: string;
  ageDays?: number;
  approvalReason?: string | null;
}

/** What the last pass of a brand found, to compare the next one with. */
interface Seen {
  state: BrandState;
  waiting: Set<string>;
  rejected: Set<string>;
  late: Set<string>;
}

/** What sending needs from the controller. */
export interface NotifyDeps {
  log: Log;
  metrics: ControllerMetrics;
  /** The run's redaction: every body goes through it. */
  redact: (text: string) => string;
  /** Names the controller in messages (its URL). */
  controller: () => string;
  retry?: Partial<NotifyRetry>;
}

/** Turns brands' passes into messages, and sends them. */
export class NotifyOut {
  private readonly seen = new Map<string, Seen>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly retry: NotifyRetry;
  private readonly stopping = new AbortController();

  constructor(
    private readonly destinations: readonly Destination[],
    private readonly deps: NotifyDeps,
  ) {
    this.retry = { ...DEFAULT_NOTIFY_RETRY, ...deps.retry };
    for (const d of destinations) for (const r of ['sent', 'failed'] as const) deps.metrics.notifyOut(d.name, r, 0);
  }

  /** A brand's state was settled (a pass, or its manifests broke): the transitions since the last one. */
  settled(brandId: string, c: Classified, detail: Record<string, unknown> | undefined): void {
    if (this.destinations.length === 0) return;
    const findings = (detail?.findings as KeptFinding[] | undefined) ?? [];
    const waitingNow = findings.filter((f) => f.ageDays !== undefined && f.severity !== 'error');
    const rejectedNow = findings.filter((f) => f.approvalReason !== undefined && f.severity === 'error');
    const next: Seen = {
      state: c.state,
      waiting: new Set(waitingNow.map((f) => f.address)),
      rejected: new Set(rejectedNow.map((f) => f.address)),
      late: new Set(waitingNow.filter((f) => f.severity === 'warning').map((f) => f.address)),
    };
    const before = this.seen.get(brandId);
    this.seen.set(brandId, next);
    // The first verdict after a start is the baseline: nothing is news yet.
    if (before === undefined) return;
    const time = new Date().toISOString();
    const base = { brand: brandId, from: before.state, to: c.state, time };
    const events: NotifyEvent[] = [];
    if (before.state !== c.state) {
      const reason = c.reasons.slice(0, 3).join('; ') || c.state;
      if (c.state === 'drifted') events.push({ ...base, event: 'drifted', reason, details: [] });
      else if (c.state === 'failed') events.push({ ...base, event: 'failed', reason, details: [] });
      else if ((c.state === 'in-sync' || c.state === 'waiting-review') && ['drifted', 'failed', 'blocked'].includes(before.state)) events.push({ ...base, event: 'recovered', reason: `now ${c.state}`, details: [] });
    }
    for (const f of rejectedNow) if (!before.rejected.has(f.address)) events.push({ ...base, event: 'review-rejected', reason: f.message, details: [f.address] });
    for (const f of waitingNow) if (next.late.has(f.address) && !before.late.has(f.address)) events.push({ ...base, event: 'review-late', reason: f.message, details: [f.address] });
    for (const address of before.waiting) {
      if (!next.waiting.has(address) && !next.rejected.has(address)) events.push({ ...base, event: 'review-completed', reason: `${address}: the review ended`, details: [address] });
    }
    for (const e of events) this.send(e);
  }

  /** An apply pass sent steps (each `address op`). */
  applied(brandId: string, steps: string[]): void {
    if (this.destinations.length === 0 || steps.length === 0) return;
    const state = this.seen.get(brandId)?.state ?? 'reconciling';
    const shown = steps.slice(0, 10).join(', ') + (steps.length > 10 ? `, and ${steps.length - 10} more` : '');
    this.send({ event: 'step-applied', brand: brandId, from: state, to: state, reason: `${steps.length} step${steps.length === 1 ? '' : 's'} applied: ${shown}`, time: new Date().toISOString(), details: steps });
  }

  /** A brand left the manifests. */
  forget(brandId: string): void {
    this.seen.delete(brandId);
  }

  /** Stop retrying; wait at most `ms` for the deliveries in flight. */
  async close(ms: number): Promise<void> {
    this.stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.inFlight]), new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  private send(e: NotifyEvent): void {
    for (const d of this.destinations) {
      if (!d.triggers.has(e.event) || !brandMatches(d.brands, e.brand)) continue;
      const p: Promise<void> = this.deliver(d, e).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** One message to one destination, tried `attempts` times. */
  private async deliver(d: Destination, e: NotifyEvent): Promise<void> {
    const { log, metrics, redact } = this.deps;
    const text = render(d.message ?? DEFAULT_MESSAGE, { ...e, controller: this.deps.controller() });
    const payload = d.type === 'slack' ? { text } : { ...e, text, controller: this.deps.controller() };
    // Every byte sent goes through the run's redaction, as every log line and file does.
    const body = redact(JSON.stringify(payload));
    let last = '';
    for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
      if (attempt > 1) {
        const cap = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempt - 2));
        if (!(await sleep(cap / 2 + Math.random() * (cap / 2), this.stopping.signal))) break;
      }
      try {
        const res = await request(d.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...d.headers },
          body,
          headersTimeout: this.retry.timeoutMs,
          bodyTimeout: this.retry.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode >= 200 && res.statusCode < 300) {
          metrics.notifyOut(d.name, 'sent', 1);
          log('info', 'notify.sent', { destination: d.name, brand: e.brand, trigger: e.event, attempts: attempt });
          return;
        }
        last = `HTTP ${res.statusCode}`;
        // A refusal that trying again cannot change (a wrong URL, a revoked webhook).
        if (res.statusCode < 500 && res.statusCode !== 429 && res.statusCode !== 408) break;
      } catch (err) {
        last = (err as { code?: string }).code ?? (err as Error).message;
      }
    }
    metrics.notifyOut(d.name, 'failed', 1);
    log('warn', 'notify.failed', { destination: d.name, brand: e.brand, trigger: e.event, error: last });
  }
}

/** The message `text` with each `{{field}}` filled in. */
export function render(text: string, values: Omit<NotifyEvent, 'details'> & { controller: string }): string {
  return text.replace(/\{\{\s*([a-z]+)\s*\}\}/g, (_m, key: string) => String((values as unknown as Record<string, unknown>)[key] ?? ''));
}

/** The placeholders of `text` that are not MESSAGE_FIELDS. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1] ?? '').filter((k) => !(MESSAGE_FIELDS as readonly string[]).includes(k));
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
