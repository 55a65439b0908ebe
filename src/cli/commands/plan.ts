// `rcsctl plan <paths...>`: read live state, diff it against the manifests and
// print the ordered, gated plan (text, --json, or a saved --out file).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { makePlanFile, writePlanFile } from '../../plan/plan-file.js';
import { shardOrigin } from '../../plan/shard.js';
import type { PlanFile } from '../../plan/types.js';
import { isFailed, type BrandOutcome } from '../../plan/plan-brands.js';
import { planFailed, renderPlans } from '../../render/plan-text.js';
import { makeStyle } from '../../render/style.js';
import { unmanagedBrandsText } from '../../render/unmanaged-brands.js';
import { policyText } from '../../render/policy.js';
import type { CommandContext } from '../context.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { brandOption, commentOptions, commentValues, formatOption, formatValue, outOption, outValue, pathsArgument, pathsOrCwd, targetOption } from '../options.js';
import { ManifestsStopped } from '../load.js';
import { reportFailures, runPlan, selectionOf, withCacheOptions, withUnmanagedOption } from '../plan-run.js';
import { checkPreviewDir, previewOptions, writePlanPreview } from '../preview-option.js';
import { planSealKey } from '../secrets.js';
import { breaksPolicy, withLabelOption } from '../policy-run.js';
import { withKindOptions } from '../kind-options.js';

interface PlanOptions {
  out?: string;
  output?: string;
  json: boolean;
  format: string;
  detailedExitcode: boolean;
  brand?: string[];
  target?: string[];
  shard?: string;
  cacheDir?: string;
  preview?: string;
  previewUrl?: string;
  cancelReview: boolean;
  usage?: boolean;
  unmanagedBrand?: string[];
  graph: boolean;
  cache: boolean;
  maxBytes?: string;
  fullReportUrl?: string;
  compareTo?: string;
  label?: string[];
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
    .option('--shard <i/n>', 'plan only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error', false)
    .option('--cancel-review', 'a change to what waits for review withdraws that review first (gated like a delete)', false)
    .option('--compare-to <dir>', "the manifests of the change's base (a checkout of the target branch): split the steps into the change's and those undoing changes made outside rcsctl (docs/plan.md)")
    .option('--no-usage', 'do not read how often users pressed the menu items, buttons and chips a step removes or changes (docs/plan.md)');
  commentOptions(cmd);
  withKindOptions(cmd);
  previewOptions(withLabelOption(withUnmanagedOption(withCacheOptions(cmd)))).action(async (paths: string[] | undefined, opts: PlanOptions) => {
      const format = formatValue(opts, PLAN_FORMATS);
      const out = outValue(opts);
      const budget = commentValues(opts);
      await checkPreviewDir(ctx, opts.preview);
      const result = await runPlan(ctx, pathsOrCwd(paths), selectionOf(opts)).catch(async (err: unknown) => {
        // A manifest error of no brand stops the run; --out and the JSON view still say why (docs/ci.md).
        if (err instanceof ManifestsStopped) await writeStopped(ctx, err, opts, format, out);
        throw err;
      });
      const { outcomes: plans, file } = result;
      const g = ctx.globals();
      // A saved plan holds a keyed hash of each sensitive value, never the value.
      if (out !== undefined) writePlanFile(resolve(ctx.io.cwd, out), file, ctx.redaction, planSealKey(ctx, opts));
      // The preview note goes to stderr unless stdout is the text plan, where it follows the plan.
      const notes: string[] = [];
      const preview = opts.preview === undefined ? undefined : await writePlanPreview(ctx, opts.preview, plans, notes);
      if (format !== 'text') ctx.io.stderr.write(notes.join(''));
      if (format === 'json') {
        const { renderPlanJson } = await import('../../render/plan-json.js');
        ctx.io.stdout.write(renderPlanJson(file));
      } else if (format === 'markdown') {
        const link = opts.previewUrl ?? preview;
        // The Markdown view (and the graph it may draw) loads only for --format markdown.
        const { renderPlanMarkdown } = await import('../../render/plan-markdown.js');
        ctx.io.stdout.write(renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion, graph: opts.graph, ...budget, ...(link === undefined ? {} : { previewLink: link }), ...(file.unmanagedBrands !== undefined ? { unmanagedBrands: file.unmanagedBrands } : {}), ...(file.policy !== undefined ? { policy: file.policy } : {}), ...(file.requests !== undefined ? { requests: file.requests } : {}) }));
      } else {
        const style = makeStyle(g.color);
        ctx.io.stdout.write(renderPlans(file.brands, style, file.requests !== undefined ? { requests: file.requests } : {}));
        const unmanaged = unmanagedBrandsText(file.unmanagedBrands, style);
        if (unmanaged.length > 0) ctx.io.stdout.write(`\n${unmanaged.join('\n')}\n`);
        const runPolicy = policyText(file.policy, style, '');
        if (runPolicy.length > 0) ctx.io.stdout.write(`\n${runPolicy.join('\n')}\n`);
        const failed = file.brands.filter(planFailed).length;
        // With failed brands the saved plan is not the whole story: the line says so.
        const saved = failed > 0 ? `Nothing can be applied for the ${failed} brand${failed === 1 ? '' : 's'} that failed (above); apply the others' steps with` : 'Apply exactly these steps with';
        if (out !== undefined) ctx.io.stdout.write(`\nSaved the plan to ${out}. ${saved}: rcsctl apply --plan ${out}\n`);
        if (notes.length > 0) ctx.io.stdout.write(`\n${notes.join('')}`);
      }
      reportFailures(ctx, plans, { shownOnStdout: format === 'text' });
      ctx.exit(breaksPolicy(file.policy) ? EXIT_ERROR : planExitCode(plans, opts.detailedExitcode, (file.unmanagedBrands ?? []).length));
    });
}

/** The plan file of a run that stopped: no brand, the error; written to `out`, and printed for `--format json`. */
async function writeStopped(ctx: CommandContext, err: ManifestsStopped, opts: PlanOptions, format: string, out: string | undefined): Promise<void> {
  const shard = selectionOf(opts).shard;
  const file: PlanFile = { ...makePlanFile([], ctx.globals().baseUrl ?? ''), error: err.error, ...(shard !== undefined ? { shard: shardOrigin(shard, err.all) } : {}) };
  if (out !== undefined) writePlanFile(resolve(ctx.io.cwd, out), file, ctx.redaction, planSealKey(ctx, opts));
  if (format === 'json') {
    const { renderPlanJson } = await import('../../render/plan-json.js');
    ctx.io.stdout.write(renderPlanJson(file));
  }
}

/** 1 when any brand failed or has problems; 2 for changes (or live brands no manifest declares) under --detailed-exitcode; else 0. */
function planExitCode(plans: BrandOutcome[], detailed: boolean, unmanagedBrands: number): ExitCode {
  if (plans.some((p) => isFailed(p) || p.plan.problems.length > 0 || breaksPolicy(p.plan.policy))) return EXIT_ERROR;
  if (detailed && (unmanagedBrands > 0 || plans.some((p) => p.plan.steps.length > 0))) return EXIT_CHANGES;
  return EXIT_OK;
}
