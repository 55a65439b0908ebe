// `rcsctl controller`: a long-running, level-triggered driver over src/plan and
// src/apply, as the CLI is. A notification, a manifest change or the resync
// timer only marks a brand dirty; its pass re-reads and re-plans the whole
// brand. In observe mode a pass plans and reports drift; in apply mode it runs
// the same apply as `rcsctl apply` (applyBrand: the same gates, per-brand
// lock, verification and interference check). Nothing is stored: a restart
// resyncs every brand.
//
// A Controller is its parts, each doing one thing: the brand book (every
// brand's status), the desired state (the manifests, watched), the passes
// (one brand's plan or apply), the dirty queue (which brand runs next), the
// notification router (the webhook's hints) and the HTTP face. This file wires
// them, starts them in order and stops them in reverse.

import { PERSON_ENV } from '../api/brands.js';
import { setMaxListeners } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import type { RcsClient } from '../api/index.js';
import { lockUrlSecrets } from '../apply/lock-backend.js';
import { lockDir as defaultLockDir } from '../apply/lock.js';
import { RcsctlError } from '../errors.js';
import { LiveCache } from '../kinds/live-cache.js';
import type { Credential } from '../manifest/sensitive.js';
import { shardLabel, type Shard } from '../plan/shard.js';
import { Redaction } from '../util/redaction.js';
import { BrandBook } from './brand-book.js';
import { BrandControls } from './brand-controls.js';
import type { SuspendDecl } from './config.js';
import { BrandPasses } from './brand-pass.js';
import { DesiredState } from './desired-state.js';
import { DEFAULT_MAX_BODY_BYTES, makeServer, type ControlAction } from './http.js';
import { DEFAULT_STALL_TIMEOUT_MS, WorkLoopWatch } from './liveness.js';
import { makeLog, type Log, type LogFormat } from './log.js';
import { ControllerMetrics } from './metrics.js';
import { NotificationRouter } from './notification-router.js';
import type { Notification } from './notifications.js';
import { makeForwarder, peerUrls, type Forwarder } from './peers.js';
import { Leadership } from './leader.js';
import { forwardToLeader, STANDBY_VIA } from './leader-forward.js';
import type { Trigger } from './history.js';
import { DirtyQueue } from './queue.js';
import { renderBrandPage } from './brand-page.js';
import type { PagePart } from './http.js';
import type { ControllerViews } from './views.js';
import { DEFAULT_RETRY_BACKOFF, RetrySchedule, type RetryBackoff } from './retry-schedule.js';
import { ServiceCondition } from './service-condition.js';
import { asSeenBy, type ControllerStatus } from './status.js';
import { SyncWindows, type SyncWindow } from './sync-windows.js';
import { NotifyOut, type Destination, type NotifyRetry } from './notify-out.js';
import { invalidateCatalogues } from '../kinds/service-catalogue.js';

const DAY_MS = 86_400_000;

/** After the shutdown timeout aborts the requests, how long the passes may take to unwind (*chosen*: aborted requests fail at once). */
const UNWIND_MS = 500;

