// `rcsctl report merge <files...>`: the JSON reports of CI shards (drift or
// plan) combined into the one report an unsharded run gives, in any format.
// The shards must be one whole set (each shard of one split, once) unless
// --allow-partial, which merges what there is under a banner and exits 1.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { mergeReports, type MergedReport, type ShardReport } from '../../report/merge.js';
import { checkRunRulesAgain } from '../../policy/run-rules.js';
import { renderComment } from '../../render/comment.js';
import { readShardReport } from '../../report/read-report.js';
import { brandErrorMarkdown, brandErrorText, STOPPED_HEADLINE } from '../../render/brand-error.js';
import { DRIFT_FORMATS, renderDrift } from '../../render/drift.js';
import { summaryLine as driftSummaryLine } from '../../render/drift-text.js';
import { partialText } from '../../render/partial.js';
import { renderPlanJson } from '../../render/plan-json.js';
import { renderPlanMarkdown } from '../../render/plan-markdown.js';
import { unmanagedBrandsText } from '../../render/unmanaged-brands.js';
import { policyFails, policyText } from '../../render/policy.js';
import { planTotals, renderPlans, requestsLine, totalLine } from '../../render/plan-text.js';
import { makeStyle, type Style } from '../../render/style.js';
import type { CommandContext } from '../context.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { commentOptions, commentValues, formatOption, formatValue, outOption, outValue } from '../options.js';
import { writeOutputFile } from '../../util/output-file.js';

interface MergeFlags {
  format?: string;
  json?: boolean;
  out?: string;
  output?: string;
  allowPartial: boolean;
  detailedExitcode: boolean;
  maxBytes?: string;
  fullReportUrl?: string;
  previewUrl?: string;
  graph: boolean;
}

/** Register `rcsctl report` and its `merge`. */
export function registerReport(program: Command, ctx: CommandContext): void {
  const report = program.command('report').description('work with saved JSON reports (offline)');
  const merge = report
    .command('merge')
    .description('combine the JSON reports of CI shards (drift --format json, or plan --format json) into one')
    .argument('<files...>', 'the shards\' JSON reports, all drift or all plan; or both, for one Markdown comment of the plan and its drift');
  outOption(merge, 'file', 'write the merged report to FILE (stdout gets a summary line)');
  formatOption(merge, DRIFT_FORMATS, 'output: text, json, markdown, or junit (drift reports only)');
  merge
    .option('--allow-partial', 'merge even when a shard is missing, given twice or from another split: the report says so in every format, and the exit code is 1', false)
    .option('--detailed-exitcode', 'exit 0 when clean, 2 when a plan has changes or drift was found, 1 on error (as plan --detailed-exitcode)', false)
    .option('--preview-url <url>', "with --format markdown, of plans: where the plan's preview is published (linked from the comment)")
    .option('--graph', "with --format markdown, of plans: add each brand's steps and their order as a Mermaid graph", false);
  commentOptions(merge);
  merge.action(async (files: string[], opts: MergeFlags) => {
    const format = formatValue(opts, DRIFT_FORMATS);
    const out = outValue(opts);
    const budget = commentValues(opts);
    // The plan's Markdown as plan --format markdown draws it: the preview's link, the steps' graph.
    const views: PlanViews = { graph: opts.graph, ...(opts.previewUrl !== undefined ? { previewLink: opts.previewUrl } : {}) };
    const shards = files.map((f) => readShardReport(resolve(ctx.io.cwd, f), f));
    const plans = shards.filter((r) => r.kind === 'plan');
    for (const unused of planViewsUnused(opts, format, plans.length)) ctx.io.stderr.write(`warning: ${unused}\n`);
    // Both kinds make one Markdown comment; in another format the merge refuses them, naming the files.
    if (format === 'markdown' && plans.length > 0 && plans.length < shards.length) {
      await mergeBoth(ctx, plans, shards.filter((r) => r.kind === 'drift'), { out, opts, budget, views });
      return;
    }
    const merged = await withRunRules(mergeReports(shards, { allowPartial: opts.allowPartial }));
    if (merged.kind === 'plan' && format === 'junit') throw new RcsctlError('E_USAGE', 'plans have no JUnit form: use --format text, json or markdown');
    if (out !== undefined) {
      const path = resolve(ctx.io.cwd, out);
      writeOutputFile(path, render(merged, format, makeStyle(false), budget, views), ctx.redaction);
      ctx.io.stdout.write(`${banner(merged, makeStyle(ctx.globals().color))}${headline(merged, files.length)}\n${costLine(merged)}Wrote the ${format} report to ${out}.\n`);
    } else {
      ctx.io.stdout.write(render(merged, format, makeStyle(ctx.globals().color), budget, views));
    }
    ctx.exit(exitCode(merged, opts.detailedExitcode));
  });
}

/**
 * Plans and drift reports together: one Markdown comment (render/comment.ts),
 * the drift the plan shows not repeated; the exit code is the worse of the two.
 */
