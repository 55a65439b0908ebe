// `rcsctl apply` over a connection: load, connect, watch interrupts, run
// (src/apply/apply-run.ts) and show the run (apply-view.ts), as text or as the
// JSON result document.

import { violationText } from '../core/policy.js';
import { checkPlanPolicies, labelsOf } from './policy-run.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { savedPlanRuns, type BrandRun } from '../apply/apply-brands.js';
import { runApply, type ApplySource } from '../apply/apply-run.js';
import { INTERRUPT_GRACE_MS } from '../apply/execute.js';
import { LiveCache } from '../kinds/live-cache.js';
import { readPlanFile } from '../plan/plan-file.js';
import type { PlanFile } from '../plan/types.js';
import { restoreSensitive } from '../plan/sensitive-plan.js';
import { parseShard, shardOrigin, type Shard, type ShardOrigin } from '../plan/shard.js';
import { RcsctlError } from '../errors.js';
import { cacheDirFor } from '../util/cache-dir.js';
import { shortPath } from '../util/paths.js';
import { parseDuration } from '../util/duration.js';
import type { LockBackend } from '../apply/lock-backend.js';
import { applyResult, type BrandApplyResult } from './apply-result.js';
import type { RequestCount } from '../core/requests.js';
import { applyEvents, applyVerdict } from './apply-view.js';
import { requestsLine } from '../render/plan-text.js';
import { connect, type Connection } from './connect.js';
import type { CommandContext } from './context.js';
import { EXIT_ERROR, type ExitCode } from './exit-codes.js';
import { watchInterrupts } from './interrupt.js';
import { declaredBy, loadBrands, type LoadedBrands } from './load.js';
import { holderExtras, lockUrlOf, openLockBackend } from './lock-backend.js';
import { brandHint, planWith, selectionOf } from './plan-run.js';
import { kindOptionsSet } from './kind-options.js';
import { planSealKey } from './secrets.js';

/** The flags of `rcsctl apply`. */
export interface ApplyOptions {
  plan?: string;
  /** With `plan`: the plan an approver reviewed; a step the saved plan holds and it does not refuses the run. */
  reviewed?: string;
  allowDelete: boolean;
  allowReview: boolean;
  cancelReview: boolean;
  yes: boolean;
  autoApprove?: boolean;
  format: string;
  json: boolean;
  brand?: string[];
  target?: string[];
  shard?: string;
  lockTimeout: string;
  lockUrl?: string;
  dedupe: boolean;
  cacheDir?: string;
  cache: boolean;
  label?: string[];
}

/** The output formats of `rcsctl apply`. */
export const APPLY_FORMATS = ['text', 'json'] as const;

/** Run `rcsctl apply` and give its exit code; with `json`, stdout gets the result document alone, even when the run fails. */
export async function applyCommand(ctx: CommandContext, paths: string[], opts: ApplyOptions, format: (typeof APPLY_FORMATS)[number]): Promise<ExitCode> {
  if (format === 'text') return runApplyCommand(ctx, paths, opts);
  // Everything people read goes to stderr.
  const results: BrandApplyResult[] = [];
  let shard: ShardOrigin | undefined;
  let requests: RequestCount | undefined;
  const human: CommandContext = { ...ctx, io: { ...ctx.io, stdout: ctx.io.stderr } };
  const write = (doc: unknown): void => void ctx.io.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  try {
    const code = await runApplyCommand(human, paths, opts, { brand: (r) => results.push(r), shard: (o) => (shard = o), requests: (c) => (requests = c) });
    write(applyResult(results, code, undefined, shard, requests));
    return code;
  } catch (err) {
    write(applyResult(results, EXIT_ERROR, err, shard, requests));
    throw err;
  }
}

/** What `--format json` keeps of a run: each brand's result, and the shard it ran (as drift and plan reports record it). */
interface Recorder {
  brand(r: BrandApplyResult): void;
  shard(o: ShardOrigin): void;
  requests(c: RequestCount): void;
}

