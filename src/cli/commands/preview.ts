// `rcsctl preview <paths...>`: draw every auto-reply and room of each brand as
// a handset shows it, in one self-contained HTML page per brand. Offline.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeBrandPreviews } from '../../preview/index.js';
import { shortPath } from '../../util/paths.js';
import { VERSION } from '../../version.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { loadWithDiagnostics } from '../load.js';

/** Register `rcsctl preview`. */
export function registerPreview(program: Command, ctx: CommandContext): void {
  program
    .command('preview')
    .description('draw each brand as a handset shows it: a static HTML site, no network needed')
    .argument('<paths...>', 'manifest files or directories')
    .option('-o, --out <dir>', 'write the site here (one folder per brand, and index.html)', 'preview')
    .option('--brand <id>', 'preview only this brand')
    .action(async (paths: string[], opts: { out: string; brand?: string }) => {
      const { io } = ctx;
      const { brands, diagnostics } = await loadWithDiagnostics(ctx, paths, opts.brand);
      const dir = resolve(io.cwd, opts.out);
      for (const b of writeBrandPreviews(dir, brands, diagnostics, { cwd: io.cwd, version: VERSION })) {
        io.stdout.write(`${b.brandId}: ${b.summary}: ${shortPath(io.cwd, b.path)}\n`);
      }
      ctx.exit(EXIT_OK);
    });
}

