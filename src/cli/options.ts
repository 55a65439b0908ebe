// One grammar for every command: the same flag means the same thing wherever
// it appears. `-o/--out` names what a command writes (`--output` is kept as an
// alias), `--format` picks the rendering (`--json` is short for
// `--format json`), `--brand` may be repeated, and paths default to `.`.

import { Option, type Command } from 'commander';
import { DEFAULT_MAX_CONCURRENCY, type ConcurrencySetting } from '../api/limiter.js';
import { RcsctlError } from '../errors.js';
import type { CommandContext } from './context.js';
import { DEFAULT_MAX_BYTES, MIN_MAX_BYTES } from '../render/fit.js';

/** Every rendering a command may offer. */
export type Format = 'text' | 'json' | 'markdown' | 'junit' | 'yaml' | 'codeowners';

/** Add `[paths...]`, defaulting to the current directory. */
export function pathsArgument(cmd: Command, description = 'manifest files or directories, read recursively for *.yaml and *.yml (default: .)'): Command {
  return cmd.argument('[paths...]', description);
}

/** The paths given, or `.` when none were. */
export function pathsOrCwd(paths: string[] | undefined): string[] {
  return paths === undefined || paths.length === 0 ? ['.'] : paths;
}

/** Add `-o, --out <what>` and its alias `--output`. */
export function outOption(cmd: Command, what: string, description: string): Command {
  return cmd.option(`-o, --out <${what}>`, description).addOption(new Option(`--output <${what}>`, 'the same as --out').hideHelp());
}

/** The value of `-o/--out` (or of its alias `--output`); refused when both disagree. */
export function outValue(opts: { out?: string; output?: string }): string | undefined {
  if (opts.out !== undefined && opts.output !== undefined && opts.out !== opts.output) {
    throw new RcsctlError('E_USAGE', '--out and --output are the same option; give it once');
  }
  return opts.out ?? opts.output;
}

/** Add `--format <format>` (with its choices for help and completion) and `--json`. */
export function formatOption(cmd: Command, formats: readonly Format[], what: string, fallback: Format = 'text'): Command {
  const option = new Option('--format <format>', what).default(fallback);
  // Listed for help and completion; checked by formatValue, whose message names the command's formats.
  option.argChoices = [...formats];
  return cmd.addOption(option).option('--json', 'the same as --format json', false);
}

/** The format asked for: `--json` wins over `--format`. */
export function formatValue<F extends Format>(opts: { format?: string; json?: boolean }, formats: readonly F[]): F {
  const format = opts.json === true ? 'json' : (opts.format ?? 'text');
  if (!(formats as readonly string[]).includes(format)) {
    throw new RcsctlError('E_USAGE', `--format must be one of ${formats.join(', ')}, not "${format}"`);
  }
  return format as F;
}

/** Add `--brand <id>`, repeatable: each one adds a brand. */
export function brandOption(cmd: Command, description: string): Command {
  return cmd.option('--brand <id>', `${description} (repeat for several)`, (value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
}

/** Add `--target <address>`, repeatable. */
export function targetOption(cmd: Command): Command {
  return cmd.option(
    '--target <address>',
    'only this resource (autoReply.hours, or autoReply.* for a kind) and what it depends on; for exceptions, not routine use (repeat for several)',
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}

/** Largest fixed `--concurrency` and `--max-concurrency`. */
export const MAX_CONCURRENCY_OPTION = 64;

/**
 * `--concurrency N|auto` and `--max-concurrency N`: the one limit on requests
 * in flight for the whole run, every brand together. `fanOut` is how many
 * requests one brand may have waiting for it: the fixed limit, or the cap of
 * `auto`.
 */
export function concurrencyValue(concurrency: string, maxConcurrency: string | undefined): { setting: ConcurrencySetting; fanOut: number } {
  const whole = (text: string, flag: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < 1 || n > MAX_CONCURRENCY_OPTION) {
      throw new RcsctlError('E_USAGE', `${flag} must be ${flag === '--concurrency' ? '"auto" or ' : ''}a whole number from 1 to ${MAX_CONCURRENCY_OPTION}, not "${text}"`);
    }
    return n;
  };
  if (concurrency.trim() === 'auto') {
    const max = maxConcurrency === undefined ? DEFAULT_MAX_CONCURRENCY : whole(maxConcurrency, '--max-concurrency');
    return { setting: { mode: 'auto', max }, fanOut: max };
  }
  const limit = whole(concurrency, '--concurrency');
  if (maxConcurrency !== undefined) throw new RcsctlError('E_USAGE', '--max-concurrency caps --concurrency auto; with a fixed --concurrency, leave it out');
  return { setting: { mode: 'fixed', limit }, fanOut: limit };
}

/** The folder manifests' files must stay in, when the user names one: spread into loadManifests' options. */
export function rootOption(ctx: CommandContext): { root?: string } {
  const root = ctx.globals().root;
  return root === undefined ? {} : { root };
}

/** Add `--max-bytes N` and `--full-report-url URL`, the size budget of a Markdown report (docs/ci.md). */
export function commentOptions(cmd: Command): Command {
  return cmd
    .option('--max-bytes <n>', `Markdown only: the report's size budget in bytes (default ${DEFAULT_MAX_BYTES}, within GitHub's 65,536-character comment limit); details that do not fit are left out, and a line says which`)
    .option('--full-report-url <url>', 'Markdown only: where the full report is (a URL, or a CI artifact\'s name), named in the line that says what was left out');
}

/** The budget and full-report options given, checked: --max-bytes is a whole number of at least MIN_MAX_BYTES. */
export function commentValues(opts: { maxBytes?: string; fullReportUrl?: string }): { maxBytes?: number; fullReport?: string } {
  const out: { maxBytes?: number; fullReport?: string } = {};
  if (opts.maxBytes !== undefined) {
    const n = Number(opts.maxBytes);
    if (!/^\d+$/.test(opts.maxBytes) || n < MIN_MAX_BYTES) throw new RcsctlError('E_USAGE', `--max-bytes must be a whole number of bytes, at least ${MIN_MAX_BYTES}, not "${opts.maxBytes}"`);
    out.maxBytes = n;
  }
  if (opts.fullReportUrl !== undefined) out.fullReport = opts.fullReportUrl;
  return out;
}
