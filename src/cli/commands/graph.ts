// `rcsctl graph [paths...]`: the brand as a graph (auto-replies and their
// links, images, rooms and menus), or with --plan FILE a saved plan's steps
// and their order, as Mermaid or Graphviz DOT. Offline, like `terraform graph`.

import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { brandGraph, planGraph, renderDot, renderMermaid, type Cluster } from '../../graph/graph.js';
import { readPlanFile } from '../../plan/plan-file.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { reportLoadFailures } from '../failures.js';
import { loadBrands } from '../load.js';
import { brandOption, outOption, outValue, pathsArgument, pathsOrCwd } from '../options.js';
import { writeOutputFile } from '../../util/output-file.js';

const GRAPH_FORMATS = ['mermaid', 'dot'] as const;

/** Register `rcsctl graph`. */
export function registerGraph(program: Command, ctx: CommandContext): void {
  const cmd = program.command('graph').description('draw the brand (or, with --plan, a saved plan) as a Mermaid or DOT graph');
  pathsArgument(cmd);
  const format = new Option('--format <format>', 'mermaid (renders in a GitHub comment) or dot (Graphviz)').default('mermaid');
  // Listed for help and completion (as formatOption does); checked in the action.
  format.argChoices = [...GRAPH_FORMATS];
  cmd.addOption(format).option('--plan <file>', "a saved plan (rcsctl plan -o FILE): its steps and the order they run in");
  outOption(cmd, 'file', 'write the graph to FILE instead of stdout');
  brandOption(cmd, 'draw only this brand');
  cmd.action(async (paths: string[] | undefined, opts: { format: string; plan?: string; out?: string; output?: string; brand?: string[] }) => {
    if (!(GRAPH_FORMATS as readonly string[]).includes(opts.format)) throw new RcsctlError('E_USAGE', `--format must be one of ${GRAPH_FORMATS.join(', ')}, not "${opts.format}"`);
    let clusters: Cluster[];
    let code: ExitCode = EXIT_OK;
    if (opts.plan !== undefined) {
      if (paths !== undefined && paths.length > 0) throw new RcsctlError('E_USAGE', 'give manifest paths or --plan FILE, not both');
      const file = readPlanFile(resolve(ctx.io.cwd, opts.plan));
      const only = opts.brand ?? [];
      const missing = only.filter((id) => !file.brands.some((b) => b.brandId === id));
      if (missing.length > 0) throw new RcsctlError('E_NO_BRAND', `plan file ${opts.plan} has no brand ${missing.join(', ')}`);
      clusters = file.brands.filter((b) => only.length === 0 || only.includes(b.brandId)).map(planGraph);
    } else {
      // A brand whose manifests have errors is reported, not drawn; the others are drawn in full.
      const { brands, failed } = await loadBrands(ctx, pathsOrCwd(paths), opts.brand !== undefined ? { brand: opts.brand } : {});
      clusters = brands.map(brandGraph);
      code = reportLoadFailures(ctx, failed, brands.length + failed.length, 'drawn');
    }
    const text = opts.format === 'dot' ? renderDot(clusters) : renderMermaid(clusters);
    const out = outValue(opts);
    if (out === undefined) ctx.io.stdout.write(text);
    else {
      writeOutputFile(resolve(ctx.io.cwd, out), text, ctx.redaction);
      ctx.io.stdout.write(`Wrote the ${opts.format} graph to ${out}.\n`);
    }
    ctx.exit(code);
  });
}
