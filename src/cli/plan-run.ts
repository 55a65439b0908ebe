// The shared half of the commands that read and plan (plan, apply, drift):
// the live-cache flags, the brand selection, planning over a connection with
// progress, and the failed brands' report on stderr.

import type { Command } from 'commander';
import { PERSON_ENV } from '../api/brands.js';
import { ApiTransportError } from '../api/errors.js';
import { explainRefusedBrands } from '../plan/brand-access.js';
import { LiveCache } from '../kinds/live-cache.js';
import { cacheDirFor } from '../util/cache-dir.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { HintFor } from '../plan/brand-error.js';
import { makePlanFile } from '../plan/plan-file.js';
import { isFailed, planEachBrand, type BrandOutcome, type PlannedBrand } from '../plan/plan-brands.js';
import { inShard, parseShard, shardOrigin, type ShardOrigin } from '../plan/shard.js';
import { TARGET_WARNING, targetBrands } from '../plan/target.js';
import { UsageReads } from '../plan/usage.js';
import type { RequestCount } from '../core/requests.js';
import { findUnmanagedBrands, removedBrandFinding, type UnmanagedBrand } from '../plan/unmanaged-brands.js';
import { readLive } from '../plan/read-live.js';
import { describeCounts, liveCounts } from '../kinds/counts.js';
import { brandNameOf } from '../kinds/brand-name.js';
import type { PlanFile } from '../plan/types.js';
import { checkBaseDir, compareToBase } from './compare-base.js';
import { connect, type Connection } from './connect.js';
import type { CommandContext } from './context.js';
import { writeFailures } from './failures.js';
import { hintFor } from './hints.js';
import { kindOptionsSet } from './kind-options.js';
import { declaredBy, loadBrands, type BrandSelection } from './load.js';
import { makeProgress } from './progress.js';
import { checkPlanPolicies, labelsOf } from './policy-run.js';

/** The live-cache flags of plan, apply and drift. */
export interface CacheOptions {
  cache?: boolean;
  cacheDir?: string;
}

/** Add --cache-dir and --no-cache to a command. */
export function withCacheOptions(command: Command): Command {
  return command
    .option('--cache-dir <dir>', 'where to keep auto-reply details between runs (env: RCSCTL_CACHE_DIR; default: $XDG_CACHE_HOME/rcsctl or ~/.cache/rcsctl)')
    .option('--no-cache', 'read every auto-reply detail from the service, and keep none');
}

/** Add --unmanaged-brand (plan and drift). */
export function withUnmanagedOption(command: Command): Command {
  return command.option('--unmanaged-brand <id>', 'a brand of the account left unmanaged on purpose: not reported as BRAND_UNMANAGED (repeatable; docs/drift.md)', (v: string, prev: string[] = []) => [...prev, v]);
}

/** The brand selection and planning options of `--brand`, `--shard`, `--cache-dir`/`--no-cache`, `--target`, `--cancel-review` and `--unmanaged-brand`. */
export function selectionOf(flags: { brand?: string[]; shard?: string; cacheDir?: string; cache?: boolean; target?: string[]; cancelReview?: boolean; unmanagedBrand?: string[]; compareTo?: string; usage?: boolean; label?: string[] }): BrandSelection & PlanWithOptions {
  const out: BrandSelection & PlanWithOptions = {};
  if (flags.usage === true) out.usage = true;
  if (flags.compareTo !== undefined) out.compareTo = flags.compareTo;
  if (flags.label !== undefined) out.label = flags.label;
  if (flags.unmanagedBrand !== undefined) out.unmanagedBrand = flags.unmanagedBrand;
  if (flags.brand !== undefined) out.brand = flags.brand;
  if (flags.shard !== undefined) out.shard = parseShard(flags.shard);
  if (flags.cacheDir !== undefined) out.cacheDir = flags.cacheDir;
  if (flags.cache !== undefined) out.cache = flags.cache;
  if (flags.target !== undefined) out.target = flags.target;
  if (flags.cancelReview === true) out.cancelReview = true;
  // The kinds' own options (`Optioned`), as commander parsed them.
  const options = kindOptionsSet(flags);
  if (options.length > 0) out.options = options;
  return out;
}

