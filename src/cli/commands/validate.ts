// `rcsctl validate <paths...>`: load the manifests and report every diagnostic,
// without talking to the service.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { hasErrors, loadManifests, renderDiagnostics } from '../../manifest/index.js';
import type { DesiredBrand } from '../../manifest/index.js';
import type { CommandContext } from '../context.js';
import { EXIT_ERROR, EXIT_OK } from '../exit-codes.js';

/** Counts of what a brand declares, for the summary line and JSON output. */
function counts(b: DesiredBrand): { files: number; autoReplies: number; logos: number; chatbots: number; agencyFiles: number } {
  return {
    files: b.files.size,
    autoReplies: b.autoReplies.size,
    logos: b.logos.size,
    chatbots: b.chatbots.size,
    agencyFiles: b.agencyFiles.size,
  };
}

function n(count: number, one: string, many = one + 's'): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Register `rcsctl validate`. */
export function registerValidate(program: Command, ctx: CommandContext): void {
  program
    .command('validate')
    .description('check manifests offline: YAML, schema, local files, references and lint')
    .argument('<paths...>', 'manifest files or directories (read recursively for *.yaml, *.yml)')
    .option('--format <format>', 'output format: text or json', 'text')
    .option('--strict', 'fail (exit 1) on warnings too', false)
    .action(async (paths: string[], opts: { format: string; strict: boolean }) => {
      if (opts.format !== 'text' && opts.format !== 'json') {
        throw new RcsctlError('E_USAGE', `--format must be text or json, not "${opts.format}"`);
      }
      const { io } = ctx;
      const result = await loadManifests(paths, { env: io.env, cwd: io.cwd });
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = result.diagnostics.length - errors;
      const failed = hasErrors(result.diagnostics) || (opts.strict && warnings > 0);
      if (opts.format === 'json') {
        const out = {
          ok: !failed,
          errors,
          warnings,
          diagnostics: result.diagnostics,
          brands: result.brands.map((b) => ({ brandId: b.brandId, manifestFiles: b.manifestFiles, ...counts(b) })),
        };
        io.stdout.write(JSON.stringify(out, null, 2) + '\n');
      } else {
        io.stderr.write(renderDiagnostics(result.diagnostics, { color: ctx.globals().color, cwd: io.cwd }));
        if (!failed) {
          for (const b of result.brands) {
            const c = counts(b);
            io.stdout.write(
              `${b.brandId}: valid (${n(c.autoReplies, 'auto-reply', 'auto-replies')}, ${n(c.files, 'file')}, ${n(c.logos, 'logo')}, ${n(c.chatbots, 'chatbot')}, ${n(c.agencyFiles, 'agency file')})\n`,
            );
          }
        } else if (opts.strict && !hasErrors(result.diagnostics)) {
          io.stderr.write('warnings are errors under --strict\n');
        }
      }
      ctx.exit(failed ? EXIT_ERROR : EXIT_OK);
    });
}
