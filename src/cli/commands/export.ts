// `rcsctl export --brand ID [--out DIR]`: write today's live brand as a
// manifest (DIR/brand.yaml) with its images (DIR/images/), so an existing
// brand can be adopted: `rcsctl plan DIR` right after shows no changes.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { buildManifest } from '../../export/build-manifest.js';
import { writeExport } from '../../export/write-export.js';
import { readLive } from '../../plan/read-live.js';
import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { makeProgress } from '../progress.js';
import { outOption, outValue } from '../options.js';

interface ExportFlags {
  brand: string;
  out?: string;
  output?: string;
  brandKeyEnv?: string;
  force: boolean;
}

/** Said in the output and the manifest: agency files cannot be exported. */
export const AGENCY_FILES_NOTE = 'Agency files are not exported: the service cannot list them. Add the ones you use under agencyFiles: by their fileId.';

/** Register `rcsctl export`. */
export function registerExport(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('export')
    .description('write a live brand as a manifest with its images, to adopt it (plan right after shows no changes)')
    .requiredOption('--brand <id>', 'the brand to export (required)');
  outOption(cmd, 'dir', 'directory to write brand.yaml and images/ into (default: ./<brand id>)');
  cmd
    .option('--brand-key-env <name>', 'agency accounts: read the brand key from this environment variable, and write key: "${env:NAME}"')
    .option('--force', 'overwrite an existing brand.yaml', false)
    .action(async (flags: ExportFlags) => {
      if (!/^BR\.[A-Za-z0-9]{10}$/.test(flags.brand)) throw new RcsctlError('E_USAGE', `--brand must be a brand id like BR.1234567890, not "${flags.brand}"`);
      if (flags.brandKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(flags.brandKeyEnv)) {
        throw new RcsctlError('E_USAGE', `--brand-key-env must be an environment variable name, not "${flags.brandKeyEnv}"`);
      }
      const { io } = ctx;
      let key: string | undefined;
      if (flags.brandKeyEnv !== undefined) {
        key = io.env[flags.brandKeyEnv];
        if (key === undefined || key === '') throw new RcsctlError('E_CONFIG', `--brand-key-env ${flags.brandKeyEnv}: the variable is not set`);
      }
      const g = ctx.globals();
      const dir = resolve(io.cwd, outValue(flags) ?? flags.brand);
      const conn = await connect(ctx, { declared: [key !== undefined ? { brandId: flags.brand, brandKey: key } : { brandId: flags.brand }] });
      const progress = makeProgress(io);
      try {
        const live = await readLive(conn.client, key !== undefined ? { id: flags.brand, key } : { id: flags.brand }, {
          concurrency: g.concurrency,
          onProgress: (done, total) => progress.update(flags.brand, done, total),
        });
        progress.done();
        const exported = buildManifest(live, flags.brandKeyEnv !== undefined ? { brandKeyEnv: flags.brandKeyEnv } : {});
        const header = [
          `Brand ${flags.brand}, exported by rcsctl export${g.sandbox ? ' (sandbox)' : ''}.`,
          'No `prune:` is written: rcsctl deletes nothing until you list kinds there.',
          AGENCY_FILES_NOTE,
        ];
        const result = await writeExport(exported, dir, { force: flags.force, concurrency: g.concurrency, header });
        const m = exported.manifest;
        const count = (k: string, one: string, many: string) => {
          const n = Object.keys((m[k] as Record<string, unknown> | undefined) ?? {}).length;
          return `${n} ${n === 1 ? one : many}`;
        };
        io.stdout.write(
          `Exported ${flags.brand}: ${count('autoReplies', 'auto-reply', 'auto-replies')}, ${count('files', 'file', 'files')}, ${count('logos', 'logo', 'logos')}, ${count('chatbots', 'chatbot', 'chatbots')}\n` +
            `  wrote ${resolve(result.manifestPath)} and ${result.images.length} image${result.images.length === 1 ? '' : 's'}\n`,
        );
        for (const note of result.notes) io.stdout.write(`  note: ${note}\n`);
        io.stdout.write(`  note: ${AGENCY_FILES_NOTE}\n`);
        io.stdout.write(`Check it with: rcsctl plan ${flags.out ?? flags.brand}\n`);
      } finally {
        progress.done();
        await conn.close();
      }
      ctx.exit(EXIT_OK);
    });
}
