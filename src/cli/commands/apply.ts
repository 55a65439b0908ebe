// `rcsctl apply <paths...> | --plan FILE`: make the live brand match, in
// dependency order, never sending what a state forbids, then re-read and verify.

import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { executePlan, type StepResult } from '../../apply/execute.js';
import { findStale } from '../../apply/stale.js';
import { verifyApplied, type Unconverged } from '../../apply/verify.js';
import { RcsctlError } from '../../errors.js';
import { readPlanFile } from '../../plan/plan-file.js';
import { brandRef } from '../../plan/plan-brands.js';
import type { BrandPlan } from '../../plan/types.js';
import { makeApplyView } from '../apply-reporter.js';
import { connect, type Connection } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_ERROR, EXIT_HELD, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { loadOrFail } from '../load.js';
import { renderPlan } from '../render-plan.js';
import { makeStyle, type Style } from '../style.js';
import { planWith } from './plan.js';

interface ApplyOptions {
  plan?: string;
  allowDelete: boolean;
  allowReview: boolean;
  yes: boolean;
  brand?: string;
}

/** One brand to apply: its plan and its brand key (from the manifest, or the environment for saved plans). */
interface BrandRun {
  plan: BrandPlan;
  brand: { id: string; key?: string };
}

/** Register `rcsctl apply`. */
export function registerApply(program: Command, ctx: CommandContext): void {
  program
    .command('apply')
    .description('make the live service match the manifests (or run a saved plan)')
    .argument('[paths...]', 'manifest files or directories (not with --plan)')
    .option('--plan <file>', 'apply exactly the steps of a saved plan (rcsctl plan --out)')
    .option('--allow-delete', 'run delete steps (saved plans may hold them without this flag)', false)
    .option('--allow-review', 'run steps that send a room or logo to operator review', false)
    .option('-y, --yes', 'do not ask for confirmation', false)
    .option('--brand <id>', 'apply only this brand')
    .addHelpText('after', '\nExit codes: 0 the live service matches; 1 error (nothing sent for bad input, or a step failed);\n3 finished, but some steps were blocked by a state or held by a gate. See docs/apply.md.')
    .action(async (paths: string[], opts: ApplyOptions) => {
      if (opts.plan !== undefined && paths.length > 0) throw new RcsctlError('E_USAGE', 'give manifest paths or --plan FILE, not both');
      if (opts.plan === undefined && paths.length === 0) throw new RcsctlError('E_USAGE', 'give manifest paths to apply, or --plan FILE');
      ctx.exit(await runApply(ctx, paths, opts));
    });
}

async function runApply(ctx: CommandContext, paths: string[], opts: ApplyOptions): Promise<ExitCode> {
  const { io } = ctx;
  const style = makeStyle(ctx.globals().color);
  // Manifests are read before connecting: bad input never reaches the network.
  const brands = opts.plan === undefined ? await loadOrFail(ctx, paths, opts.brand) : [];
  const conn = await connect(ctx);
  try {
    let runs: BrandRun[];
    if (opts.plan !== undefined) {
      runs = await savedPlanRuns(ctx, conn, resolve(io.cwd, opts.plan), opts.brand);
    } else {
      const { plans } = await planWith(ctx, conn, brands, {});
      runs = plans.map((p) => ({ plan: p.plan, brand: brandRef(p.desired) }));
    }
    io.stdout.write(runs.map((r) => renderPlan(r.plan, style)).join('\n'));
    if (runs.some((r) => r.plan.problems.length > 0)) throw new RcsctlError('E_PLAN', 'the plan has problems (above); nothing was applied');
    const total = runs.reduce((n, r) => n + r.plan.steps.length, 0);
    if (total === 0) {
      io.stdout.write('\nNothing to apply: the live service matches.\n');
      return EXIT_OK;
    }
    if (opts.plan === undefined && !opts.yes) await confirm(ctx, runs);

    let failed = 0;
    let held = 0;
    const unconverged: Unconverged[] = [];
    for (const run of runs) {
      io.stdout.write('\n');
      const view = makeApplyView(io, style, run.plan.brandId, run.plan.steps);
      const { results, ids } = await executePlan(run.plan, {
        client: conn.client,
        brand: run.brand,
        concurrency: ctx.globals().concurrency,
        allowDelete: opts.allowDelete,
        allowReview: opts.allowReview,
        fromSavedPlan: opts.plan !== undefined,
        reporter: view,
      });
      await view.finished();
      failed += results.filter((r) => r.status === 'failed').length;
      held += results.filter((r) => r.status === 'blocked' || r.status === 'held' || r.status === 'skipped').length;
      const notConverged = await verifyApplied(conn.client, run.brand, run.plan, results, ids, ctx.globals().concurrency);
      unconverged.push(...notConverged);
      io.stdout.write(summaryLine(run.plan.brandId, results, style));
    }
    for (const u of unconverged) io.stderr.write(style.red(`verification: ${u.message}\n`));
    if (failed > 0 || unconverged.length > 0) {
      io.stderr.write(style.red(`\nApply failed: ${failed} step${failed === 1 ? '' : 's'} failed, ${unconverged.length} resource${unconverged.length === 1 ? '' : 's'} not as planned. Fix the cause and run apply again: it picks up where this run stopped.\n`));
      return EXIT_ERROR;
    }
    if (held > 0) {
      io.stdout.write(style.yellow(`\nApply finished with ${held} step${held === 1 ? '' : 's'} blocked or held (above); the rest of the live brand matches.\n`));
      return EXIT_HELD;
    }
    io.stdout.write(style.green('\nApply complete: the live service matches the manifests.\n'));
    return EXIT_OK;
  } finally {
    await conn.close();
  }
}

