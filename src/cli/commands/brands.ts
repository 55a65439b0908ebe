// `rcsctl brands [paths...]`: the brand ids the manifests declare, one a line
// or as a JSON array (for a CI matrix), optionally only those of one shard;
// with --owners, each brand's owners, or a CODEOWNERS file of them.
// Offline: nothing is sent; `rcsctl validate` reports what is wrong in them.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { codeownersLines } from '../../manifest/codeowners.js';
import { loadManifests } from '../../manifest/index.js';
import { repositoryOf } from '../../manifest/local-files.js';
import { inShard, parseShard } from '../../plan/shard.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { rootOption, formatOption, formatValue, pathsArgument, pathsOrCwd } from '../options.js';

const BRANDS_FORMATS = ['text', 'json', 'codeowners'] as const;

/** Register `rcsctl brands`. */
export function registerBrands(program: Command, ctx: CommandContext): void {
  const cmd = program.command('brands').description('list the brand ids the manifests declare, offline (a CI matrix: --format json; owners: --owners)');
  pathsArgument(cmd);
  formatOption(cmd, BRANDS_FORMATS, 'output: text (one brand id a line), json (an array of brand ids; with --owners, of { brandId, owners }) or codeowners (a CODEOWNERS file of the brands\' owners)');
  cmd
    .option('--shard <i/n>', 'only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .option('--owners', "each brand's owners (`brand.owners`) beside its id", false)
    .action(async (paths: string[] | undefined, opts: { format?: string; json?: boolean; shard?: string; owners: boolean }) => {
      const format = formatValue(opts, BRANDS_FORMATS);
      const shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
      const { io } = ctx;
      const given = pathsOrCwd(paths);
      const result = await loadManifests(given, { env: io.env, cwd: io.cwd, ...rootOption(ctx) });
      // A brand whose document failed the schema is still a brand of the directory.
      const ids = [...new Set([...result.brands.map((b) => b.brandId), ...result.skipped.map((s) => s.brandId)])].filter((id) => inShard(id, shard)).sort();
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      if (errors > 0) io.stderr.write(`note: the manifests have ${errors} error${errors === 1 ? '' : 's'}; rcsctl validate shows them\n`);
      const byId = new Map(result.brands.map((b) => [b.brandId, b]));
      const ownersOf = (id: string): string[] => byId.get(id)?.owners ?? [];
      const unowned = ids.filter((id) => ownersOf(id).length === 0);
      if (format === 'codeowners') {
        const root = rootOption(ctx).root ?? (await repositoryOf(resolve(io.cwd, given[0] ?? '.')));
        const brands = ids.flatMap((id) => {
          const b = byId.get(id);
          return b === undefined ? [] : [{ brandId: id, owners: ownersOf(id), files: b.manifestFiles.map((f) => resolve(io.cwd, f)) }];
        });
        let lines: string[];
        try {
          lines = codeownersLines(brands, root);
        } catch (err) {
          throw new RcsctlError('E_USAGE', `${(err as Error).message}: run rcsctl brands from the repository, or name it with --root`);
        }
        const unread = ids.filter((id) => !byId.has(id));
        io.stdout.write(['# Made by `rcsctl brands --owners --format codeowners` from each brand\'s `brand.owners`; make it again after changing them.', ...lines].join('\n') + '\n');
        if (unowned.length > 0) io.stderr.write(`note: ${unowned.length} brand${unowned.length === 1 ? ' declares' : 's declare'} no owners (${unowned.join(', ')})${unread.length > 0 ? `; ${unread.join(', ')} could not be read (errors above)` : ''}\n`);
      } else if (opts.owners) {
        if (format === 'json') io.stdout.write(JSON.stringify(ids.map((id) => ({ brandId: id, owners: ownersOf(id) }))) + '\n');
        else io.stdout.write(ids.map((id) => `${id}\t${ownersOf(id).length > 0 ? ownersOf(id).join(' ') : '(no owners)'}\n`).join(''));
      } else {
        io.stdout.write(format === 'json' ? JSON.stringify(ids) + '\n' : ids.map((id) => `${id}\n`).join(''));
      }
      ctx.exit(EXIT_OK);
    });
}
