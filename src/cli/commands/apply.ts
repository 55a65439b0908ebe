// `rcsctl apply <paths...> | --plan FILE`: make the live brand match, in
// dependency order, never sending what a state forbids, then re-read and verify.
// The run is src/apply/apply-run.ts; src/cli/apply-run.ts connects and shows it.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { APPLY_FORMATS, applyCommand, type ApplyOptions } from '../apply-run.js';
import type { CommandContext } from '../context.js';
import { formatOption, formatValue, pathsOrCwd } from '../options.js';
import { withCacheOptions } from '../plan-run.js';
import { withLabelOption } from '../policy-run.js';
import { reviewedThings } from '../../kinds/index.js';
import { withKindOptions } from '../kind-options.js';

/** Register `rcsctl apply`. */
export function registerApply(program: Command, ctx: CommandContext): void {
  const cmd = program.command('apply');
  formatOption(cmd, APPLY_FORMATS, 'output: text, or json (every step\'s outcome and the ids learnt on stdout; the human view goes to stderr)');
  cmd
    .description('make the live service match the manifests (or run a saved plan)')
    .argument('[paths...]', 'manifest files or directories (default: .; not with --plan)')
    .option('--plan <file>', 'apply exactly the steps of a saved plan (rcsctl plan --out)')
    .option('--reviewed <file>', 'with --plan: refuse the plan (exit 1, nothing sent) if it holds a step, by brand and step id, that this reviewed plan does not')
    .option('--allow-delete', 'run delete steps (saved plans may hold them without this flag)', false)
    .option('--allow-review', `run steps that send ${reviewedThings()} to operator review`, false)
    .option('--cancel-review', 'change what waits for review by withdrawing the review first (needs --allow-delete too)', false)
    .option('-y, --yes', 'do not ask for confirmation', false)
    .option('--auto-approve', 'the same as --yes (as in terraform)')
    .option('--brand <id>', 'apply only this brand (repeat for several)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option(
      '--target <address>',
      'only this resource (autoReply.hours, or autoReply.* for a kind) and what it depends on; for exceptions, not routine use (repeat for several)',
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('--shard <i/n>', 'apply only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .option('--lock-timeout <duration>', 'wait this long for another rcsctl apply or controller holding the same brand (0, 30s, 5m)', '0s')
    .option('--lock-url <url>', 'take the brand locks in this PostgreSQL database (postgres://USER:PASSWORD@HOST:5432/DB), shared by every machine, instead of lock files on this one (env: RCSCTL_LOCK_URL; docs/concurrency.md)')
    .option('--dedupe', 'first clear live copies sharing a managed name: keep one, re-point links to it, delete the others (needs --allow-delete)', false);
  withLabelOption(withCacheOptions(withKindOptions(cmd)))
    .addHelpText('after', '\nExit codes: 0 the live service matches; 1 error (nothing sent for bad input, or a step failed);\n3 finished, but some steps were blocked by a state or held by a gate;\n130 interrupted (SIGINT, SIGTERM). See docs/apply.md and docs/exit-codes.md.')
    .action(async (paths: string[], opts: ApplyOptions) => {
      if (opts.reviewed !== undefined && opts.plan === undefined) throw new RcsctlError('E_USAGE', '--reviewed bounds a saved plan: give --plan FILE too (the plan made now) and --reviewed FILE (the plan the approver saw)');
      if (opts.plan !== undefined && paths.length > 0) throw new RcsctlError('E_USAGE', 'give manifest paths or --plan FILE, not both');
      if (opts.plan !== undefined && (opts.target ?? []).length > 0) throw new RcsctlError('E_USAGE', '--target works on manifests, not with --plan: a saved plan runs exactly its steps (make it with plan --target)');
      if (opts.plan !== undefined && opts.dedupe) throw new RcsctlError('E_USAGE', '--dedupe works on manifests, not with --plan: a saved plan runs exactly its steps');
      if (opts.autoApprove === true) opts.yes = true;
      ctx.exit(await applyCommand(ctx, pathsOrCwd(paths), opts, formatValue(opts, APPLY_FORMATS)));
    });
}