/** True when `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** How to run a controller; only `paths`, `client`, `baseUrl` and `webhookToken` are required. */
export interface ControllerOptions {
  /** Manifest files or directories (watched for changes). */
  paths: string[];
  client: RcsClient;
  /** The service's base URL: names the lock files (shared with `rcsctl apply`) and the live cache. */
  baseUrl: string;
  /** The bearer token /webhook requires. */
  webhookToken: string;
  /** `${env:NAME}` values and RCSCTL_LOCK_DIR (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Where relative paths start (default: process.cwd()). */
  cwd?: string;
  /** Where to listen (default 127.0.0.1, port 9464; port 0 picks a free one). */
  host?: string;
  port?: number;
  /** `observe` (default): plan and report; `apply`: also apply, as `rcsctl apply` does. */
  mode?: 'observe' | 'apply';
  allowReview?: boolean;
  allowDelete?: boolean;
  shard?: Shard;
  /** With `shard`: the webhook URL of each shard's replica, `{shard}` its 1-based index; a notification for another shard's brand is forwarded there. */
  shardPeers?: string;
  /** How long one forward may take (default 2 s). */
  forwardTimeoutMs?: number;
  /** Requests in flight, and brands reconciled at once (default 8). */
  concurrency?: number;
  /** Full resync of every brand this often (default 10 minutes). */
  intervalMs?: number;
  /** /healthz fails when work is due and no pass has ended for this long (default 15 minutes). */
  stallTimeoutMs?: number;
  /** How long a shutdown waits for the passes in flight (default 30 s). */
  shutdownTimeoutMs?: number;
  /** A review waiting longer than this counts in rcsctl_reviews_waiting_late (default 14 days). */
  reviewWarningMs?: number;
  /** CIDRs that may post to /webhook (default: any). */
  allowFrom?: string[];
  maxBodyBytes?: number;
  /** Log lines go here (default: process.stdout), as JSON (default) or text. */
  logOut?: Writable;
  logFormat?: LogFormat;
  /** Credentials in play: refused in manifest content, and hidden in every log line. */
  credentials?: Credential[];
  /** More values never to log. */
  secrets?: string[];
  /** The plan and preview renderers of the brand pages (src/render/controller-views.ts; the CLI and the library entry give them); absent: the pages list the steps and draw no preview. */
  views?: ControllerViews;
  /** Passes kept in each brand's history (default 20; quiet repeats fold into one entry). */
  historySize?: number;
  /** The cache directory (live cache and parsed manifests); absent: no cache. */
  cacheDir?: string;
  /** The folder manifests' `path:` files must stay in (--root); absent: each manifest's repository. */
  root?: string;
  /** The run's redaction (the CLI's): the controller adds the secrets it learns, and the live cache seals by it. */
  redaction?: Redaction;
  /** The lock directory (default: RCSCTL_LOCK_DIR or <tmpdir>/rcsctl-locks). */
  lockDir?: string;
  /** How soon a brand whose lock another run holds is tried again (default 2 s). */
  lockRetryMs?: number;
  /** Quiet time after a manifest change before re-reading (default 300 ms). */
  watchDebounceMs?: number;
  /**
   * A postgres:// lock URL (leader.ts): the brand locks are taken there, shared
   * with every `rcsctl apply --lock-url` of the same URL, and the replicas of a
   * shard elect a leader there; the others stand by.
   */
  lockUrl?: string;
  /** With `lockUrl`: this replica's webhook URL, recorded with its lease so that standbys forward to it (default: the listening address's /webhook). */
  advertiseUrl?: string;
  /** With `lockUrl`: how often a standby tries the lease (default 3 s). */
  leasePollMs?: number;
  /** A failed brand's retries: the first within `baseMs` (default 5 s), doubling up to `maxMs` (default 5 minutes). */
  retryBackoff?: Partial<RetryBackoff>;
  /** How the client authenticates, for the advice when the service refuses it (a static token cannot be renewed). */
  credentialsKind?: 'static-token' | 'client-credentials';
  /** The bearer token of the control API (POST /brands/{id}/sync, /suspend, /resume); absent: the API is off. Never the webhook's. */
  apiToken?: string;
  /** Brands the configuration file suspends (observed, never applied; again after every restart). */
  suspend?: SuspendDecl[];
  /** Allow and deny windows for apply mode. */
  syncWindows?: SyncWindow[];
  /** The controller's clock (default: the system's): the sync windows and a review's age read it; tests move it. */
  now?: () => Date;
  /** How often a brand a window held is checked for its window's end (default 30 s). */
  windowTickMs?: number;
  /** Where state changes are sent (Slack-compatible and generic JSON webhooks). */
  notifications?: Destination[];
  /** How failed messages are tried again (default: 5 attempts over about 30 s). */
  notifyRetry?: Partial<NotifyRetry>;
}

