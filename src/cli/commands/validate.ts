// `rcsctl validate <paths...>`: load the manifests and report every diagnostic,
// without talking to the service.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { hasErrors, loadManifests, renderDiagnostics, sortDiagnostics } from '../../manifest/index.js';
import { labelsOf, policyDiagnostics, withLabelOption } from '../policy-run.js';
import type { DesiredBrand } from '../../manifest/index.js';
import { countsByKind, declaredCounts, describeCounts } from '../../kinds/counts.js';
import { inShard, missingBrandsMessage, parseShard } from '../../plan/shard.js';
import type { CommandContext } from '../context.js';
import { credentialsInPlay, protectSensitive } from '../secrets.js';
import { EXIT_ERROR, EXIT_OK } from '../exit-codes.js';
import { brandOption, rootOption, formatOption, formatValue, outOption, outValue, pathsArgument, pathsOrCwd } from '../options.js';
import { renderValidateJunit, renderValidateMarkdown, type ValidateResult } from '../../render/validate.js';
import { writeOutputFile } from '../../util/output-file.js';

function n(count: number, one: string, many = one + 's'): string {
  return `${count} ${count === 1 ? one : many}`;
}

const VALIDATE_FORMATS = ['text', 'json', 'markdown', 'junit'] as const;

interface ValidateOptions {
  format: string;
  json: boolean;
  strict: boolean;
  out?: string;
  output?: string;
  brand?: string[];
  shard?: string;
  label?: string[];
}

/** The report in `format`; `text` renders the compiler-style view. */
function report(format: (typeof VALIDATE_FORMATS)[number], result: ValidateResult, brands: DesiredBrand[], strict: boolean, text: () => string): string {
  switch (format) {
    case 'json':
      return JSON.stringify({ ...result, brands: brands.map((b) => ({ brandId: b.brandId, manifestFiles: b.manifestFiles, counts: countsByKind(declaredCounts(b)) })) }, null, 2) + '\n';
    case 'markdown':
      return renderValidateMarkdown(result);
    case 'junit':
      return renderValidateJunit(result, { strict });
    case 'text':
      return text();
    default: {
      const never: never = format;
      throw new Error(`unknown format ${String(never)}`);
    }
  }
}

/** Register `rcsctl validate`. */
export function registerValidate(program: Command, ctx: CommandContext): void {
  const cmd = program.command('validate').description('check manifests offline: YAML, schema, local files, references and lint');
  pathsArgument(cmd);
  outOption(cmd, 'file', 'write the report to FILE (stdout gets the verdict line)');
  formatOption(cmd, VALIDATE_FORMATS, 'output format');
  brandOption(cmd, 'report only this brand');
  withLabelOption(cmd)
    .option('--shard <i/n>', 'check only the brands of shard i of n, and files that belong to no brand (split by brand id; see docs/ci.md)')
    .option('--strict', 'fail (exit 1) on warnings too (never on notes)', false)
    .action(async (paths: string[] | undefined, opts: ValidateOptions) => {
      const format = formatValue(opts, VALIDATE_FORMATS);
      const outPath = outValue(opts);
      const { io } = ctx;
      const loaded = await loadManifests(pathsOrCwd(paths), { env: io.env, cwd: io.cwd, credentials: credentialsInPlay(ctx), liveChecked: true, keepDocs: true, ...rootOption(ctx) });
      protectSensitive(ctx, loaded.sensitive);
      const only = opts.brand ?? [];
      const shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
      // A brand's files: those it loaded from, and those left out for errors that are its (a broken file in its folder).
      const owners = new Map<string, string[]>();
      for (const b of loaded.brands) for (const f of b.manifestFiles) owners.set(f, [...(owners.get(f) ?? []), b.brandId]);
      for (const k of loaded.skipped) owners.set(k.file, [...(owners.get(k.file) ?? []), k.brandId]);
      const declared = [...new Set([...owners.values()].flat())].sort();
      const chosen = (id: string): boolean => (only.length === 0 || only.includes(id)) && inShard(id, shard);
      const missing = only.filter((id) => !declared.includes(id) || !inShard(id, shard));
      if (missing.length > 0) throw new RcsctlError('E_NO_BRAND', missingBrandsMessage(missing, declared, shard));
      const brands = loaded.brands.filter((b) => chosen(b.brandId));
      // With --brand, only the brand's files; a shard checks its brands' files and every file that belongs to no brand (as plan does).
      const files = only.length === 0 && shard === undefined ? loaded.files : loaded.files.filter((f) => owners.get(f)?.some(chosen) ?? only.length === 0);
      // The policy rules on the manifests (docs/policies.md), over the brands checked: a broken rule at the value, with the rule's place.
      const policy = await policyDiagnostics(loaded, brands, labelsOf(ctx, opts));
      const diagnostics = sortDiagnostics([...(only.length === 0 && shard === undefined ? loaded.diagnostics : loaded.diagnostics.filter((d) => files.includes(d.file) && (d.brands === undefined || d.brands.some(chosen)))), ...policy]);
      const errors = diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
      const notes = diagnostics.filter((d) => d.severity === 'note').length;
      // A note never fails the run, not even under --strict: it says what only the live service settles.
      const failed = hasErrors(diagnostics) || (opts.strict && warnings > 0);
      const result = { ok: !failed, errors, warnings, notes, diagnostics, files };
      // One brand's errors leave the others' verdicts standing (listed when any brand is valid).
      const errorsOf = (id: string): number => diagnostics.filter((d) => d.severity === 'error' && d.followOn !== true && (d.brands ?? owners.get(d.file))?.includes(id) === true).length;
      const verdict = (id: string): string => {
        const b = brands.find((x) => x.brandId === id);
        const bad = errorsOf(id);
        return b === undefined || bad > 0 ? `${id}: invalid (${n(Math.max(1, bad), 'error')})\n` : `${id}: valid (${describeCounts(declaredCounts(b))})\n`;
      };
      const verdictLines = declared.filter(chosen).map(verdict);
      const verdicts = failed && opts.strict && errors === 0 ? 'warnings are errors under --strict\n' : verdictLines.some((v) => v.includes(': valid (')) ? verdictLines.join('') : '';
      if (outPath !== undefined) {
        const path = resolve(io.cwd, outPath);
        writeOutputFile(path, report(format, result, brands, opts.strict, () => renderDiagnostics(diagnostics, { color: false, cwd: io.cwd, verbose: ctx.globals().verbose === true }) + verdicts), ctx.redaction);
        io.stdout.write(`${failed ? 'invalid' : 'valid'}: ${n(errors, 'error')}, ${n(warnings, 'warning')}${notes > 0 ? `, ${n(notes, 'note')}` : ''}\nWrote the ${format} report to ${outPath}.\n`);
      } else if (format === 'text') {
        // Diagnostics go to stderr, as a compiler's do; the verdicts to stdout.
        io.stderr.write(renderDiagnostics(diagnostics, { color: ctx.globals().color, cwd: io.cwd, verbose: ctx.globals().verbose === true }));
        (failed ? io.stderr : io.stdout).write(verdicts);
      } else {
        io.stdout.write(report(format, result, brands, opts.strict, () => ''));
      }
      ctx.exit(failed ? EXIT_ERROR : EXIT_OK);
    });
}
