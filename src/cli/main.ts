// The CLI is a function: argv and streams in, exit code out.
// Commander wiring only; each command lives in src/cli/commands/.

import { Command, CommanderError } from 'commander';
import { RcsctlError, errorMessage } from '../errors.js';
import { VERSION } from '../version.js';
import type { CliIO, CommandContext, GlobalOptions } from './context.js';
import { EXIT_ERROR, EXIT_OK, type ExitCode } from './exit-codes.js';
import { registerApply } from './commands/apply.js';
import { registerCompletion } from './commands/completion.js';
import { registerDrift } from './commands/drift.js';
import { registerEmulator } from './commands/emulator.js';
import { registerExport } from './commands/export.js';
import { registerGraph } from './commands/graph.js';
import { registerPlan } from './commands/plan.js';
import { registerPreview } from './commands/preview.js';
import { registerShow } from './commands/show.js';
import { registerValidate } from './commands/validate.js';
import { hintFor } from './hints.js';
import { redactSecrets } from './redact.js';

/** Run rcsctl with `argv` (without node and script) and return the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let exitCode: ExitCode = EXIT_OK;
  const program = new Command('rcsctl');
  const ctx: CommandContext = {
    io,
    globals: () => readGlobals(program, io),
    exit: (code) => {
      exitCode = code;
    },
  };
  program
    .description('Configuration as code for RCS business-messaging brands.')
    .version(VERSION, '-V, --version', 'print the rcsctl version')
    .option('--base-url <url>', 'service base URL (env: RCSCTL_BASE_URL)')
    .option('--agency-base-url <url>', 'agency messaging base URL (env: RCSCTL_AGENCY_BASE_URL; default: the base URL)')
    .option('--token-file <file>', 'read the access token from this file')
    .option('--concurrency <n>', 'requests in flight at once', '8')
    .option('--no-color', 'no colour in output (NO_COLOR is honoured too)')
    .option('--sandbox', 'run against an in-process emulator; nothing leaves the machine', false)
    .option('--seed <file>', 'with --sandbox: the emulator seed (default: the example brand)')
    .option('--insecure-http', 'allow plain http:// to a non-loopback host', false)
    .option('--verbose', 'show every diagnostic, follow-on YAML errors included', false)
    .showHelpAfterError('(run rcsctl --help for usage)')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });

  registerValidate(program, ctx);
  registerPlan(program, ctx);
  registerApply(program, ctx);
  registerDrift(program, ctx);
  registerExport(program, ctx);
  registerEmulator(program, ctx);
  registerShow(program, ctx);
  registerPreview(program, ctx);
  registerGraph(program, ctx);
  registerCompletion(program, ctx);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors with 1.
      return err.exitCode === 0 ? EXIT_OK : EXIT_ERROR;
    }
    io.stderr.write(renderError(err, io.env, { sandbox: program.opts<{ sandbox?: boolean }>().sandbox === true }) + '\n');
    return EXIT_ERROR;
  }
}

/** The one place errors become text; secrets are scrubbed on the way out. */
export function renderError(err: unknown, env: Record<string, string | undefined>, opts: { sandbox?: boolean } = {}): string {
  const text = err instanceof RcsctlError ? `Error: ${err.message}` : `Error: ${errorMessage(err)}`;
  const hint = hintFor(err, opts);
  return redactSecrets(hint === undefined ? text : `${text}\n  hint: ${hint}`, env);
}

function readGlobals(program: Command, io: CliIO): GlobalOptions {
  const o = program.opts<{
    baseUrl?: string;
    agencyBaseUrl?: string;
    tokenFile?: string;
    concurrency: string;
    color: boolean;
    sandbox: boolean;
    seed?: string;
    insecureHttp: boolean;
    verbose: boolean;
  }>();
  const concurrency = Number(o.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new RcsctlError('E_USAGE', `--concurrency must be a whole number from 1 to 64, not "${o.concurrency}"`);
  }
  const color = o.color && io.env.NO_COLOR === undefined && io.stdout.isTTY === true;
  const globals: GlobalOptions = { concurrency, color, sandbox: o.sandbox, insecureHttp: o.insecureHttp, verbose: o.verbose };
  const baseUrl = o.baseUrl ?? io.env.RCSCTL_BASE_URL;
  const agencyBaseUrl = o.agencyBaseUrl ?? io.env.RCSCTL_AGENCY_BASE_URL;
  if (baseUrl !== undefined && baseUrl !== '') globals.baseUrl = baseUrl;
  if (agencyBaseUrl !== undefined && agencyBaseUrl !== '') globals.agencyBaseUrl = agencyBaseUrl;
  if (o.tokenFile !== undefined) globals.tokenFile = o.tokenFile;
  if (o.seed !== undefined) globals.seed = o.seed;
  return globals;
}