/**
 * Load, connect, read and plan, then close the connection. Each brand stands
 * alone: one that fails (its manifests, or reading it) is an outcome with an
 * error, and the others are planned in full. With `--shard`, the plan file
 * and `shard` say which shard of which brand list this is.
 */
export async function runPlan(ctx: CommandContext, paths: string[], opts: BrandSelection & PlanWithOptions): Promise<{ outcomes: BrandOutcome[]; file: PlanFile; shard?: ShardOrigin; unmanagedBrands?: UnmanagedBrand[]; requests: RequestCount }> {
  if (opts.compareTo !== undefined) checkBaseDir(ctx, opts.compareTo);
  const loaded = await loadBrands(ctx, paths, opts);
  const conn = await connect(ctx, declaredBy(loaded.brands, opts.shard));
  try {
    const planned = await planWith(ctx, conn, loaded.brands, opts, loaded.failed);
    // The base is planned against the live state just read: no request more.
    const removed = opts.compareTo !== undefined ? await compareToBase(ctx, opts.compareTo, planned.outcomes, planOptionsOf(opts), loaded.all) : [];
    // The repository's policy rules, on the manifests and on the plan (docs/policies.md).
    planned.file = await checkPlanPolicies(loaded.policies ?? [], loaded.docs, planned.outcomes, planned.file, labelsOf(ctx, opts));
    const listedNames = new Map<string, string>();
    const unmanagedBrands = withRemoved(await unmanagedOf(ctx, conn, loaded.all, opts, listedNames), await removedBrands(ctx, conn, removed, opts));
    // A brand whose manifests declare no profile is named as the account's list names it (read for the check above: no request more).
    for (const plan of [...planned.outcomes.map((o) => o.plan), ...planned.file.brands]) {
      const name = listedNames.get(plan.brandId);
      if (plan.name === undefined && name !== undefined) plan.name = name;
    }
    const requests = { ...conn.requests };
    const counted = { ...planned, file: { ...planned.file, requests }, requests };
    const withUnmanaged = unmanagedBrands === undefined ? counted : { ...counted, file: { ...counted.file, unmanagedBrands }, unmanagedBrands };
    if (opts.shard === undefined) return withUnmanaged;
    const shard = shardOrigin(opts.shard, loaded.all);
    return { ...withUnmanaged, file: { ...withUnmanaged.file, shard }, shard };
  } finally {
    await conn.close();
  }
}

/** How `planWith` plans: the live cache, `--target`, `--cancel-review`; and `--unmanaged-brand` for runPlan. */
export interface PlanWithOptions extends CacheOptions {
  target?: string[];
  cancelReview?: boolean;
  unmanagedBrand?: string[];
  /** `plan --compare-to DIR`: the base's manifests, to split the steps by origin. */
  compareTo?: string;
  /** Read how often users pressed what a step removes or changes (`plan`, unless `--no-usage`). */
  usage?: boolean;
  /** The pull request's labels (`--label`), for policy rules; RCSCTL_LABELS adds to them. */
  label?: string[];
  /** The kinds' own options set (`--allow-…` a kind adds), by flag without dashes. */
  options?: string[];
}

/** The choices the kinds see in a plan: `--cancel-review` and the kinds' own options. */
function planOptionsOf(opts: PlanWithOptions): { cancelReview: boolean; options?: string[] } {
  return { cancelReview: opts.cancelReview === true, ...(opts.options !== undefined ? { options: opts.options } : {}) };
}

