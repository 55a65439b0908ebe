// `rcsctl controller`: a long-running, level-triggered driver over src/plan and
// src/apply, as the CLI is. A notification, a manifest change or the resync
// timer only marks a brand dirty; its pass re-reads and re-plans the whole
// brand. In observe mode a pass plans and reports drift; in apply mode it runs
// the same apply as `rcsctl apply` (applyBrand: the same gates, per-brand
// lock, verification and interference check). Nothing is stored: a restart
// resyncs every brand.

import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import type { RcsClient } from '../api/index.js';
import { createRedactor } from '../api/redact.js';
import { applyBrand } from '../apply/apply-run.js';
import { lockDir as defaultLockDir, readHolder, lockPath } from '../apply/lock.js';
import { errorMessage, RcsctlError } from '../errors.js';
import { LiveCache } from '../kinds/live-cache.js';
import type { Credential } from '../manifest/sensitive.js';
import type { DesiredBrand } from '../manifest/types.js';
import { planEachBrand, type BrandOutcome } from '../plan/plan-brands.js';
import { inShard, shardLabel, type Shard } from '../plan/shard.js';
import { buildDrift } from '../report/build-drift.js';
import { DEFAULT_MAX_BODY_BYTES, makeServer } from './http.js';
import { makeLog, type Log, type LogFormat } from './log.js';
import { loadDesired, watchPaths, type DesiredSet } from './manifests.js';
import { ControllerMetrics } from './metrics.js';
import type { Notification } from './notifications.js';
import { makeForwarder, peerUrls } from './peers.js';
import { DirtyQueue } from './queue.js';
import { classify, type BrandState, type Classified } from './state.js';
import type { BrandStatus, ControllerStatus } from './status.js';
import { Redaction } from '../util/redaction.js';

const DAY_MS = 86_400_000;

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
  /** The cache directory (live cache and parsed manifests); absent: no cache. */
  cacheDir?: string;
  /** The run's redaction (the CLI's): the controller adds the secrets it learns, and the live cache seals by it. */
  redaction?: Redaction;
  /** The lock directory (default: RCSCTL_LOCK_DIR or <tmpdir>/rcsctl-locks). */
  lockDir?: string;
  /** How soon a brand whose lock another run holds is tried again (default 2 s). */
  lockRetryMs?: number;
  /** Quiet time after a manifest change before re-reading (default 300 ms). */
  watchDebounceMs?: number;
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

interface BrandEntry {
  status: BrandStatus;
  /** The last pass's plan and findings, for /status/BRANDID. */
  detail?: Record<string, unknown>;
  /** The state before the pass now running. */
  settled: BrandState;
  lateReviews: number;
}

