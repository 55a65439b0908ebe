// `rcsctl preview [paths...]`: draw every auto-reply and room of each brand as
// a handset shows it, in one self-contained HTML page per brand. Offline.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeBrandPreviews, type Finding } from '../../preview/index.js';
import { shortPath } from '../../util/paths.js';
import { VERSION } from '../../version.js';
import type { CommandContext } from '../context.js';
import { reportLoadFailures } from '../failures.js';
import { loadBrands } from '../load.js';
import { brandOption, outOption, outValue, pathsArgument, pathsOrCwd } from '../options.js';

/** Register `rcsctl preview`. */
export function registerPreview(program: Command, ctx: CommandContext): void {
  const cmd = program.command('preview').description('draw each brand as a handset shows it: a static HTML site, no network needed');
  pathsArgument(cmd);
  outOption(cmd, 'dir', 'write the site here: index.html and one folder per brand (default: preview)');
  brandOption(cmd, 'preview only this brand');
  cmd.action(async (paths: string[] | undefined, opts: { out?: string; output?: string; brand?: string[] }) => {
    const { io } = ctx;
    // A brand whose manifests have errors is reported, not drawn; the others are drawn in full.
    const { brands, failed, diagnostics } = await loadBrands(ctx, pathsOrCwd(paths), opts.brand !== undefined ? { brand: opts.brand } : {});
    const dir = resolve(io.cwd, outValue(opts) ?? 'preview');
    // With no brand to draw, nothing is written.
    for (const b of brands.length === 0 ? [] : writeBrandPreviews(dir, brands, diagnostics, { cwd: io.cwd, version: VERSION, redaction: ctx.redaction })) {
      io.stdout.write(`${b.brandId}: ${b.summary}: ${shortPath(io.cwd, b.path)}\n`);
      io.stdout.write(findingLines(b.findings ?? []));
    }
    ctx.exit(reportLoadFailures(ctx, failed, brands.length + failed.length, 'drawn'));
  });
}

/**
 * The findings themselves under the summary line, so "2 findings" is not a
 * riddle. Lint findings were printed above with their file, line and caret;
 * they are only counted here.
 */
function findingLines(findings: readonly Finding[]): string {
  const lint = findings.filter((f) => f.code === 'lint').length;
  const lines = findings.filter((f) => f.code !== 'lint').map((f) => `  ${f.severity}: ${f.message}\n`);
  if (lint > 0) lines.push(`  and ${lint} lint warning${lint === 1 ? '' : 's'}, shown above\n`);
  return lines.join('');
}
