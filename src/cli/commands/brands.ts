// `rcsctl brands [paths...]`: the brand ids the manifests declare, one a line
// or as a JSON array (for a CI matrix), optionally only those of one shard.
// Offline: nothing is sent; `rcsctl validate` reports what is wrong in them.

import type { Command } from 'commander';
import { loadManifests } from '../../manifest/index.js';
import { inShard, parseShard } from '../../plan/shard.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { rootOption, formatOption, formatValue, pathsArgument, pathsOrCwd } from '../options.js';

const BRANDS_FORMATS = ['text', 'json'] as const;

/** Register `rcsctl brands`. */
export function registerBrands(program: Command, ctx: CommandContext): void {
  const cmd = program.command('brands').description('list the brand ids the manifests declare, offline (a CI matrix: --format json)');
  pathsArgument(cmd);
  formatOption(cmd, BRANDS_FORMATS, 'output: text (one brand id a line) or json (an array of brand ids)');
  cmd
    .option('--shard <i/n>', 'only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .action(async (paths: string[] | undefined, opts: { format?: string; json?: boolean; shard?: string }) => {
      const format = formatValue(opts, BRANDS_FORMATS);
      const shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
      const { io } = ctx;
      const result = await loadManifests(pathsOrCwd(paths), { env: io.env, cwd: io.cwd, ...rootOption(ctx) });
      // A brand whose document failed the schema is still a brand of the directory.
      const ids = [...new Set([...result.brands.map((b) => b.brandId), ...result.skipped.map((s) => s.brandId)])].filter((id) => inShard(id, shard)).sort();
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      if (errors > 0) io.stderr.write(`note: the manifests have ${errors} error${errors === 1 ? '' : 's'}; rcsctl validate shows them\n`);
      io.stdout.write(format === 'json' ? JSON.stringify(ids) + '\n' : ids.map((id) => `${id}\n`).join(''));
      ctx.exit(EXIT_OK);
    });
}