/**
 * The brands the account can see that no manifest declares (BRAND_UNMANAGED),
 * when the run covers the whole repository (no --brand, no --target; with
 * --shard, those of its shard) and RCSCTL_PERSON_ID names the account whose
 * brand list is read; undefined when not checked. The sandbox's seed brands
 * are not the repository's: not checked there.
 */
async function unmanagedOf(ctx: CommandContext, conn: Connection, declared: string[], opts: BrandSelection & PlanWithOptions, names?: Map<string, string>): Promise<UnmanagedBrand[] | undefined> {
  const account = ctx.io.env[PERSON_ENV];
  if (account === undefined || account === '' || ctx.globals().sandbox === true) return undefined;
  if ((opts.brand ?? []).length > 0 || (opts.target ?? []).length > 0) return undefined;
  const cacheDir = cacheDirFor(opts, ctx.io.env, ctx.io.cwd);
  const cache = cacheDir !== undefined ? new LiveCache(cacheDir, conn.baseUrl, ctx.redaction) : undefined;
  try {
    return await findUnmanagedBrands(conn.client, {
      accounts: [account],
      declared,
      ignored: opts.unmanagedBrand ?? [],
      ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
      ...(cache !== undefined ? { cached: (id: string) => cache.holds(id) } : {}),
      ...(names !== undefined ? { names } : {}),
    });
  } catch (err) {
    ctx.io.stderr.write(`warning: the brand list of account ${account} could not be read (${err instanceof Error ? err.message : String(err)}); brands nobody declares were not checked\n`);
    return undefined;
  }
}

/**
 * The brands the base declares and the change does not (`--compare-to`): the
 * change removed their manifests, and nothing is deleted. Each is read (a
 * brand's lists, as a plan reads it) to say what stays live; only for a run
 * over the whole repository (not --brand, --target), each in its shard, and
 * not those marked --unmanaged-brand.
 */
async function removedBrands(ctx: CommandContext, conn: Connection, removed: DesiredBrand[], opts: BrandSelection & PlanWithOptions): Promise<UnmanagedBrand[]> {
  if ((opts.brand ?? []).length > 0 || (opts.target ?? []).length > 0) return [];
  const ignored = new Set(opts.unmanagedBrand ?? []);
  const out: UnmanagedBrand[] = [];
  for (const b of removed) {
    if (ignored.has(b.brandId) || !inShard(b.brandId, opts.shard)) continue;
    const at = { file: b.source.file, line: b.source.line };
    let stays: string;
    let name: string | null = null;
    try {
      const live = await readLive(conn.client, b.brandKey !== undefined ? { id: b.brandId, key: b.brandKey } : { id: b.brandId }, { concurrency: ctx.globals().concurrency });
      const held = liveCounts(live).filter((c) => c.count > 0);
      stays = held.length === 0 ? 'nothing (it holds no resource rcsctl manages)' : describeCounts(held);
      name = brandNameOf(undefined, live) ?? null;
    } catch (err) {
      stays = `what it holds could not be read (${err instanceof Error ? err.message : String(err)})`;
    }
    out.push({ brandId: b.brandId, name, accounts: [], declaredBefore: true, finding: removedBrandFinding(b.brandId, name, at, stays) });
  }
  return out;
}

/** The account's unmanaged brands and the ones the change removed, each once (the removed one's finding says more), by id; undefined when neither was checked. */
function withRemoved(listed: UnmanagedBrand[] | undefined, removed: UnmanagedBrand[]): UnmanagedBrand[] | undefined {
  if (listed === undefined && removed.length === 0) return undefined;
  const ids = new Set(removed.map((b) => b.brandId));
  return [...(listed ?? []).filter((b) => !ids.has(b.brandId)), ...removed.map((b) => ({ ...b, accounts: listed?.find((l) => l.brandId === b.brandId)?.accounts ?? [] }))].sort((a, b) => a.brandId.localeCompare(b.brandId));
}

/**
 * Read and plan `brands` over an open connection (with progress on a
 * terminal): shared by `plan`, `drift` and `apply`. `failed` (brands whose
 * manifests failed) join the outcomes; all come back sorted by brand id.
 */
