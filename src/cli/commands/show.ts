// `rcsctl show <plan.json>`: print a saved plan as text, JSON or Markdown,
// without talking to the service (as `terraform show` does for a plan file).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { readPlanFile } from '../../plan/plan-file.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { renderPlan } from '../render-plan.js';
import { renderPlanMarkdown } from '../render-plan-markdown.js';
import { makeStyle } from '../style.js';
import { withSummaries } from './plan.js';

const FORMATS = ['text', 'json', 'markdown'] as const;

/** Register `rcsctl show`. */
export function registerShow(program: Command, ctx: CommandContext): void {
  program
    .command('show')
    .description('print a saved plan (from `rcsctl plan --out`) without contacting the service')
    .argument('<plan-file>', 'a plan file written by `rcsctl plan --out`')
    .option('--format <format>', `output: ${FORMATS.join(', ')}`, 'text')
    .option('--json', 'the same as --format json', false)
    .action((path: string, opts: { format: string; json: boolean }) => {
      const format = opts.json ? 'json' : opts.format;
      if (!(FORMATS as readonly string[]).includes(format)) throw new RcsctlError('E_USAGE', `--format must be ${FORMATS.join(', ')}, not "${format}"`);
      const file = readPlanFile(resolve(ctx.io.cwd, path));
      const { stdout } = ctx.io;
      if (format === 'json') stdout.write(JSON.stringify(withSummaries(file), null, 2) + '\n');
      else if (format === 'markdown') stdout.write(renderPlanMarkdown(file.brands, { rcsctlVersion: file.rcsctlVersion }));
      else {
        const style = makeStyle(ctx.globals().color);
        stdout.write(`Saved plan ${path}, made ${file.createdAt} against ${file.baseUrl} by rcsctl ${file.rcsctlVersion}\n\n`);
        stdout.write(file.brands.map((b) => renderPlan(b, style)).join('\n'));
      }
      ctx.exit(EXIT_OK);
    });
}
