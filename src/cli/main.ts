// The CLI is a function: argv and streams in, exit code out.
// Commander wiring only; each command lives in src/cli/commands/.

import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { RcsctlError, errorMessage } from '../errors.js';
import { VERSION } from '../version.js';
import type { CliIO, CommandContext, GlobalOptions } from './context.js';
import { EXIT_ERROR, EXIT_OK, type ExitCode } from './exit-codes.js';
import { hintFor } from './hints.js';
import { credentialsFromEnv } from '../manifest/sensitive.js';
import { SafeStream } from './safe-output.js';
import { Redaction } from '../util/redaction.js';
import { hideWhenShortening } from '../core/shorten.js';
import { concurrencyValue } from './options.js';

type Register = (program: Command, ctx: CommandContext) => void;

// Each command's module, loaded only when needed: a run loads the command it
// runs (and what that command imports), not the emulator, listr2, the YAML
// parser or the HTTP client of every other command. Order = the order in help.
const COMMANDS: Record<string, () => Promise<Register>> = {
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  plan: async () => (await import('./commands/plan.js')).registerPlan,
  apply: async () => (await import('./commands/apply.js')).registerApply,
  drift: async () => (await import('./commands/drift.js')).registerDrift,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  brands: async () => (await import('./commands/brands.js')).registerBrands,
  report: async () => (await import('./commands/report.js')).registerReport,
  export: async () => (await import('./commands/export.js')).registerExport,
  controller: async () => (await import('./commands/controller.js')).registerController,
  emulator: async () => (await import('./commands/emulator.js')).registerEmulator,
  show: async () => (await import('./commands/show.js')).registerShow,
  render: async () => (await import('./commands/render.js')).registerRender,
  preview: async () => (await import('./commands/preview.js')).registerPreview,
  graph: async () => (await import('./commands/graph.js')).registerGraph,
  completion: async () => (await import('./commands/completion.js')).registerCompletion,
};

/** Global options that take a value (so the word after them is not the command). */
const GLOBAL_VALUE_OPTIONS = new Set(['--base-url', '--agency-base-url', '--token-file', '--concurrency', '--max-concurrency', '--seed', '--root']);

/**
 * The commands a run needs registered: the one it names; none for a bare
 * --version; every one for help, completion, a typo (for the suggestion) or no
 * command at all.
 */
export function commandsFor(argv: readonly string[]): string[] {
  let word: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    word = arg;
    break;
  }
  const all = Object.keys(COMMANDS);
  if (word === undefined) return argv.includes('--version') || argv.includes('-V') ? [] : all;
  return word in COMMANDS && word !== 'completion' ? [word] : all;
}

/** One command as its definition states it: its words (`report merge`) and each option's flags and choices. */
export interface CommandShape {
  path: string[];
  options: { flags: string; long?: string; choices: readonly string[] }[];
}

/**
 * The whole program as a run defines it (global options and every command),
 * for what reads the definitions without running them: the command shapes
 * below and the tests of the completion scripts.
 */
export async function definedProgram(): Promise<Command> {
  const program = new Command('rcsctl');
  const ctx: CommandContext = { io: { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: '.' }, globals: () => readGlobals(program, ctx.io), exit: () => undefined, redaction: new Redaction() };
  defineGlobals(program, ctx.io);
  for (const register of await Promise.all(Object.values(COMMANDS).map((load) => load()))) register(program, ctx);
  return program;
}

/**
 * Every command rcsctl defines, subcommands as their own entries, read from the
 * commander definitions themselves: a test that must cover every command and
 * every format (test/e2e/no-secret-written.test.ts) cannot miss a new one.
 */