async function runApplyCommand(ctx: CommandContext, paths: string[], opts: ApplyOptions, record?: Recorder): Promise<ExitCode> {
  const { io } = ctx;
  // Manifests are read before connecting: bad input never reaches the network.
  const loaded: LoadedBrands = opts.plan === undefined ? await loadBrands(ctx, paths, selectionOf(opts)) : { brands: [], failed: [], all: [] };
  const asked = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
  if (opts.plan === undefined && asked !== undefined) record?.shard(shardOrigin(asked, loaded.all));
  const lockTimeoutMs = parseDuration(opts.lockTimeout);
  const lockUrl = lockUrlOf(ctx, opts.lockUrl);
  const conn = await connect(ctx, declaredBy(loaded.brands, asked ?? (opts.plan !== undefined ? savedShard(resolve(io.cwd, opts.plan)) : undefined)));
  // From here an interrupt is graceful: the locks are released and nothing is left half-said.
  const interrupts = watchInterrupts(io, INTERRUPT_GRACE_MS);
  // Verification keeps the auto-replies it vouched for as created, so the next run need not read them.
  const cacheDir = cacheDirFor(opts, io.env, io.cwd);
  const cache = cacheDir !== undefined ? new LiveCache(cacheDir, conn.baseUrl, ctx.redaction) : undefined;
  let backend: LockBackend | undefined;
  try {
    backend = await openLockBackend(ctx, lockUrl, 'apply');
    // The kinds' own options (`--allow-…` a kind adds) lift their gates in the plan and in the run.
    const options = kindOptionsSet(opts);
    const planOpts = { cancelReview: opts.cancelReview, options, target: opts.target ?? [], cache: opts.cache, ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}) };
    const source: ApplySource =
      opts.plan === undefined
        ? {
            from: 'manifests',
            brandIds: loaded.brands.map((b) => b.brandId),
            plan: async () => {
              const planned = await planWith(ctx, conn, loaded.brands, planOpts, loaded.failed);
              // The repository's policy rules (docs/policies.md): a brand that breaks one is not applied; a rule on the whole run stops it.
              refuseRunPolicy(await checkPlanPolicies(loaded.policies ?? [], loaded.docs, planned.outcomes, planned.file, labelsOf(ctx, opts)), 'the plan');
              return planned.outcomes;
            },
          }
        : { from: 'saved', runs: (lock) => savedRuns(ctx, conn, resolve(io.cwd, opts.plan as string), opts, lock, record) };
    const result = await runApply(conn.client, source, {
      concurrency: ctx.globals().concurrency,
      allowDelete: opts.allowDelete,
      allowReview: opts.allowReview,
      options,
      // One writer per brand (docs/concurrency.md): on this machine, or on every machine that shares the lock URL; taken before the live state is read.
      lock: { dir: backend.where, timeoutMs: lockTimeoutMs, baseUrl: conn.baseUrl, command: 'apply', ...holderExtras(ctx), backend },
      dedupe: opts.dedupe,
      signal: interrupts.signal,
      hintFor: brandHint(ctx),
      ...(cache !== undefined ? { cache } : {}),
      events: applyEvents(ctx, opts, record?.brand),
    });
    cache?.save();
    // What the run cost the account's rate limit, above the verdict (which stays the last line).
    io.stdout.write(`\n${requestsLine(conn.requests)}\n`);
    const code = applyVerdict(ctx, result, interrupts.received ?? 'interrupt');
    if (!backend.lost.aborted) return code;
    io.stderr.write(`Error: ${(backend.lost.reason as Error).message}; the run stopped after the steps in flight (the next apply converges).\n`);
    return EXIT_ERROR;
  } finally {
    interrupts.dispose();
    await backend?.close();
    await conn.close();
    record?.requests({ ...conn.requests });
  }
}