async function savedPlanRuns(ctx: CommandContext, conn: Connection, path: string, brandFilter: string | undefined): Promise<BrandRun[]> {
  const file = readPlanFile(path, { baseUrl: conn.baseUrl });
  let brands = file.brands;
  if (brandFilter !== undefined) {
    brands = brands.filter((b) => b.brandId === brandFilter);
    if (brands.length === 0) throw new RcsctlError('E_PLAN_TARGET', `plan file ${path} holds no plan for brand ${brandFilter} (it has: ${file.brands.map((b) => b.brandId).join(', ')})`);
  }
  const runs = brands.map((plan) => ({ plan, brand: brandKeyFromEnv(plan.brandId, ctx.io.env) }));
  const stale: string[] = [];
  for (const run of runs) {
    for (const s of await findStale(conn.client, run.brand, run.plan, ctx.globals().concurrency)) stale.push(`  ${run.plan.brandId} ${s.address}: ${s.how}`);
  }
  if (stale.length > 0) {
    throw new RcsctlError('E_PLAN_STALE', `the saved plan is stale; the live service changed since it was made:\n${stale.join('\n')}\nMake a new plan (rcsctl plan --out) and review it again.`, { stale });
  }
  return runs;
}

/** Brand keys for saved plans come from RCSCTL_BRAND_KEY_<brandId, non-alphanumerics as _>; a plan file never holds one. */
export function brandKeyFromEnv(brandId: string, env: Record<string, string | undefined>): { id: string; key?: string } {
  const key = env[`RCSCTL_BRAND_KEY_${brandId.replace(/[^A-Za-z0-9]/g, '_')}`];
  return key !== undefined && key !== '' ? { id: brandId, key } : { id: brandId };
}

async function confirm(ctx: CommandContext, runs: BrandRun[]): Promise<void> {
  const { io } = ctx;
  if (io.stdin === undefined || io.stdin.isTTY !== true) {
    throw new RcsctlError('E_CONFIRM', 'refusing to apply without confirmation: there is no terminal to ask on. Review the plan above and run again with --yes, or save it with `rcsctl plan --out FILE` and run `rcsctl apply --plan FILE`.');
  }
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(`\nApply these changes to ${runs.map((r) => r.plan.brandId).join(', ')}? Only 'yes' will be accepted: `);
    if (answer.trim() !== 'yes') throw new RcsctlError('E_CONFIRM', 'apply cancelled; nothing was changed');
  } finally {
    rl.close();
  }
}

function summaryLine(brandId: string, results: StepResult[], style: Style): string {
  const count = (s: StepResult['status']): number => results.filter((r) => r.status === s).length;
  const parts = [`${count('done')} done`, `${count('failed')} failed`, `${count('blocked')} blocked`, `${count('held')} held`, `${count('skipped')} skipped`];
  const text = `${brandId}: ${parts.join(', ')}.\n`;
  return count('failed') > 0 ? style.red(text) : style.bold(text);
}