export async function commandShapes(): Promise<CommandShape[]> {
  const program = await definedProgram();
  const out: CommandShape[] = [];
  const walk = (cmd: Command, path: string[]): void => {
    // A command with arguments of its own runs too (controller [paths...] beside controller sync).
    if (cmd.commands.length === 0 || cmd.registeredArguments.length > 0) {
      out.push({ path, options: cmd.options.map((o) => ({ flags: o.flags, ...(o.long !== undefined ? { long: o.long } : {}), choices: o.argChoices ?? [] })) });
    }
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  for (const cmd of program.commands) walk(cmd, [cmd.name()]);
  return out;
}

/** Run rcsctl with `argv` (without node and script) and return the exit code. */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  // One redaction for the run: both streams, every file written. Credentials
  // from the environment never print, wherever they turn up (a manifest excerpt, an echoed error).
  // A long value is cut for display (src/core/shorten.ts) before any door sees it: the cut hides the secrets first.
  const redaction = new Redaction((added) => hideWhenShortening(added.map((s) => s.value)));
  redaction.add(credentialsFromEnv(rawIo.env).map((c) => ({ name: c.label, value: c.value })));
  // Every byte written goes through the terminal guard (src/cli/safe-output.ts).
  const io: CliIO = { ...rawIo, stdout: new SafeStream(rawIo.stdout, redaction), stderr: new SafeStream(rawIo.stderr, redaction) };
  let exitCode: ExitCode = EXIT_OK;
  const program = new Command('rcsctl');
  const ctx: CommandContext = {
    io,
    redaction,
    globals: () => readGlobals(program, io),
    exit: (code) => {
      exitCode = code;
    },
  };
  defineGlobals(program, io);

  const registers = await Promise.all(commandsFor(argv).map((name) => (COMMANDS[name] as () => Promise<Register>)()));
  for (const register of registers) register(program, ctx);

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
  // The run's streams redact too; this text is also used outside them (tests, the library).
  const redaction = new Redaction();
  redaction.add(credentialsFromEnv(env).map((c) => ({ name: c.label, value: c.value })));
  return redaction.text(hint === undefined ? text : `${text}\n  hint: ${hint}`);
}

/** The program's description, version, global options, help and output: everything but the commands. */
function defineGlobals(program: Command, io: CliIO): void {
  program
    .description('Configuration as code for RCS business-messaging brands.')
    .version(VERSION, '-V, --version', 'print the rcsctl version')
    .option('--base-url <url>', 'service base URL (env: RCSCTL_BASE_URL)')
    .option('--agency-base-url <url>', 'agency messaging base URL (env: RCSCTL_AGENCY_BASE_URL; default: the base URL)')
    .option('--token-file <file>', 'read the access token from this file')
    .option('--concurrency <n>', 'requests in flight at once, every brand together: auto (adaptive: finds the service\'s rate limit) or a fixed number from 1 to 64', 'auto')
    .option('--max-concurrency <n>', 'the most requests in flight that --concurrency auto may reach (default 32)')
    .option('--no-color', 'no colour in output (NO_COLOR is honoured too)')
    .option('--sandbox', 'run against an in-process emulator; nothing leaves the machine', false)
    .option('--seed <file>', 'the emulator seed, for --sandbox and rcsctl emulator (default: the example brand)')
    .option('--root <dir>', 'the folder `path:` files in manifests must stay in (env: RCSCTL_ROOT; default: the repository holding the manifest)')
    .option('--insecure-http', 'allow plain http:// to a non-loopback host', false)
    .option('--verbose', 'show every diagnostic, follow-on YAML errors included, and every step an interrupted apply never started', false)
    .addHelpText('after', environmentHelp())
    .showHelpAfterError('(run rcsctl --help for usage)')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
}

/**
 * Every environment variable rcsctl reads, for `rcsctl --help`
 * (docs/configuration.md says more of each). test/e2e/help.test.ts checks
 * that each RCSCTL_ name the sources read is here.
 */