export async function planWith(ctx: CommandContext, conn: Connection, brands: DesiredBrand[], opts: PlanWithOptions, failed: BrandOutcome[] = []): Promise<{ outcomes: BrandOutcome[]; file: PlanFile }> {
  const progress = makeProgress(ctx.io);
  try {
    const cacheDir = cacheDirFor(opts, ctx.io.env, ctx.io.cwd);
    const cache = cacheDir !== undefined ? new LiveCache(cacheDir, conn.baseUrl, ctx.redaction) : undefined;
    const usage = opts.usage === true ? new UsageReads(conn.client) : undefined;
    const account = ctx.io.env[PERSON_ENV];
    const planned = await planEachBrand(conn.client, brands, {
      concurrency: ctx.globals().concurrency,
      // The run's account, from its own environment (main's io.env), for the kinds read as one when the manifests name none.
      ...(account !== undefined && account !== '' ? { account } : {}),
      ...(usage ? { usage } : {}),
      ...(cache ? { cache } : {}),
      plan: planOptionsOf(opts),
      hintFor: brandHint(ctx),
      onProgress: (brandId, done, total) => progress.update(brandId, done, total),
    });
    for (const p of planned) if (!isFailed(p)) cache?.notePlanned(p.plan.brandId);
    for (const why of usage?.unavailable ?? []) ctx.io.stderr.write(ctx.redaction.text(`warning: ${why}; the plan shows no usage figures there\n`));
    cache?.save();
    // A brand refused with 63001 may not exist at all (a mistyped id): the account's brand list says (the sandbox's seed has its own hint).
    if (ctx.globals().sandbox !== true) await explainRefusedBrands(conn.client, planned, ctx.io.env[PERSON_ENV]);
    const targets = opts.target ?? [];
    const outcomes = narrow([...planned, ...failed], targets).sort((a, b) => a.plan.brandId.localeCompare(b.plan.brandId));
    if (targets.length > 0) ctx.io.stderr.write(`${TARGET_WARNING}\n\n`);
    return { outcomes, file: makePlanFile(outcomes.map((p) => p.plan), conn.baseUrl) };
  } finally {
    progress.done();
  }
}

/** `--target`: the planned brands narrowed to the targets and what they depend on; failed brands stay as they are. */
function narrow(outcomes: BrandOutcome[], targets: string[]): BrandOutcome[] {
  if (targets.length === 0) return outcomes;
  const narrowed = new Map(targetBrands(outcomes.filter((o): o is PlannedBrand => !isFailed(o)), targets).map((p) => [p.plan.brandId, p]));
  return outcomes.map((o) => (isFailed(o) ? o : (narrowed.get(o.plan.brandId) ?? o)));
}

/** The hints of the CLI's error handler, for a failed brand's error (the sandbox has its own). */
export function brandHint(ctx: CommandContext): HintFor {
  const sandbox = ctx.globals().sandbox;
  return (err) => hintFor(err, { sandbox }) ?? (err instanceof ApiTransportError ? 'check that the service address is right and reachable from here, then run again' : undefined);
}

/**
 * After everything ran, on stderr: each failed brand's error and hint (CI logs
 * show them), unless `shownOnStdout` (the text view on stdout has just said
 * it), then how many brands failed when there were others.
 */
export function reportFailures(ctx: CommandContext, outcomes: BrandOutcome[], opts: { shownOnStdout: boolean }): void {
  const failed = outcomes.filter(isFailed);
  if (failed.length === 0) return;
  // With one brand, there are no others to speak of.
  const tail = outcomes.length === 1 ? undefined : `${failed.length} of ${outcomes.length} brands failed; the others are reported in full.`;
  writeFailures(ctx, opts.shownOnStdout ? [] : failed.map((f) => [f.brandId, f.error] as const), tail);
}