async function savedRuns(ctx: CommandContext, conn: Connection, path: string, opts: ApplyOptions, lock: (brandIds: string[]) => Promise<void>, record?: Recorder): Promise<BrandRun[]> {
  // Sensitive values come from the environment again, and must be what was planned.
  const read = readPlanFile(path, { baseUrl: conn.baseUrl });
  // The run that wrote it stopped before planning anything (a manifest error of no brand).
  if (read.error !== undefined) throw new RcsctlError('E_MANIFEST', `plan file ${shortPath(ctx.io.cwd, path)} holds no plan: the run that made it stopped: ${read.error.message}; fix it and plan again`);
  if (opts.reviewed !== undefined) withinReviewed(ctx, read, path, resolve(ctx.io.cwd, opts.reviewed), conn.baseUrl);
  refuseRunPolicy(read, `plan file ${shortPath(ctx.io.cwd, path)}`);
  const { file, secrets } = restoreSensitive(read, ctx.io.env, path, planSealKey(ctx, opts));
  ctx.redaction.add(secrets);
  // A shard of a whole saved plan is split from the plan's brands; a sharded plan is its own shard.
  const origin = opts.shard !== undefined ? shardOrigin(parseShard(opts.shard), file.brands.map((b) => b.brandId)) : file.shard;
  if (origin !== undefined) record?.shard(origin);
  return savedPlanRuns(conn.client, file, path, {
    concurrency: ctx.globals().concurrency,
    env: ctx.io.env,
    brand: opts.brand ?? [],
    ...(opts.shard !== undefined ? { shard: parseShard(opts.shard) } : {}),
    lock,
    hintFor: brandHint(ctx),
  });
}

/** Refuse, before anything is sent, a plan that breaks a policy rule on the whole run (or holds a rule that could not be evaluated). */
function refuseRunPolicy(file: PlanFile, what: string): void {
  const errors = (file.policy ?? []).filter((v) => v.severity === 'error');
  if (errors.length === 0) return;
  throw new RcsctlError('E_POLICY', `${what} breaks ${errors.length === 1 ? 'a policy rule' : `${errors.length} policy rules`} of the whole run; nothing was sent:\n  ${errors.map(violationText).join('\n  ')}`, { policy: errors });
}

/**
 * `--reviewed`: refuse, before anything is sent, a saved plan holding a step
 * (by brand and step id) that the reviewed plan does not. A plan made again
 * after another apply (a pipeline that waited its turn) may only hold less
 * than what the approver saw.
 */
function withinReviewed(ctx: CommandContext, plan: PlanFile, path: string, reviewedPath: string, baseUrl: string): void {
  const reviewed = readPlanFile(reviewedPath, { baseUrl });
  const seen = new Set(reviewed.brands.flatMap((b) => b.steps.map((s) => `${b.brandId} ${s.id}`)));
  const unseen = plan.brands.flatMap((b) => b.steps.map((s) => `${b.brandId} ${s.id}`)).filter((s) => !seen.has(s));
  if (unseen.length === 0) return;
  const cwd = ctx.io.cwd;
  throw new RcsctlError(
    'E_PLAN_UNREVIEWED',
    `plan file ${shortPath(cwd, path)} holds ${unseen.length === 1 ? 'a step' : `${unseen.length} steps`} that the reviewed plan ${shortPath(cwd, reviewedPath)} does not; nothing was sent. Plan again for review:\n  ${unseen.join('\n  ')}`,
    { unreviewed: unseen },
  );
}

/**
 * The shard a saved plan was made for (`plan --shard i/n --out`), read ahead
 * of the checked read so that the connection knows its peers; undefined for
 * a whole plan, and for a file the checked read will refuse.
 */
function savedShard(path: string): Shard | undefined {
  try {
    const shard = (JSON.parse(readFileSync(path, 'utf8')) as { shard?: { index?: unknown; count?: unknown } } | null)?.shard;
    return typeof shard?.index === 'number' && typeof shard.count === 'number' ? { index: shard.index, count: shard.count } : undefined;
  } catch {
    return undefined;
  }
}
