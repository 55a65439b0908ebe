// `rcsctl plan <paths...>`: read live state, diff it against the manifests and
// print the ordered, gated plan (text, --json, or a saved --out file).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { summarise } from '../../plan/build-plan.js';
import { cacheDirFor, LiveCache } from '../../kinds/live-cache.js';
import { makePlanFile, writePlanFile } from '../../plan/plan-file.js';
import { planBrands, type PlannedBrand } from '../../plan/plan-brands.js';
import type { PlanFile } from '../../plan/types.js';
import { connect, type Connection } from '../connect.js';
import type { DesiredBrand } from '../../manifest/types.js';
import type { CommandContext } from '../context.js';
import { previewOptions, writePlanPreview } from '../preview-option.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { declaredBy, loadOrFail } from '../load.js';
import { makeProgress } from '../progress.js';
import { renderPlan } from '../render-plan.js';
import { renderPlanMarkdown } from '../render-plan-markdown.js';
import { makeStyle } from '../style.js';
import { brandOption, formatOption, formatValue, outOption, outValue, pathsArgument, pathsOrCwd, targetOption } from '../options.js';
import { TARGET_WARNING, targetBrands } from '../../plan/target.js';

interface PlanOptions {
  out?: string;
  output?: string;
  json: boolean;
  format: string;
  detailedExitcode: boolean;
  brand?: string[];
  target?: string[];
  cacheDir?: string;
  preview?: string;
  previewUrl?: string;
  cancelReview: boolean;
  graph: boolean;
  cache: boolean;
}

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

const PLAN_FORMATS = ['text', 'json', 'markdown'] as const;

/** Register `rcsctl plan`. */
export function registerPlan(program: Command, ctx: CommandContext): void {
  const cmd = program.command('plan').description('show, field by field, what apply would change in the live service');
  pathsArgument(cmd);
  outOption(cmd, 'file', 'save the plan for `rcsctl apply --plan FILE` (stdout still shows it)');
  formatOption(cmd, PLAN_FORMATS, 'output: text, json (schemas/plan.schema.json) or markdown (for a pull-request comment)');
  brandOption(cmd, 'plan only this brand');
  targetOption(cmd);
  cmd
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error', false)
    .option('--cancel-review', 'a change to a template waiting for review withdraws that review first (gated like a delete; see docs/templates.md)', false);
  previewOptions(withCacheOptions(cmd)).action(async (paths: string[] | undefined, opts: PlanOptions) => {
      const format = formatValue(opts, PLAN_FORMATS);
      const out = outValue(opts);
      const result = await runPlan(ctx, pathsOrCwd(paths), opts);
      const { plans, file } = result;
      const g = ctx.globals();
      if (out !== undefined) writePlanFile(resolve(ctx.io.cwd, out), file);
      // The preview note goes to stderr unless stdout is the text plan, where it follows the plan.
      const notes: string[] = [];
      const preview = opts.preview === undefined ? undefined : writePlanPreview(ctx, opts.preview, plans, notes);
      if (format !== 'text') ctx.io.stderr.write(notes.join(''));
      if (format === 'json') {
        ctx.io.stdout.write(JSON.stringify(withSummaries(file), null, 2) + '\n');
      } else if (format === 'markdown') {
        const link = opts.previewUrl ?? preview;
        ctx.io.stdout.write(renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion, graph: opts.graph, ...(link === undefined ? {} : { previewLink: link }) }));
      } else {
        const style = makeStyle(g.color);
        ctx.io.stdout.write(plans.map((p) => renderPlan(p.plan, style)).join('\n'));
        if (out !== undefined) ctx.io.stdout.write(`\nSaved the plan to ${out}. Apply exactly these steps with: rcsctl apply --plan ${out}\n`);
        if (notes.length > 0) ctx.io.stdout.write(`\n${notes.join('')}`);
      }
      ctx.exit(planExitCode(plans, opts.detailedExitcode));
    });
}

/** Load, connect, read and plan, then close the connection. */
export async function runPlan(ctx: CommandContext, paths: string[], opts: { brand?: string[]; target?: string[]; cancelReview?: boolean } & CacheOptions): Promise<{ plans: PlannedBrand[]; file: PlanFile }> {
  const brands = await loadOrFail(ctx, paths, opts.brand);
  const conn = await connect(ctx, declaredBy(brands));
  try {
    return await planWith(ctx, conn, brands, opts);
  } finally {
    await conn.close();
  }
}

/** Read and plan `brands` over an open connection (with progress on a terminal): shared by `plan` and `apply`. */
export async function planWith(ctx: CommandContext, conn: Connection, brands: DesiredBrand[], opts: { target?: string[]; cancelReview?: boolean } & CacheOptions): Promise<{ plans: PlannedBrand[]; file: PlanFile }> {
  const progress = makeProgress(ctx.io);
  try {
    const cacheDir = cacheDirFor(opts, ctx.io.env, ctx.io.cwd);
    const cache = cacheDir !== undefined ? new LiveCache(cacheDir, conn.baseUrl) : undefined;
    const all = await planBrands(conn.client, brands, {
      concurrency: ctx.globals().concurrency,
      ...(cache ? { cache } : {}),
      plan: { cancelReview: opts.cancelReview === true },
      onProgress: (brandId, done, total) => progress.update(brandId, done, total),
    });
    cache?.save();
    const targets = opts.target ?? [];
    const plans = targetBrands(all, targets);
    if (targets.length > 0) ctx.io.stderr.write(`${TARGET_WARNING}\n\n`);
    return { plans, file: makePlanFile(plans.map((p) => p.plan), conn.baseUrl) };
  } finally {
    progress.done();
  }
}

/** The plan file with a summary per brand, as `--json` prints it. */
export function withSummaries(file: PlanFile): unknown {
  return { ...file, brands: file.brands.map((b) => ({ ...b, summary: summarise(b) })) };
}

/** 1 when any brand has problems; 2 for changes under --detailed-exitcode; else 0. */
export function planExitCode(plans: PlannedBrand[], detailed: boolean): ExitCode {
  if (plans.some((p) => p.plan.problems.length > 0)) return EXIT_ERROR;
  if (detailed && plans.some((p) => p.plan.steps.length > 0)) return EXIT_CHANGES;
  return EXIT_OK;
}