/** A running controller. */
export interface RunningController {
  /** `http://host:port` it listens on. */
  url: string;
  /** The status, as GET /status gives it. */
  status(): ControllerStatus;
  /** Stop taking work, let the passes in flight finish (bounded by the shutdown timeout), release locks, stop listening. */
  close(): Promise<void>;
}

/** Start a controller: load the manifests, listen, resync every brand, and keep them converged until `close()`. */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  if (options.webhookToken.trim().length < 8) throw new RcsctlError('E_CONFIG', 'the webhook token must be at least 8 characters');
  if (options.apiToken !== undefined && options.apiToken.trim().length < 16) throw new RcsctlError('E_CONFIG', 'the control API token must be at least 16 characters');
  if (options.apiToken !== undefined && options.apiToken.trim() === options.webhookToken.trim()) throw new RcsctlError('E_CONFIG', 'the control API token must differ from the webhook token: whoever can post notifications must not be able to suspend or sync brands');
  const controller = new Controller(options);
  await controller.start();
  return controller;
}

/** A controller's parts, wired; `start()` brings it up and `close()` down. */
class Controller implements RunningController {
  url = '';
  private readonly mode: 'observe' | 'apply';
  private readonly redaction: Redaction;
  private readonly log: Log;
  private readonly metrics = new ControllerMetrics();
  private readonly cache: LiveCache | undefined;
  /** Aborted when the shutdown begins: no pass or step starts. */
  private readonly shutdown = new AbortController();
  /** Aborted when the shutdown timeout is reached: every request in flight stops. */
  private readonly hardStop = new AbortController();
  private readonly startedAt = new Date().toISOString();
  private readonly book: BrandBook;
  private readonly desired: DesiredState;
  private readonly passes: BrandPasses;
  private readonly service: ServiceCondition;
  private readonly retries: RetrySchedule;
  private readonly queue: DirtyQueue;
  private readonly forwarder: Forwarder | undefined;
  private readonly router: NotificationRouter;
  private readonly controls: BrandControls;
  private readonly notify: NotifyOut;
  private windowTick: NodeJS.Timeout | undefined;
  private readonly workLoop: WorkLoopWatch;
  private readonly unwatchClient: () => void;
  private server: Server | undefined;
  /** Leader, standby or sole (leader.ts); made once the listening address is known. */
  leadership: Leadership | undefined;
  /** A standby's forwards to its leader in flight. */
  private readonly toLeader = new Set<Promise<void>>();
  private interval: NodeJS.Timeout | undefined;
  private lastResyncAt: string | undefined;
  private manifestsLoaded = false;
  /** Why each marked brand's next pass runs: the marks since its last pass began. */
  private readonly triggers = new Map<string, Trigger[]>();
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ControllerOptions) {
    const env = options.env ?? process.env;
    this.mode = options.mode ?? 'observe';
    const concurrency = options.concurrency ?? 8;
    const peers = options.shardPeers !== undefined ? peerUrls(options.shardPeers, options.shard) : undefined;
    // The one redaction (src/util/redaction.ts): the log, every body served and the live cache's seals.
    this.redaction = options.redaction ?? new Redaction();
    this.redaction.add([
      ...(options.credentials ?? []).map((c) => ({ name: c.label, value: c.value })),
      { name: 'RCSCTL_WEBHOOK_TOKEN', value: options.webhookToken },
      ...(options.apiToken !== undefined ? [{ name: 'RCSCTL_CONTROLLER_TOKEN', value: options.apiToken }] : []),
      ...(options.secrets ?? []).map((value) => ({ name: 'a secret', value })),
      // The lock URL carries the database password.
      ...(options.lockUrl !== undefined ? lockUrlSecrets(options.lockUrl) : []),
    ]);
    this.log = makeLog(options.logOut ?? process.stdout, options.logFormat ?? 'json', this.redaction);
    this.cache = options.cacheDir !== undefined ? new LiveCache(options.cacheDir, options.baseUrl, this.redaction) : undefined;
    const { log, metrics } = this;
    // Every request of every pass listens to these (as many as --concurrency allows): not a leak.
    setMaxListeners(0, this.shutdown.signal, this.hardStop.signal);
    const markDirty = (brandId: string, trigger: Trigger): void => this.markDirty(brandId, trigger);
    this.book = new BrandBook(log, metrics, options.historySize);
    this.controls = new BrandControls(options.suspend ?? [], new SyncWindows(options.syncWindows ?? []), options.now ?? (() => new Date()), this.startedAt);
    this.notify = new NotifyOut(options.notifications ?? [], { log, metrics, redact: (text) => this.redaction.text(text), controller: () => this.url, ...(options.notifyRetry !== undefined ? { retry: options.notifyRetry } : {}) });
    this.book.onSettle((id, c, detail) => this.notify.settled(id, c, detail));
    metrics.watchControls(() => this.controls.counts(this.desired.current.brands.keys()), () => this.controls.openWindows());
    this.queue = new DirtyQueue(concurrency, (brandId) => this.pass(brandId).finally(() => this.workLoop.passEnded()));
    this.workLoop = new WorkLoopWatch(options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS, () => this.queue.depth > 0 || this.queue.active.size > 0);
    // rcsctl_shard_leader reads the election's view at each scrape.
    metrics.watchLeadership(() => this.leadership?.view());
    this.unwatchClient = metrics.watchClient(options.client);
    metrics.resyncInterval(options.intervalMs ?? 600_000);
    metrics.watchReadiness(() => this.readiness().ready);
    this.service = new ServiceCondition(options.credentialsKind, log, metrics);
    this.retries = new RetrySchedule({ ...DEFAULT_RETRY_BACKOFF, ...options.retryBackoff }, (brandId) => {
      this.log('info', 'brand.retry', { brand: brandId });
      markDirty(brandId, { kind: 'retry' });
    });
    this.desired = new DesiredState(
      {
        paths: options.paths,
        env,
        cwd: options.cwd ?? process.cwd(),
        ...(options.shard !== undefined ? { shard: options.shard } : {}),
        ...(options.credentials !== undefined ? { credentials: options.credentials } : {}),
        ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
        ...(options.root !== undefined ? { root: options.root } : {}),
        watchDebounceMs: options.watchDebounceMs ?? 300,
      },
      { book: this.book, log, redaction: this.redaction, forget: (id) => this.forget(id), markDirty: (id) => markDirty(id, { kind: 'manifests' }) },
    );
    this.passes = new BrandPasses(
      {
        mode: this.mode,
        concurrency,
        reviewWarningMs: options.reviewWarningMs ?? 14 * DAY_MS,
        allowReview: options.allowReview === true,
        allowDelete: options.allowDelete === true,
        lockDir: options.lockDir ?? defaultLockDir(env),
        baseUrl: options.baseUrl,
        lockRetryMs: options.lockRetryMs ?? 2000,
        ...(env[PERSON_ENV] !== undefined && env[PERSON_ENV] !== '' ? { account: env[PERSON_ENV] } : {}),
        ...(options.shard !== undefined ? { shard: shardLabel(options.shard) } : {}),
        ...(options.lockUrl !== undefined ? { lockBackend: () => this.leadership?.lockBackend, leaseSignal: () => this.leadership!.signal } : {}),
      },
      { client: options.client, book: this.book, log, metrics, gate: (id) => this.controls.gate(id), applied: (id, steps) => this.notify.applied(id, steps), signal: this.shutdown.signal, requests: this.hardStop.signal, markDirty, service: this.service, retries: this.retries, now: options.now ?? (() => new Date()), policies: () => ({ rules: this.desired.current.policies, docs: this.desired.current.docs }), ...(this.cache !== undefined ? { cache: this.cache } : {}) },
    );
    this.forwarder = peers !== undefined && options.shard !== undefined ? makeForwarder(peers, options.shard, options.webhookToken, log, metrics, options.forwardTimeoutMs) : undefined;
    this.router = new NotificationRouter({
      log,
      metrics,
      ...(options.shard !== undefined ? { shard: options.shard } : {}),
      ...(this.forwarder !== undefined ? { forwarder: this.forwarder } : {}),
      brands: () => this.desired.current.brands.keys(),
      has: (id) => this.desired.current.brands.has(id),
      markDirty,
      invalidate: (topic) => invalidateCatalogues(options.client, topic),
    });
  }

  /** Read the manifests (none in the shard: E_NO_BRAND), listen, watch, and resync every brand. */
  async start(): Promise<void> {
    const { options, log } = this;
    await this.desired.reload();
    this.manifestsLoaded = true;
    const desired = this.desired.current;
    if (this.book.size === 0) {
      const why = desired.orphanErrors.length > 0 ? `:\n  ${desired.orphanErrors.slice(0, 5).join('\n  ')}` : '';
      throw new RcsctlError('E_NO_BRAND', `the manifests in ${options.paths.join(', ')} declare no brand${options.shard !== undefined ? ` in shard ${shardLabel(options.shard)}` : ''}${why}`);
    }
    this.url = await this.listen();
    const leadership = new Leadership({
      baseUrl: options.baseUrl,
      // Listening on every address (0.0.0.0, ::): the host name stands for it.
      advertiseUrl: options.advertiseUrl ?? `${this.url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, `http://${hostname()}`)}/webhook`,
      log,
      onLead: () => this.resyncAll(),
      ...(options.lockUrl !== undefined ? { lockUrl: options.lockUrl } : {}),
      ...(options.shard !== undefined ? { shard: shardLabel(options.shard) } : {}),
      ...(options.leasePollMs !== undefined ? { pollMs: options.leasePollMs } : {}),
    });
    this.leadership = leadership;
    log('info', 'started', { url: this.url, mode: this.mode, brands: desired.brands.size, failed: desired.broken.size, ...(options.shard !== undefined ? { shard: shardLabel(options.shard) } : {}) });
    this.desired.watch();
    // A leader resyncs as it comes to lead (onLead); a standby sends nothing until then.
    await leadership.start();
    if (leadership.view().state === 'sole') this.resyncAll();
    this.interval = setInterval(() => void this.periodicResync(), options.intervalMs ?? 600_000);
    this.windowTick = setInterval(() => this.windowsLifted(), options.windowTickMs ?? 30_000);
  }

  /** Brands a sync window held whose window has lifted: their pass, at once. */
  private windowsLifted(): void {
    for (const id of this.controls.lifted()) {
      this.log('info', 'window.lifted', { brand: id });
      this.markDirty(id, { kind: 'window' });
    }
  }

  /** A control request (already authenticated): sync now, suspend or resume one brand. */
  private control(action: ControlAction, brandId: string, reason: string | undefined): { status: number; body: unknown } {
    if (!this.book.has(brandId)) return { status: 404, body: { error: 'no such brand here' } };
    const { controls, log } = this;
    if (action === 'sync') {
      const answer = controls.requestSync(brandId, this.mode === 'apply');
      log('info', 'brand.sync', { brand: brandId, ...answer });
      if (!answer.accepted) return { status: 409, body: { brand: brandId, ...answer } };
      this.markDirty(brandId, { kind: 'manual' }, true);
      return { status: 202, body: { brand: brandId, ...answer } };
    }
    if (action === 'suspend') {
      const changed = controls.suspend(brandId, reason);
      if (changed) log('info', 'brand.suspended', { brand: brandId, by: 'api', ...(reason !== undefined ? { reason } : {}) });
      return { status: 200, body: { brand: brandId, changed, suspended: controls.suspension(brandId) } };
    }
    const changed = controls.resume(brandId);
    if (changed) {
      log('info', 'brand.resumed', { brand: brandId, by: 'api' });
      // What the suspension kept back goes out now.
      this.markDirty(brandId, { kind: 'resumed' });
    }
    return { status: 200, body: { brand: brandId, changed, suspended: false } };
  }

  /** The status, as GET /status gives it. */
  status(): ControllerStatus {
    return {
      mode: this.mode,
      ...(this.options.shard !== undefined ? { shard: shardLabel(this.options.shard) } : {}),
      ready: this.readiness().ready,
      startedAt: this.startedAt,
      ...(this.lastResyncAt !== undefined ? { lastResyncAt: this.lastResyncAt } : {}),
      queueDepth: this.queue.depth,
      ...(this.leadership !== undefined ? { leadership: this.leadership.view() } : {}),
      service: this.service.toJSON(),
      brands: this.book.list().map((b) => asSeenBy({ ...b, ...this.controls.view(b.brandId) }, this.leadership?.view())),
    };
  }

  /** Stop taking work, let the passes in flight finish (bounded by the shutdown timeout), release locks, stop listening. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  /** Whether this replica can take webhooks; what the service answers and how each brand fares never enter into it. */
  private readiness(): { ready: boolean; reasons: string[] } {
    const reasons = [
      ...(this.server?.listening === true ? [] : ['not listening yet']),
      ...(this.manifestsLoaded ? [] : ['the manifests are not loaded yet']),
      ...(this.leadership?.view().known === true ? [] : ['its place as leader or standby of its shard is not known yet']),
      ...(this.shutdown.signal.aborted ? ['shutting down'] : []),
    ];
    return { ready: reasons.length === 0, reasons };
  }

  /** A brand left the manifests: no pass, no retry. */
  private forget(brandId: string): void {
    this.queue.forget(brandId);
    this.triggers.delete(brandId);
    this.retries.reset(brandId);
    this.controls.forget(brandId);
    this.notify.forget(brandId);
  }

  /** Ask for a pass of the brand, for `trigger`; `now`: without the queue's quiet time (sync now). */
  private markDirty(brandId: string, trigger: Trigger, now = false): void {
    const marks = this.triggers.get(brandId) ?? [];
    // A burst of marks is one pass: its first few reasons are enough to say why.
    if (marks.length < 50) marks.push(trigger);
    this.triggers.set(brandId, marks);
    this.workLoop.queued();
    if (now) this.queue.now(brandId);
    else this.queue.mark(brandId);
    this.metrics.queueDepth(this.queue.depth);
  }

  /** The queue's worker: one pass of a brand still in the manifests. */
  private async pass(brandId: string): Promise<void> {
    this.metrics.queueDepth(this.queue.depth);
    const want = this.desired.current.brands.get(brandId);
    // The marks that came since the pass was queued; the ones arriving while it runs belong to the next.
    const triggers = this.triggers.get(brandId) ?? [];
    this.triggers.delete(brandId);
    const revision = this.desired.revisionOf(brandId);
    // A standby sends nothing: the leader runs the brand, and this replica resyncs every brand when it comes to lead.
    if (want !== undefined && this.leadership?.isLeading === true) await this.passes.run(brandId, want, { triggers, ...(revision !== undefined ? { revision } : {}) });
    this.metrics.queueDepth(this.queue.depth);
    this.metrics.retries(this.retries.size);
  }

  private resyncAll(): void {
    this.lastResyncAt = new Date().toISOString();
    this.metrics.resync();
    this.log('info', 'resync', { brands: this.desired.current.brands.size });
    for (const id of this.desired.current.brands.keys()) this.markDirty(id, { kind: 'resync' });
  }

  /** Every --interval: the manifests again, then every brand. */
  private async periodicResync(): Promise<void> {
    await this.desired.refresh();
    if (!this.shutdown.signal.aborted && this.leadership?.isLeading === true) this.resyncAll();
  }

  /** Route a webhook's notifications; a standby also passes them to its leader (never one a standby passed on: no loop). */
  private notified(list: Notification[], forwarded: boolean, via: string | undefined): void {
    this.router.notified(list, forwarded);
    const leaderUrl = this.leadership?.leaderUrl;
    if (leaderUrl === undefined || via === STANDBY_VIA) return;
    const mine = list.filter((n) => n.brandId === undefined || this.desired.current.brands.has(n.brandId));
    if (mine.length === 0) return;
    const p: Promise<void> = forwardToLeader(leaderUrl, mine, { token: this.options.webhookToken, log: this.log }).finally(() => this.toLeader.delete(p));
    this.toLeader.add(p);
  }

  /** A brand's page, or one of its previews (views.ts draws those); undefined when the brand is not served here. */
  private brandPage(brandId: string, part: PagePart | undefined): string | undefined {
    const view = this.book.view(brandId);
    if (view === undefined) return undefined;
    const { views } = this.options;
    const desired = this.desired.current.brands.get(brandId);
    const plan = this.book.plan(brandId);
    if (part === 'preview') return views !== undefined && desired !== undefined ? views.brand(desired) : undefined;
    if (part === 'changes') return views !== undefined && plan !== undefined ? views.changes(plan, desired) : undefined;
    return renderBrandPage({ view: { ...view, ...asSeenBy(view, this.leadership?.view()) }, ...(plan !== undefined ? { plan } : {}), ...(views !== undefined ? { views } : {}), declared: desired !== undefined });
  }

  /** Serve the HTTP face; its URL. */
  private async listen(): Promise<string> {
    const { options } = this;
    const server = makeServer(
      {
        status: () => this.status(),
        brand: (id) => {
          const b = this.book.view(id);
          return b !== undefined ? { ...b, ...asSeenBy({ ...b, ...this.controls.view(id) }, this.leadership?.view()) } : undefined;
        },
        brandPage: (id, part) => this.brandPage(id, part),
        readiness: () => this.readiness(),
        liveness: () => this.workLoop.report(),
        notified: (list, forwarded, via) => this.notified(list, forwarded, via),
        control: (action, brandId, reason) => this.control(action, brandId, reason),
      },
      { token: options.webhookToken, ...(options.apiToken !== undefined ? { apiToken: options.apiToken } : {}), allowFrom: options.allowFrom ?? [], maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES },
      this.metrics,
      this.log,
      (text) => this.redaction.text(text),
    );
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 9464, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    return `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  }

  /**
   * Stop within the shutdown timeout: no new pass or step; the passes in flight
   * get the timeout to finish; then their requests are aborted (their steps
   * reported as interrupted: the next pass converges), they unwind and release
   * their locks, and the server closes.
   */
  private async stop(): Promise<void> {
    const { log, queue } = this;
    const started = Date.now();
    const timeoutMs = this.options.shutdownTimeoutMs ?? 30_000;
    log('info', 'stopping', { running: queue.active.size });
    clearInterval(this.interval);
    clearInterval(this.windowTick);
    this.passes.stop();
    this.retries.stop();
    this.desired.close();
    queue.stop();
    this.shutdown.abort('shutdown');
    if (!(await within(queue.idle(), timeoutMs))) {
      log('warn', 'stopping.timeout', { running: [...queue.active], timeoutMs });
      this.hardStop.abort('shutdown timeout');
      // Aborted requests fail at once; the passes unwind (releasing their locks) in well under this.
      if (!(await within(queue.idle(), UNWIND_MS))) log('warn', 'stopping.unwind', { running: [...queue.active] });
    }
    const left = Math.max(0, timeoutMs - (Date.now() - started));
    if (this.forwarder !== undefined) await within(this.forwarder.close(), left);
    await within(Promise.all([...this.toLeader]), Math.max(0, timeoutMs - (Date.now() - started)));
    // Messages in flight get what is left of the bound; their retries stop.
    await this.notify.close(Math.max(0, timeoutMs - (Date.now() - started)));
    // The lease, and with it every brand lock, ends with the connection.
    await this.leadership?.close();
    this.unwatchClient();
    this.cache?.save();
    const server = this.server;
    if (server !== undefined) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    log('info', 'stopped', { ms: Date.now() - started });
  }
}
