// `rcsctl report merge <files...>`: the JSON reports of CI shards (drift or
// plan) combined into the one report an unsharded run gives, in any format.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { mergeReports, type MergedReport } from '../../report/merge.js';
import { readShardReport } from '../../report/read-report.js';
import { DRIFT_FORMATS, renderDrift } from '../../render/drift.js';
import { summaryLine as driftSummaryLine } from '../../render/drift-text.js';
import { renderPlanJson } from '../../render/plan-json.js';
import { renderPlanMarkdown } from '../../render/plan-markdown.js';
import { renderPlan } from '../../render/plan-text.js';
import { makeStyle, type Style } from '../../render/style.js';
import type { CommandContext } from '../context.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { formatOption, formatValue, outOption, outValue } from '../options.js';
import { writeOutputFile } from '../../util/output-file.js';

/** Register `rcsctl report` and its `merge`. */
export function registerReport(program: Command, ctx: CommandContext): void {
  const report = program.command('report').description('work with saved JSON reports (offline)');
  const merge = report
    .command('merge')
    .description('combine the JSON reports of CI shards (drift --format json, or plan --format json) into one')
    .argument('<files...>', 'the shards\' JSON reports, all drift or all plan');
  outOption(merge, 'file', 'write the merged report to FILE (stdout gets a summary line)');
  formatOption(merge, DRIFT_FORMATS, 'output: text, json, markdown, or junit (drift reports only)');
  merge.action(async (files: string[], opts: { format?: string; json?: boolean; out?: string; output?: string }) => {
    const format = formatValue(opts, DRIFT_FORMATS);
    const out = outValue(opts);
    const merged = mergeReports(files.map((f) => readShardReport(resolve(ctx.io.cwd, f), f)));
    if (merged.kind === 'plan' && format === 'junit') throw new RcsctlError('E_USAGE', 'plans have no JUnit form: use --format text, json or markdown');
    if (out !== undefined) {
      const path = resolve(ctx.io.cwd, out);
      writeOutputFile(path, render(merged, format, makeStyle(false)), ctx.redaction);
      ctx.io.stdout.write(`${headline(merged, files.length)}\nWrote the ${format} report to ${out}.\n`);
    } else {
      ctx.io.stdout.write(render(merged, format, makeStyle(ctx.globals().color)));
    }
    ctx.exit(exitCode(merged));
  });
}

function render(merged: MergedReport, format: (typeof DRIFT_FORMATS)[number], style: Style): string {
  if (merged.kind === 'drift') return renderDrift(merged.report, format, style);
  const file = merged.report;
  if (format === 'json') return renderPlanJson(file);
  if (format === 'markdown') return renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion });
  return file.brands.map((b) => renderPlan(b, style)).join('\n');
}

function headline(merged: MergedReport, parts: number): string {
  const n = merged.report.brands.length;
  const what = merged.kind === 'drift' ? driftSummaryLine(merged.report.summary, merged.report.clean) : 'Plan merged.';
  return `${what} (${n} brand${n === 1 ? '' : 's'} from ${parts} report${parts === 1 ? '' : 's'})`;
}

/** As the command that made the reports: 1 when a brand failed or has problems; drift: 2 when drifted. */
function exitCode(merged: MergedReport): ExitCode {
  if (merged.kind === 'drift') {
    const r = merged.report;
    if (r.brands.some((b) => b.problems.length > 0 || b.error !== undefined)) return EXIT_ERROR;
    return r.clean ? EXIT_OK : EXIT_CHANGES;
  }
  return merged.report.brands.some((b) => b.error !== undefined || b.problems.length > 0) ? EXIT_ERROR : EXIT_OK;
}
