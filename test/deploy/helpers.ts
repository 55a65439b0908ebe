// Shared by the deployment tests (test/deploy/): run a command line that a
// deployment file gives (the image's ENTRYPOINT and CMD, a pod's args, a
// systemd ExecStart) as the real CLI, and ask the CLI which options
// `rcsctl controller` has.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { it } from 'vitest';
import { Command } from 'commander';
import ts from 'typescript';
import { registerController } from '../../src/cli/commands/controller.js';
import type { CommandContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { cli, ROOT } from '../e2e/helpers.js';
import { waitFor } from '../controller/helpers.js';

/** An option of `rcsctl controller` (its own or a global one). */
export interface CliOption {
  long: string;
  takesValue: boolean;
  defaultValue?: unknown;
}

/**
 * The options `rcsctl controller` takes: its own from the command's commander
 * definition (src/cli/commands/controller.ts, registered on a bare program),
 * and the global ones from the Global Options its help lists.
 */
export async function controllerOptions(): Promise<Map<string, CliOption>> {
  const options = new Map<string, CliOption>();
  const program = new Command('rcsctl');
  const ctx = { io: { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: ROOT }, globals: () => ({}), exit: () => undefined } as unknown as CommandContext;
  registerController(program, ctx);
  const cmd = program.commands.find((c) => c.name() === 'controller');
  if (cmd === undefined) throw new Error('registerController registered no `controller` command');
  for (const o of cmd.options) if (o.long !== undefined) options.set(o.long, { long: o.long, takesValue: o.required || o.optional, defaultValue: o.defaultValue });
  const help = (await cli(['controller', '--help'], { env: {} })).stdout;
  const globals = help.slice(help.indexOf('Global Options:'));
  for (const m of globals.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)( <[^>]+>)?/gm)) {
    if (!options.has(m[1] as string)) options.set(m[1] as string, { long: m[1] as string, takesValue: m[2] !== undefined });
  }
  return options;
}

/** `--name=value` and `--name value` as separate words, and the positional words, checked against `options`; returns the problems. */
export function checkArgs(argv: string[], options: Map<string, CliOption>): { problems: string[]; flags: Map<string, string[]>; positional: string[] } {
  const problems: string[] = [];
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (!word.startsWith('--')) {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    const option = options.get(name);
    if (option === undefined) {
      problems.push(`${name} is not an option of rcsctl controller`);
      continue;
    }
    let value: string | undefined = eq === -1 ? undefined : word.slice(eq + 1);
    if (option.takesValue && value === undefined) value = argv[++i];
    if (option.takesValue && value === undefined) problems.push(`${name} needs a value`);
    if (!option.takesValue && value !== undefined) problems.push(`${name} takes no value`);
    flags.set(name, [...(flags.get(name) ?? []), value ?? '']);
  }
  return { problems, flags, positional };
}

/** A controller started through the CLI, in-process, as the given command line. */
export interface CliController {
  url: string;
  logs: () => string;
  /** Stop it (as SIGTERM would) and resolve to the CLI's exit code. */
  stop: () => Promise<number>;
}

/** Run `rcsctl <argv>` in-process until it says where it listens. */
export async function startCli(argv: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<CliController> {
  let out = '';
  const stream = (): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
  const abort = new AbortController();
  let exit: number | undefined;
  const done = main(argv, { stdout: stream(), stderr: stream(), env, cwd, signal: abort.signal }).then((code) => (exit = code));
  const url = await waitFor('the controller to listen', async () => {
    if (exit !== undefined) throw new Error(`rcsctl ${argv.join(' ')} exited ${exit}:\n${out}`);
    return /"event":"started","url":"(http:\/\/[^"]+)"/.exec(out)?.[1];
  });
  return {
    url,
    logs: () => out,
    stop: async () => {
      abort.abort();
      return done;
    },
  };
}

/** The kubelet's `$(NAME)` expansion of a container's command and args (`$$` escapes). */
export function kubeletExpand(word: string, env: Record<string, string>): string {
  return word.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string | undefined) => (name === undefined ? '$' : (env[name] ?? all)));
}

/**
 * Type-check `objects` against the TypeScript types a package declares for
 * them (`{ type: 'IDeployment', from: 'kubernetes-models/apps/v1/Deployment' }`):
 * an unknown field, a missing required one or a wrong type is an error. The
 * source is virtual, placed in test/deploy/ so that node_modules resolves.
 */
export function typeCheck(objects: { label: string; type: string; from: string; value: unknown }[]): string[] {
  const file = `${ROOT}/test/deploy/__shapes__.ts`;
  const lines: string[] = [];
  const labels: string[] = [];
  objects.forEach((o, i) => {
    lines.push(`import type { ${o.type} as T${i} } from '${o.from}';`);
  });
  objects.forEach((o, i) => {
    labels[lines.length] = o.label;
    lines.push(`export const o${i}: T${i} = ${JSON.stringify(o.value)};`);
  });
  const source = lines.join('\n') + '\n';
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (f, lang, ...rest) => (f === file ? ts.createSourceFile(f, source, lang) : getSourceFile.call(host, f, lang, ...rest));
  host.fileExists = (f) => f === file || fileExists.call(host, f);
  host.readFile = (f) => (f === file ? source : readFile.call(host, f));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${labels[line] ?? '(imports)'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/** Whether `tool` runs here (`tool ...versionArgs` exits 0). */
export function hasTool(tool: string, versionArgs: string[] = ['--version']): boolean {
  try {
    execFileSync(tool, versionArgs, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A test that says, loudly, when `tool` is missing and the tests that need it
 * are skipped, and fails when CI is set and `.ci/run` installs the tool (as
 * root, as .ci/run does): a missing tool there is a broken CI, not a skip.
 * `why` says what is then left unchecked, and how to get the tool.
 */
export function toolPresent(tool: string, present: boolean, why: string): void {
  it(`${tool} is there to be run${ciInstalls(tool) ? ' (CI installs it: .ci/run)' : ''}`, () => {
    if (present) return;
    console.warn(`\n*** SKIPPED: ${tool} is not installed: ${why} ***\n`);
    if (process.env.CI !== undefined && ciInstalls(tool) && process.getuid?.() === 0) throw new Error(`${tool} is missing although CI runs as root and .ci/run installs it`);
  });
}

/** Whether .ci/run installs `tool` (its package names it on an apt-get install line). */
function ciInstalls(tool: string): boolean {
  const run = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  const packages: Record<string, string> = { 'systemd-analyze': 'systemd' };
  return run.split('\n').some((line) => line.includes('apt-get install') && line.split(/\s+/).includes(packages[tool] ?? tool));
}