async function mergeBoth(ctx: CommandContext, plans: ShardReport[], drifts: ShardReport[], run: { out: string | undefined; opts: MergeFlags; budget: Budget; views: PlanViews }): Promise<void> {
  const plan = await withRunRules(mergeReports(plans, { allowPartial: run.opts.allowPartial }));
  const drift = mergeReports(drifts, { allowPartial: run.opts.allowPartial });
  if (plan.kind !== 'plan' || drift.kind !== 'drift') throw new Error('merged reports of the wrong kind');
  const text = renderComment(plan.report, drift.report, { ...run.budget, ...run.views });
  if (run.out !== undefined) {
    writeOutputFile(resolve(ctx.io.cwd, run.out), text, ctx.redaction);
    const style = makeStyle(ctx.globals().color);
    ctx.io.stdout.write(`${banner(plan, style)}${headline(plan, plans.length)}\n${costLine(plan)}${headline(drift, drifts.length)}\n${costLine(drift)}Wrote the markdown report to ${run.out}.\n`);
  } else ctx.io.stdout.write(text);
  const codes = [exitCode(plan, run.opts.detailedExitcode), exitCode(drift, run.opts.detailedExitcode)];
  ctx.exit(codes.includes(EXIT_ERROR) ? EXIT_ERROR : codes.includes(EXIT_CHANGES) ? EXIT_CHANGES : EXIT_OK);
}

/** `--graph` and `--preview-url` given where they draw nothing (not Markdown, or drift reports only): each says so. */
function planViewsUnused(opts: MergeFlags, format: string, plans: number): string[] {
  const given = [...(opts.graph ? ['--graph'] : []), ...(opts.previewUrl !== undefined ? ['--preview-url'] : [])];
  if (given.length === 0 || (format === 'markdown' && plans > 0)) return [];
  const why = plans === 0 ? 'these reports hold no plan' : `the format is ${format}`;
  return given.map((flag) => `${flag} draws in the Markdown of plans, and ${why}: ignored`);
}

type Budget = ReturnType<typeof commentValues>;
type PlanViews = { graph: boolean; previewLink?: string };

/** A merged plan's rules on the whole run, checked again over all its brands (a shard saw only its own). */
async function withRunRules(merged: MergedReport): Promise<MergedReport> {
  return merged.kind === 'plan' ? { kind: 'plan', report: await checkRunRulesAgain(merged.report) } : merged;
}

function render(merged: MergedReport, format: (typeof DRIFT_FORMATS)[number], style: Style, budget: Budget, views: PlanViews): string {
  if (merged.kind === 'drift') return renderDrift(merged.report, format, style, budget);
  const file = merged.report;
  if (format === 'json') return renderPlanJson(file);
  // A shard that stopped on a manifest error of no brand: its error opens the view.
  const stopped = file.error;
  if (format === 'markdown') {
    const head = stopped !== undefined ? `${brandErrorMarkdown('manifests', stopped, STOPPED_HEADLINE).join('\n')}\n\n` : '';
    return head + renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion, ...budget, ...views, ...(file.partial !== undefined ? { partial: file.partial } : {}), ...(file.unmanagedBrands !== undefined ? { unmanagedBrands: file.unmanagedBrands } : {}), ...(file.policy !== undefined ? { policy: file.policy } : {}), ...(file.requests !== undefined ? { requests: file.requests } : {}) });
  }
  const unmanaged = [...unmanagedBrandsText(file.unmanagedBrands, style), ...policyText(file.policy, style, '')];
  const text = (stopped !== undefined ? [style.red(style.bold(`Plan: ${STOPPED_HEADLINE} in a shard.`)), ...brandErrorText(stopped, style), '', ''].join('\n') : '') + renderPlans(file.brands, style, file.requests !== undefined ? { requests: file.requests } : {}) + (unmanaged.length > 0 ? `\n${unmanaged.join('\n')}\n` : '');
  const partial = banner(merged, style);
  return partial === '' ? text : `${partial}\n${text}\n${partial}`;
}

/** The partial banner's lines (empty for a whole set). */
function banner(merged: MergedReport, style: Style): string {
  const gaps = merged.report.partial;
  if (gaps === undefined) return '';
  return partialText(gaps, merged.report.brands.length).map((l) => `${style.red(style.bold(l))}\n`).join('');
}

function headline(merged: MergedReport, parts: number): string {
  const n = merged.report.brands.length;
  const stopped = merged.report.error !== undefined ? `${merged.kind === 'drift' ? 'Drift' : 'Plan'}: ${STOPPED_HEADLINE} in a shard.` : undefined;
  const what = stopped ?? (merged.kind === 'drift' ? driftSummaryLine(merged.report.summary, merged.report.clean) : totalLine(planTotals(merged.report.brands)));
  return `${what} (${n} brand${n === 1 ? '' : 's'} from ${parts} report${parts === 1 ? '' : 's'})`;
}

/** The requests the shards' runs made, added up, as a line of its own (nothing when no shard counted them). */
function costLine(merged: MergedReport): string {
  const requests = merged.report.requests;
  return requests === undefined ? '' : `${requestsLine(requests)}\n`;
}

/**
 * 1 when the set is partial, a shard stopped, or a brand failed or has problems; then, as the
 * command that made the reports: drift 2 when drifted; a plan 2 with changes
 * only under --detailed-exitcode.
 */
function exitCode(merged: MergedReport, detailed: boolean): ExitCode {
  if (merged.report.partial !== undefined) return EXIT_ERROR;
  // A shard stopped by a manifest error of no brand (its report's `error`).
  if (merged.report.error !== undefined) return EXIT_ERROR;
  if (merged.report.brands.some((b) => b.problems.length > 0 || b.error !== undefined)) return EXIT_ERROR;
  if (merged.kind === 'plan' && (policyFails(merged.report.policy) || merged.report.brands.some((b) => policyFails(b.policy)))) return EXIT_ERROR;
  if (merged.kind === 'drift') return merged.report.clean ? EXIT_OK : EXIT_CHANGES;
  return detailed && ((merged.report.unmanagedBrands ?? []).length > 0 || merged.report.brands.some((b) => b.steps.length > 0)) ? EXIT_CHANGES : EXIT_OK;
}
