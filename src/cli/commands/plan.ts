// `rcsctl plan <paths...>`: read live state, diff it against the manifests and
// print the ordered, gated plan (text, --json, or a saved --out file).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { summarise } from '../../plan/build-plan.js';
import { LiveCache } from '../../plan/live-cache.js';
import { makePlanFile, writePlanFile } from '../../plan/plan-file.js';
import { planBrands, type PlannedBrand } from '../../plan/plan-brands.js';
import type { PlanFile } from '../../plan/types.js';
import { connect, type Connection } from '../connect.js';
import type { DesiredBrand } from '../../manifest/types.js';
import type { CommandContext } from '../context.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { declaredBy, loadOrFail } from '../load.js';
import { makeProgress } from '../progress.js';
import { renderPlan } from '../render-plan.js';
import { renderPlanMarkdown } from '../render-plan-markdown.js';
import { RcsctlError } from '../../errors.js';
import { makeStyle } from '../style.js';

interface PlanOptions {
  out?: string;
  json: boolean;
  format: string;
  detailedExitcode: boolean;
  brand?: string;
  cacheDir?: string;
}

/** Register `rcsctl plan`. */
export function registerPlan(program: Command, ctx: CommandContext): void {
  program
    .command('plan')
    .description('show, field by field, what apply would change in the live service')
    .argument('<paths...>', 'manifest files or directories')
    .option('--out <file>', 'save the plan for `rcsctl apply --plan FILE`')
    .option('--format <format>', 'output: text, json (schemas/plan.schema.json) or markdown (for a pull-request comment)', 'text')
    .option('--json', 'the same as --format json', false)
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error', false)
    .option('--brand <id>', 'plan only this brand')
    .option('--cache-dir <dir>', 'reuse auto-reply details whose updateDate is unchanged (env: RCSCTL_CACHE_DIR)')
    .action(async (paths: string[], opts: PlanOptions) => {
      const format = opts.json ? 'json' : opts.format;
      if (format !== 'text' && format !== 'json' && format !== 'markdown') throw new RcsctlError('E_USAGE', `--format must be text, json or markdown, not "${format}"`);
      const result = await runPlan(ctx, paths, opts);
      const { plans, file } = result;
      const g = ctx.globals();
      if (opts.out !== undefined) writePlanFile(resolve(ctx.io.cwd, opts.out), file);
      if (format === 'json') {
        ctx.io.stdout.write(JSON.stringify(withSummaries(file), null, 2) + '\n');
      } else if (format === 'markdown') {
        ctx.io.stdout.write(renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion }));
      } else {
        const style = makeStyle(g.color);
        ctx.io.stdout.write(plans.map((p) => renderPlan(p.plan, style)).join('\n'));
        if (opts.out !== undefined) ctx.io.stdout.write(`\nSaved the plan to ${opts.out}. Apply exactly these steps with: rcsctl apply --plan ${opts.out}\n`);
      }
      ctx.exit(planExitCode(plans, opts.detailedExitcode));
    });
}

/** Load, connect, read and plan, then close the connection. */
export async function runPlan(ctx: CommandContext, paths: string[], opts: { brand?: string; cacheDir?: string }): Promise<{ plans: PlannedBrand[]; file: PlanFile }> {
  const brands = await loadOrFail(ctx, paths, opts.brand);
  const conn = await connect(ctx, declaredBy(brands));
  try {
    return await planWith(ctx, conn, brands, opts);
  } finally {
    await conn.close();
  }
}

/** Read and plan `brands` over an open connection (with progress on a terminal): shared by `plan` and `apply`. */
export async function planWith(ctx: CommandContext, conn: Connection, brands: DesiredBrand[], opts: { cacheDir?: string }): Promise<{ plans: PlannedBrand[]; file: PlanFile }> {
  const progress = makeProgress(ctx.io);
  try {
    const cacheDir = opts.cacheDir ?? ctx.io.env.RCSCTL_CACHE_DIR;
    const cache = cacheDir !== undefined && cacheDir !== '' ? new LiveCache(resolve(ctx.io.cwd, cacheDir), conn.baseUrl) : undefined;
    const plans = await planBrands(conn.client, brands, {
      concurrency: ctx.globals().concurrency,
      ...(cache ? { cache } : {}),
      onProgress: (brandId, done, total) => progress.update(brandId, done, total),
    });
    cache?.save();
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
