// `rcsctl drift <paths...>`: compare the manifests with the live service and
// report differences and states that need a person, as text, JSON, Markdown
// or JUnit. Exit 0 clean, 2 drift (any error or warning finding), 1 error.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { buildDrift, withUnmanagedBrands } from '../../report/build-drift.js';
import { DRIFT_FORMATS, renderDrift } from '../../render/drift.js';
import { summaryLine } from '../../render/drift-text.js';
import { requestsLine } from '../../render/plan-text.js';
import { unmanagedBrandsClause } from '../../render/unmanaged-brands.js';
import { STOPPED_HEADLINE } from '../../render/brand-error.js';
import { makeStyle } from '../../render/style.js';
import { DEFAULT_DRIFT_OPTIONS } from '../../report/types.js';
import { DOCS_URL, docsBase } from '../../version.js';
import type { CommandContext } from '../context.js';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from '../exit-codes.js';
import { brandOption, commentOptions, commentValues, formatOption, formatValue, outOption, outValue, pathsArgument, pathsOrCwd, targetOption } from '../options.js';
import { reportFailures, runPlan, selectionOf, withCacheOptions, withUnmanagedOption } from '../plan-run.js';
import { ManifestsStopped } from '../load.js';
import { shardOrigin } from '../../plan/shard.js';
import type { DriftReport } from '../../report/types.js';
import { writeOutputFile } from '../../util/output-file.js';

interface DriftFlags {
  format: string;
  json: boolean;
  out?: string;
  output?: string;
  brand?: string[];
  target?: string[];
  shard?: string;
  expiryWarning: string;
  reviewWarning: string;
  cacheDir?: string;
  cache: boolean;
  docsUrl?: string;
  unmanagedBrand?: string[];
  maxBytes?: string;
  fullReportUrl?: string;
}

/** Register `rcsctl drift`. */
export function registerDrift(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('drift')
    .description('report what differs from the manifests and which live states need attention (exit 0 clean, 2 drift, 1 error)');
  pathsArgument(cmd);
  outOption(cmd, 'file', 'write the report to FILE (stdout gets the summary line)');
  formatOption(cmd, DRIFT_FORMATS, 'output format');
  brandOption(cmd, 'check only this brand');
  targetOption(cmd);
  cmd
    .option('--shard <i/n>', 'check only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .option('--expiry-warning <days>', 'warn about agency files whose sendable window ends within DAYS', String(DEFAULT_DRIFT_OPTIONS.expiryWarningDays))
    .option('--review-warning <days>', 'warn about reviews waiting longer than DAYS', String(DEFAULT_DRIFT_OPTIONS.reviewWarningDays));
  commentOptions(cmd);
  withUnmanagedOption(withCacheOptions(cmd))
    .option('--docs-url <url>', `where the findings' help links point: the docs folder of your copy (default: ${DOCS_URL})`)
    .action(async (paths: string[] | undefined, flags: DriftFlags) => {
      const format = formatValue(flags, DRIFT_FORMATS);
      const docsUrl = docsBase(flags.docsUrl);
      const out = outValue(flags);
      const budget = commentValues(flags);
      const expiryWarningDays = days(flags.expiryWarning, '--expiry-warning');
      const reviewWarningDays = days(flags.reviewWarning, '--review-warning');
      const options = { expiryWarningDays, reviewWarningDays };
      let run: Awaited<ReturnType<typeof runPlan>>;
      try {
        run = await runPlan(ctx, pathsOrCwd(paths), selectionOf(flags));
      } catch (err) {
        // A manifest error of no brand stops the run; the report still says why (docs/ci.md).
        if (!(err instanceof ManifestsStopped)) throw err;
        const report: DriftReport = { ...buildDrift([], new Date(), options, [], docsUrl), clean: false, error: err.error };
        const shard = selectionOf(flags).shard;
        if (shard !== undefined) report.shard = shardOrigin(shard, err.all);
        if (out !== undefined) {
          writeOutputFile(resolve(ctx.io.cwd, out), renderDrift(report, format, makeStyle(false), budget), ctx.redaction);
          ctx.io.stdout.write(`Drift: ${STOPPED_HEADLINE}.\nWrote the ${format} report to ${out}.\n`);
        } else if (format !== 'text') ctx.io.stdout.write(renderDrift(report, format, makeStyle(false), budget));
        throw err;
      }
      const { outcomes, shard, unmanagedBrands } = run;
      const report = buildDrift(outcomes, new Date(), options, flags.target ?? [], docsUrl);
      if (shard !== undefined) report.shard = shard;
      if (unmanagedBrands !== undefined) withUnmanagedBrands(report, unmanagedBrands, docsUrl);
      report.requests = run.requests;
      const g = ctx.globals();
      if (out !== undefined) {
        const path = resolve(ctx.io.cwd, out);
        writeOutputFile(path, renderDrift(report, format, makeStyle(false), budget), ctx.redaction);
        // The verdict as the text view ends (unmanaged brands included), and what the run cost.
        ctx.io.stdout.write(`${summaryLine(report.summary, report.clean)}${unmanagedBrandsClause(report.unmanagedBrands)}\n${requestsLine(run.requests)}\nWrote the ${format} report to ${out}.\n`);
      } else {
        ctx.io.stdout.write(renderDrift(report, format, makeStyle(g.color), budget));
      }
      reportFailures(ctx, outcomes, { shownOnStdout: format === 'text' && out === undefined });
      ctx.exit(report.brands.some((b) => b.problems.length > 0 || b.error !== undefined) ? EXIT_ERROR : report.clean ? EXIT_OK : EXIT_CHANGES);
    });
}

function days(text: string, flag: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new RcsctlError('E_USAGE', `${flag} must be a whole number of days, not "${text}"`);
  return Number(text);
}
