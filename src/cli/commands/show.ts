// `rcsctl show <plan.json>`: print a saved plan as text, JSON or Markdown,
// without talking to the service (as `terraform show` does for a plan file).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readPlanFile } from '../../plan/plan-file.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { renderPlanJson } from '../../render/plan-json.js';
import { renderPlanMarkdown } from '../../render/plan-markdown.js';
import { renderPlans } from '../../render/plan-text.js';
import { unmanagedBrandsText } from '../../render/unmanaged-brands.js';
import { policyText } from '../../render/policy.js';
import { makeStyle } from '../../render/style.js';
import { formatOption, formatValue, outOption, outValue } from '../options.js';
import { previewOptions, writePlanPreview } from '../preview-option.js';
import { writeOutputFile } from '../../util/output-file.js';

const FORMATS = ['text', 'json', 'markdown'] as const;

/** Register `rcsctl show`. */
export function registerShow(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('show')
    .description('print a saved plan (from `rcsctl plan --out`) without contacting the service')
    .argument('<plan-file>', 'a plan file written by `rcsctl plan --out` (required)');
  outOption(cmd, 'file', 'write it to FILE instead of stdout');
  formatOption(cmd, FORMATS, 'output');
  previewOptions(cmd);
  cmd.action(async (path: string, opts: { format: string; json: boolean; out?: string; output?: string; preview?: string; previewUrl?: string; graph: boolean }) => {
    const format = formatValue(opts, FORMATS);
    const out = outValue(opts);
    const file = readPlanFile(resolve(ctx.io.cwd, path));
    // The saved plan alone: images come from its upload steps' files, names from its steps.
    const notes: string[] = [];
    const preview = opts.preview === undefined ? undefined : await writePlanPreview(ctx, opts.preview, file.brands.map((plan) => ({ plan })), notes);
    ctx.io.stderr.write(notes.join(''));
    const link = opts.previewUrl ?? preview;
    let text: string;
    if (format === 'json') text = renderPlanJson(file);
    // What the plan holds beside its brands: the live brands no manifest declares and the rules the whole run breaks, as plan showed them.
    else if (format === 'markdown') text = renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion, graph: opts.graph, ...(link === undefined ? {} : { previewLink: link }), ...(file.unmanagedBrands !== undefined ? { unmanagedBrands: file.unmanagedBrands } : {}), ...(file.policy !== undefined ? { policy: file.policy } : {}), ...(file.requests !== undefined ? { requests: file.requests } : {}) });
    else {
      const style = makeStyle(out === undefined && ctx.globals().color);
      const beside = [unmanagedBrandsText(file.unmanagedBrands, style), policyText(file.policy, style, '')].filter((b) => b.length > 0).map((b) => `\n${b.join('\n')}\n`);
      text = `Saved plan ${path}, made ${file.createdAt} against ${file.baseUrl} by rcsctl ${file.rcsctlVersion}\n\n` + renderPlans(file.brands, style, file.requests !== undefined ? { requests: file.requests } : {}) + beside.join('');
    }
    if (out === undefined) ctx.io.stdout.write(text);
    else {
      writeOutputFile(resolve(ctx.io.cwd, out), text, ctx.redaction);
      ctx.io.stdout.write(`Wrote the ${format} view of ${path} to ${out}.\n`);
    }
    ctx.exit(EXIT_OK);
  });
}