export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['RCSCTL_BASE_URL', 'the service base URL (--base-url wins)'],
  ['RCSCTL_AGENCY_BASE_URL', 'the agency messaging base URL (--agency-base-url wins)'],
  ['RCSCTL_TOKEN', 'a ready access token'],
  ['RCSCTL_CLIENT_ID', 'with RCSCTL_CLIENT_SECRET: exchanged for an access token'],
  ['RCSCTL_CLIENT_SECRET', 'the client secret of RCSCTL_CLIENT_ID'],
  ['RCSCTL_BRAND_KEY_<brand>', 'an agency brand key for saved plans (brand id with _ for . and -)'],
  ['RCSCTL_PERSON_ID', 'the account that reads and changes a brand profile page (export --account wins)'],
  ['RCSCTL_WEBHOOK_TOKEN', 'the bearer token the controller\'s /webhook requires'],
  ['RCSCTL_CONTROLLER_TOKEN', 'the bearer token of the controller\'s control API (sync, suspend, resume), for the controller and its client'],
  ['RCSCTL_CONTROLLER_URL', 'the controller\'s URL, for rcsctl controller sync|suspend|resume (--controller wins)'],
  ['RCSCTL_ADVERTISE_URL', 'the controller replica\'s own webhook URL, where standbys forward notifications (--advertise-url wins)'],
  ['RCSCTL_PLAN_KEY', 'the key that seals secrets in saved plans and the live cache (CI: a pipeline secret; else this machine\'s own)'],
  ['RCSCTL_SENSITIVE_VARS', 'which ${env:NAME} variables are secrets (globs, comma-separated)'],
  ['RCSCTL_CACHE_DIR', 'where the live-state cache lives (else $XDG_CACHE_HOME/rcsctl, ~/.cache/rcsctl)'],
  ['RCSCTL_ROOT', 'the folder `path:` files in manifests must stay in (--root wins; else the repository holding the manifest)'],
  ['RCSCTL_LOCK_DIR', 'where the per-brand apply locks live'],
  ['RCSCTL_LOCK_URL', 'a postgres:// URL: take the apply locks in PostgreSQL, across machines (--lock-url wins)'],
  ['RCSCTL_LABELS', 'the pull request\'s labels, comma-separated, for policy rules (`labels`; --label adds more; docs/policies.md)'],
  ['RCSCTL_DEBUG', 'http, limiter or all: trace requests or the concurrency to stderr'],
  ['NO_COLOR', 'no colour in output'],
];

function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return ['', 'Environment (docs/configuration.md):', ...ENVIRONMENT.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`)].join('\n');
}

function readGlobals(program: Command, io: CliIO): GlobalOptions {
  const o = program.opts<{
    baseUrl?: string;
    agencyBaseUrl?: string;
    tokenFile?: string;
    concurrency: string;
    maxConcurrency?: string;
    color: boolean;
    sandbox: boolean;
    seed?: string;
    root?: string;
    insecureHttp: boolean;
    verbose: boolean;
  }>();
  const { setting, fanOut: concurrency } = concurrencyValue(o.concurrency, o.maxConcurrency);
  const color = o.color && io.env.NO_COLOR === undefined && io.stdout.isTTY === true;
  const globals: GlobalOptions = { concurrency, concurrencySetting: setting, color, sandbox: o.sandbox, insecureHttp: o.insecureHttp, verbose: o.verbose };
  const baseUrl = o.baseUrl ?? io.env.RCSCTL_BASE_URL;
  const agencyBaseUrl = o.agencyBaseUrl ?? io.env.RCSCTL_AGENCY_BASE_URL;
  if (baseUrl !== undefined && baseUrl !== '') globals.baseUrl = baseUrl;
  if (agencyBaseUrl !== undefined && agencyBaseUrl !== '') globals.agencyBaseUrl = agencyBaseUrl;
  if (o.tokenFile !== undefined) globals.tokenFile = o.tokenFile;
  if (o.seed !== undefined) globals.seed = o.seed;
  const root = o.root ?? io.env.RCSCTL_ROOT;
  if (root !== undefined && root !== '') globals.root = resolve(io.cwd, root);
  return globals;
}