/** Start a controller: load the manifests, listen, resync every brand, and keep them converged until `close()`. */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const mode = options.mode ?? 'observe';
  const concurrency = options.concurrency ?? 8;
  const reviewWarningMs = options.reviewWarningMs ?? 14 * DAY_MS;
  const lockDir = options.lockDir ?? defaultLockDir(env);
  if (options.webhookToken.trim().length < 8) throw new RcsctlError('E_CONFIG', 'the webhook token must be at least 8 characters');

  const peers = options.shardPeers !== undefined ? peerUrls(options.shardPeers, options.shard) : undefined;

  const redactor = createRedactor();
  for (const s of [options.webhookToken, ...(options.secrets ?? []), ...(options.credentials ?? []).map((c) => c.value)]) redactor.add(s);
  const log: Log = makeLog(options.logOut ?? process.stdout, options.logFormat ?? 'json', redactor);
  const metrics = new ControllerMetrics();
  // The one redaction (src/util/redaction.ts): the live cache seals what it knows; the log stream, when it is the CLI's, redacts by it too.
  const redaction = options.redaction ?? new Redaction();
  redaction.add([...(options.credentials ?? []).map((c) => ({ name: c.label, value: c.value })), { name: 'RCSCTL_WEBHOOK_TOKEN', value: options.webhookToken }]);
  const cache = options.cacheDir !== undefined ? new LiveCache(options.cacheDir, options.baseUrl, redaction) : undefined;
  const brands = new Map<string, BrandEntry>();
  const shutdown = new AbortController();
  const startedAt = new Date().toISOString();
  let desired: DesiredSet = { brands: new Map(), broken: new Map(), orphanErrors: [], files: new Map(), sensitive: [] };
  let lastResyncAt: string | undefined;
  let firstPassStarted = false;
  let serviceDown = false;
  const lockRetries = new Set<NodeJS.Timeout>();
  const forwarder = peers !== undefined && options.shard !== undefined ? makeForwarder(peers, options.shard, options.webhookToken, log, metrics, options.forwardTimeoutMs) : undefined;
  if (forwarder !== undefined) for (const r of ['forwarded', 'failed', 'no-brand', 'already-forwarded'] as const) metrics.forward(r, 0);

  const queue = new DirtyQueue(concurrency, (brandId) => pass(brandId));
  const markDirty = (brandId: string): void => {
    queue.mark(brandId);
    metrics.queueDepth(queue.depth);
  };

  // Reloads run one at a time, so an older read never lands after a newer one.
  let reloading: Promise<void> = Promise.resolve();
  function reload(): Promise<void> {
    reloading = reloading.catch(() => undefined).then(readManifests);
    return reloading;
  }

  async function readManifests(): Promise<void> {
    const next = await loadDesired(options.paths, { env, cwd, ...(options.credentials !== undefined ? { credentials: options.credentials } : {}), ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}) }, options.shard, desired.files);
    for (const s of next.sensitive) redactor.add(s.value);
    redaction.add(next.sensitive);
    for (const e of next.orphanErrors) log('error', 'manifest.error', { message: e });
    for (const [brandId, message] of next.broken) log('error', 'manifest.error', { brand: brandId, message });
    desired = next;
    const ids = new Set([...next.brands.keys(), ...next.broken.keys()]);
    for (const id of [...brands.keys()]) {
      if (ids.has(id)) continue;
      brands.delete(id);
      queue.forget(id);
      metrics.forget(id);
      log('info', 'brand.removed', { brand: id });
    }
    for (const id of ids) {
      if (!brands.has(id)) brands.set(id, { status: { brandId: id, state: 'reconciling', pendingReasons: [], passes: 0 }, settled: 'reconciling', lateReviews: 0 });
      const broken = next.broken.get(id);
      if (broken !== undefined) settle(id, { state: 'failed', reasons: [broken], counts: emptyCounts() }, { code: 'E_MANIFEST', message: broken }, undefined);
    }
  }

  function settle(brandId: string, c: Classified, error: { code: string; message: string } | undefined, detail: Record<string, unknown> | undefined, tookMs?: number): void {
    const entry = brands.get(brandId);
    if (entry === undefined) return;
    const now = new Date().toISOString();
    const s = entry.status;
    if (entry.settled !== c.state) log(c.state === 'failed' ? 'error' : 'info', 'brand.state', { brand: brandId, from: entry.settled, to: c.state, reasons: c.reasons.slice(0, 20) });
    entry.settled = c.state;
    entry.lateReviews = c.counts.lateReviews;
    s.state = c.state;
    s.pendingReasons = c.reasons;
    s.counts = c.counts;
    s.lastPassAt = now;
    if (tookMs !== undefined) s.passes++;
    if (tookMs !== undefined) s.lastPassDurationMs = tookMs;
    s.lastPassOutcome = error !== undefined && c.state !== 'failed' ? 'error' : c.state;
    if (error !== undefined) s.lastError = { ...error, at: now };
    if (detail !== undefined) entry.detail = detail;
    metrics.setState(brandId, c.state, c.counts.lateReviews);
  }

  /** One pass of one brand: never throws. */
  async function pass(brandId: string): Promise<void> {
    metrics.queueDepth(queue.depth);
    const entry = brands.get(brandId);
    const want = desired.brands.get(brandId);
    if (entry === undefined || want === undefined || shutdown.signal.aborted) return;
    const started = performance.now();
    entry.status.state = 'reconciling';
    metrics.setState(brandId, 'reconciling', entry.lateReviews);
    let result = 'error';
    try {
      const c = mode === 'apply' ? await applyPass(brandId, want) : await observe(want);
      if (c === undefined) {
        // Waiting for another run's lock: the brand keeps its state until its turn.
        entry.status.state = entry.settled;
        metrics.setState(brandId, entry.settled, entry.lateReviews);
        result = 'locked';
        return;
      }
      serviceDown = c.error?.code === 'E_NETWORK';
      settle(brandId, c.classified, c.error, c.detail, Math.round(performance.now() - started));
      result = c.classified.state;
      log('info', 'pass', { brand: brandId, mode, state: c.classified.state, ms: Math.round(performance.now() - started), counts: c.classified.counts, ...(c.applied !== undefined ? { applied: c.applied } : {}) });
    } catch (err) {
      if (shutdown.signal.aborted) {
        // Stopped by the shutdown after its steps in flight: the next start resyncs it.
        entry.status.state = entry.settled;
        log('info', 'pass.stopped', { brand: brandId });
        return;
      }
      const message = errorMessage(err);
      const code = err instanceof RcsctlError ? err.code : 'E_INTERNAL';
      serviceDown = code === 'E_NETWORK';
      settle(brandId, { state: 'failed', reasons: [message], counts: emptyCounts() }, { code, message }, undefined, Math.round(performance.now() - started));
      log('error', 'pass.error', { brand: brandId, code, message });
    } finally {
      metrics.pass(brandId, result, (performance.now() - started) / 1000);
      metrics.queueDepth(queue.depth);
      cache?.save();
    }
  }

  interface PassOutcome {
    classified: Classified;
    error?: { code: string; message: string };
    detail?: Record<string, unknown>;
    applied?: string;
  }

  async function observe(want: DesiredBrand, planned?: BrandOutcome[]): Promise<PassOutcome> {
    const outcomes = planned ?? (await planEachBrand(options.client, [want], { concurrency, ...(cache !== undefined ? { cache } : {}) }));
    const now = new Date();
    const report = buildDrift(outcomes, now, { reviewWarningDays: Math.max(0, Math.floor(reviewWarningMs / DAY_MS)) });
    const outcome = outcomes[0]!;
    const drift = report.brands[0];
    const classified = classify(outcome, drift, now, reviewWarningMs);
    const detail = {
      steps: outcome.plan.steps.map((s) => ({ address: s.address, op: s.op, gate: s.gate })),
      findings: (drift?.resources ?? []).flatMap((r) => r.findings.map((f) => ({ code: f.code, severity: f.severity, address: f.address, message: f.message }))),
    };
    const error = outcome.plan.error !== undefined ? { code: outcome.plan.error.code, message: outcome.plan.error.message } : undefined;
    return { classified, detail, ...(error !== undefined ? { error } : {}) };
  }

  async function applyPass(brandId: string, want: DesiredBrand): Promise<PassOutcome | undefined> {
    let run;
    try {
      run = await applyBrand(options.client, want, {
        concurrency,
        allowDelete: options.allowDelete === true,
        allowReview: options.allowReview === true,
        // Never wait on a slot: a brand another run holds is tried again later, and the others go on.
        lock: { dir: lockDir, timeoutMs: 0, baseUrl: options.baseUrl, command: 'controller' },
        signal: shutdown.signal,
        ...(cache !== undefined ? { cache } : {}),
      });
    } catch (err) {
      if (err instanceof RcsctlError && err.code === 'E_LOCKED') {
        waitForLock(brandId);
        return undefined;
      }
      throw err;
    }
    if (run.status === 'nothing') return observe(want, run.planned);
    if (run.status === 'interrupted') throw new RcsctlError('E_INTERRUPTED', 'the controller is shutting down: the pass stopped after the steps in flight');
    const ran = run.outcomes.flatMap((o) => ('results' in o && o.results !== undefined ? o.results : []));
    const applied = ['done', 'failed', 'blocked', 'held', 'skipped'].map((st) => `${ran.filter((r) => r.status === st).length} ${st}`).join(', ');
    log('info', 'apply', { brand: brandId, status: run.status, steps: applied });
    if (run.status === 'failed') {
      const reasons = [...[...run.failures.values()].map((e) => `${e.code}: ${e.message}`), ...run.unconverged.map((u) => u.message)];
      return { classified: { state: 'failed', reasons, counts: emptyCounts() }, error: { code: [...run.failures.values()][0]?.code ?? 'E_UNCONVERGED', message: reasons[0] ?? 'apply failed' }, applied };
    }
    // What the apply left (held or blocked steps, reviews it started): read once more.
    return { ...(await observe(want)), applied };
  }

  function waitForLock(brandId: string): void {
    const holder = readHolder(lockPath(lockDir, options.baseUrl, brandId));
    const who = holder !== undefined ? `rcsctl ${holder.command} (pid ${holder.pid} on ${holder.host})` : 'another rcsctl run';
    const entry = brands.get(brandId);
    const reason = `waiting for the brand's lock, held by ${who}`;
    if (entry !== undefined && entry.status.pendingReasons[0] !== reason) {
      entry.status.pendingReasons = [reason, ...entry.status.pendingReasons.filter((r) => !r.startsWith('waiting for the brand'))];
      log('info', 'brand.locked', { brand: brandId, holder: who });
    }
    const t = setTimeout(() => {
      lockRetries.delete(t);
      markDirty(brandId);
    }, options.lockRetryMs ?? 2000);
    lockRetries.add(t);
  }

  function resyncAll(): void {
    lastResyncAt = new Date().toISOString();
    firstPassStarted = true;
    log('info', 'resync', { brands: desired.brands.size });
    for (const id of desired.brands.keys()) markDirty(id);
  }

  /**
   * The periodic resync reads the manifests again first (cheap with the parse
   * cache), and follows the paths' links again: whatever the file system's
   * events missed is no older than --interval.
   */
  function periodicResync(): void {
    watcher.refresh();
    void reload()
      .catch((err: unknown) => log('error', 'manifest.error', { message: errorMessage(err) }))
      .then(() => {
        if (!shutdown.signal.aborted) resyncAll();
      });
  }

  function notified(list: Notification[], forwarded: boolean): void {
    const elsewhere: Notification[] = [];
    for (const n of list) {
      metrics.notification(n.notiType, n.method);
      // One without a brand (messagebaseform, format, agencykey) may change what any brand's plan allows.
      const targets = n.brandId === undefined ? [...desired.brands.keys()] : desired.brands.has(n.brandId) ? [n.brandId] : [];
      const theirs = n.brandId !== undefined && !inShard(n.brandId, options.shard);
      log('info', 'notification', { type: n.notiType, method: n.method, ...(n.brandId !== undefined ? { brand: n.brandId } : {}), queued: targets.length, ...(forwarded ? { forwarded } : {}) });
      for (const id of targets) markDirty(id);
      if (forwarder === undefined) continue;
      if (theirs && !forwarded) elsewhere.push(n);
      else if (theirs) unforwarded(n, 'already-forwarded');
      else if (n.brandId === undefined && !forwarded) unforwarded(n, 'no-brand');
    }
    if (elsewhere.length > 0) forwarder?.forward(elsewhere);
  }

  /** A notification another shard may need that is not passed on: its owner's resync catches it. */
  function unforwarded(n: Notification, why: 'already-forwarded' | 'no-brand'): void {
    metrics.forward(why, 1);
    log('warn', 'notification.not_forwarded', { type: n.notiType, ...(n.brandId !== undefined ? { brand: n.brandId } : {}), reason: why === 'no-brand' ? 'names no brand: the other shards see it at their next resync' : 'already forwarded once, and this replica does not own the brand' });
  }

  const statusOf = (): ControllerStatus => ({
    mode,
    ...(options.shard !== undefined ? { shard: shardLabel(options.shard) } : {}),
    ready: ready(),
    startedAt,
    ...(lastResyncAt !== undefined ? { lastResyncAt } : {}),
    queueDepth: queue.depth,
    brands: [...brands.values()].map((b) => ({ ...b.status })).sort((a, b) => a.brandId.localeCompare(b.brandId)),
  });
  const ready = (): boolean => firstPassStarted && !serviceDown && !shutdown.signal.aborted;

  await reload();
  if (brands.size === 0) {
    const why = desired.orphanErrors.length > 0 ? `:\n  ${desired.orphanErrors.slice(0, 5).join('\n  ')}` : '';
    throw new RcsctlError('E_NO_BRAND', `the manifests in ${options.paths.join(', ')} declare no brand${options.shard !== undefined ? ` in shard ${shardLabel(options.shard)}` : ''}${why}`);
  }
  const server = makeServer(
    {
      status: statusOf,
      brand: (id) => {
        const b = brands.get(id);
        return b === undefined ? undefined : { ...b.status, ...(b.detail ?? {}) };
      },
      ready,
      notified,
    },
    { token: options.webhookToken, allowFrom: options.allowFrom ?? [], maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES },
    metrics,
    log,
    (text) => redaction.text(text),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9464, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  log('info', 'started', { url, mode, brands: desired.brands.size, failed: desired.broken.size, ...(options.shard !== undefined ? { shard: shardLabel(options.shard) } : {}) });

  const watcher = watchPaths(
    options.paths,
    cwd,
    options.watchDebounceMs ?? 300,
    (files) => {
      const before = desired;
      void reload()
        .then(() => {
          const touched = (id: string): boolean => files.length === 0 || [...(desired.files.get(id) ?? []), ...(before.files.get(id) ?? [])].some((f) => files.includes(f)) || !before.brands.has(id);
          const dirty = [...desired.brands.keys()].filter(touched);
          log('info', 'manifests.changed', { files: files.length, brands: dirty.length });
          for (const id of dirty) markDirty(id);
        })
        .catch((err: unknown) => log('error', 'manifest.error', { message: errorMessage(err) }));
    },
    (err) => log('warn', 'watch.error', { message: err.message }),
  );
  resyncAll();
  const interval = setInterval(periodicResync, options.intervalMs ?? 600_000);

  let closing: Promise<void> | undefined;
  return {
    url,
    status: statusOf,
    close() {
      closing ??= (async () => {
        log('info', 'stopping', { running: queue.active.size });
        clearInterval(interval);
        for (const t of lockRetries) clearTimeout(t);
        watcher.close();
        queue.stop();
        // No new step starts; the ones in flight finish, and runApply releases the locks.
        shutdown.abort('shutdown');
        const timeoutMs = options.shutdownTimeoutMs ?? 30_000;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([queue.idle().then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
        clearTimeout(timer);
        if (timedOut) log('warn', 'stopping.timeout', { running: [...queue.active], timeoutMs });
        await forwarder?.close();
        cache?.save();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        log('info', 'stopped', {});
      })();
      return closing;
    },
  };
}

function emptyCounts(): Classified['counts'] {
  return { steps: 0, blocked: 0, review: 0, findings: 0, waitingReview: 0, lateReviews: 0 };
}
