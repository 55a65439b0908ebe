// `rcsctl completion bash|zsh|fish`: a shell completion script, generated from
// the commander program itself: each command (and subcommand) is completed
// with its own options, the values each option takes (its choices, a file, a
// directory, or nothing to offer), and its arguments; nothing it does not know.

import { Argument, type Command, type Option } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';

/** The shells a script can be written for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** What a value (of an option or an argument) completes to. */
export type ValueSpec = { kind: 'choices'; choices: string[] } | { kind: 'path' } | { kind: 'dir' } | { kind: 'none' };

/** One option as completion sees it. */
export interface OptionSpec {
  long?: string;
  short?: string;
  description: string;
  /** What its value completes to; undefined for a flag that takes none. */
  value?: ValueSpec;
  /** The value may be left out (`--preview [dir]`): the next word is not taken for it. */
  optionalValue: boolean;
  /** Accepted but not offered (an alias such as `--output`). */
  hidden: boolean;
}

/** One command as completion sees it: `path` is its words (`report merge`). */
export interface CommandSpec {
  path: string[];
  description: string;
  options: OptionSpec[];
  commands: CommandSpec[];
  /** What its arguments complete to; undefined when it takes none. */
  args?: ValueSpec;
}

/** Register `rcsctl completion`. */
export function registerCompletion(program: Command, ctx: CommandContext): void {
  const shell = new Argument('<shell>', `one of: ${SHELLS.join(', ')}`);
  // Listed for completion; checked in the action, whose message says what it writes.
  shell.argChoices = [...SHELLS];
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(shell)
    .addHelpText(
      'after',
      [
        '',
        'Install:',
        '  bash  echo \'source <(rcsctl completion bash)\' >> ~/.bashrc',
        '  zsh   rcsctl completion zsh > "${fpath[1]}/_rcsctl"   (then restart zsh)',
        '  fish  rcsctl completion fish > ~/.config/fish/completions/rcsctl.fish',
      ].join('\n'),
    )
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new RcsctlError('E_USAGE', `unknown shell "${shell}": rcsctl completion writes ${SHELLS.join(', ')}`);
      }
      ctx.io.stdout.write(completionScript(shell as Shell, program));
      ctx.exit(EXIT_OK);
    });
}

/** The program's commands as completion sees them (the root's path is empty); its global options are `root.options`. */
export function completionTree(program: Command): CommandSpec {
  const walk = (cmd: Command, path: string[]): CommandSpec => {
    const options = [...cmd.options.filter((o) => o.long !== '--version').map(optionSpec), HELP];
    const spec: CommandSpec = { path, description: cmd.description(), options, commands: cmd.commands.map((c) => walk(c, [...path, c.name()])) };
    const args = cmd.registeredArguments.map(argumentValue);
    // Every argument of rcsctl's commands completes alike (paths, files); the first one stands for them.
    if (args[0] !== undefined) spec.args = args[0];
    return spec;
  };
  return walk(program, []);
}

/** The completion script for `shell`, describing `program`. */
export function completionScript(shell: Shell, program: Command): string {
  const root = completionTree(program);
  switch (shell) {
    case 'bash':
      return bashScript(program.name(), root);
    case 'zsh':
      return zshScript(program.name(), root);
    case 'fish':
      return fishScript(program.name(), root);
    default: {
      const never: never = shell;
      throw new Error(`unknown shell ${String(never)}`);
    }
  }
}

/** Commander's own `-h, --help`, on every command. */
const HELP: OptionSpec = { long: '--help', short: '-h', description: 'display help for command', optionalValue: false, hidden: false };

function optionSpec(o: Option): OptionSpec {
  const spec: OptionSpec = { description: o.description, optionalValue: o.optional, hidden: o.hidden };
  if (o.required || o.optional) spec.value = valueSpec(/[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1] ?? '', o.argChoices);
  if (o.long !== undefined) spec.long = o.long;
  if (o.short !== undefined) spec.short = o.short;
  return spec;
}

function argumentValue(a: Argument): ValueSpec {
  return valueSpec(a.name(), a.argChoices);
}

/** A value's completion, from its choices or else its name (`<file>`, `[dir]`, `<paths...>`; `<id>` offers nothing). */
function valueSpec(name: string, choices: readonly string[] | undefined): ValueSpec {
  if (choices !== undefined && choices.length > 0) return { kind: 'choices', choices: [...choices] };
  if (/dir/.test(name)) return { kind: 'dir' };
  if (/file|path/.test(name)) return { kind: 'path' };
  return { kind: 'none' };
}

/** Every command of the tree, the root first. */
function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.commands.flatMap(allCommands)];
}

/** The options a command accepts: its own, then the globals it does not define itself. */
function accepted(c: CommandSpec, root: CommandSpec): OptionSpec[] {
  if (c === root) return c.options;
  const own = new Set(c.options.flatMap(flags));
  return [...c.options, ...root.options.filter((g) => !flags(g).some((f) => own.has(f)))];
}

function flags(o: OptionSpec): string[] {
  return [o.long, o.short].filter((f): f is string => f !== undefined);
}

/** Single-quoted for POSIX shells (and fish, whose quoting agrees for text without backslashes). */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A command's path as one word: `report/merge`; the root is ``. */
function key(c: CommandSpec): string {
  return c.path.join('/');
}

function bashValue(v: ValueSpec): string {
  switch (v.kind) {
    case 'choices':
      return `COMPREPLY=( $(compgen -W ${sq(v.choices.join(' '))} -- "$cur") )`;
    case 'path':
      return 'COMPREPLY=( $(compgen -f -- "$cur") )';
    case 'dir':
      return 'COMPREPLY=( $(compgen -d -- "$cur") )';
    case 'none':
      return 'COMPREPLY=()';
    default: {
      const never: never = v;
      throw new Error(`unknown value ${String(never)}`);
    }
  }
}

function bashScript(name: string, root: CommandSpec): string {
  const fn = `_${name}_completion`;
  const commands = allCommands(root);
  const lines = [
    `# bash completion for ${name}; generated by \`${name} completion bash\`.`,
    `${fn}() {`,
    '  local cur prev path word i skip=0',
    '  cur="${COMP_WORDS[COMP_CWORD]}"',
    '  prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  path=""',
    // Find the command path, stepping over each option's value.
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    word="${COMP_WORDS[i]}"',
    '    if ((skip)); then skip=0; continue; fi',
    '    case "$path:$word" in',
  ];
  // A command's own options first: they win over a global option of the same name.
  const takesValue = (o: OptionSpec): boolean => o.value !== undefined && !o.optionalValue;
  for (const c of commands.filter((x) => x !== root)) {
    const takes = c.options.filter(takesValue).flatMap(flags);
    if (takes.length > 0) lines.push(`      ${takes.map((f) => `${key(c)}:${f}`).join('|')}) skip=1 ;;`);
  }
  const globalTakes = root.options.filter(takesValue).flatMap(flags);
  if (globalTakes.length > 0) lines.push(`      ${globalTakes.map((f) => `*:${f}`).join('|')}) skip=1 ;;`);
  lines.push('      *:-*) ;;');
  for (const c of commands.filter((x) => x !== root)) lines.push(`      ${c.path.slice(0, -1).join('/')}:${c.path.at(-1)}) path=${key(c)} ;;`);
  lines.push('    esac', '  done');
  lines.push('  case "$path:$prev" in');
  for (const c of [...commands.filter((x) => x !== root), root]) {
    for (const o of c.options) {
      if (o.value === undefined || o.optionalValue) continue;
      lines.push(`    ${flags(o).map((f) => `${c === root ? '*' : key(c)}:${f}`).join('|')}) ${bashValue(o.value)}; return ;;`);
    }
  }
  lines.push('  esac');
  lines.push('  case "$path" in');
  for (const c of commands) {
    const offered = accepted(c, root).filter((o) => !o.hidden).flatMap(flags);
    const words = c.commands.map((s) => s.path.at(-1) as string);
    const rest = words.length > 0 ? bashValue({ kind: 'choices', choices: words }) : c.args !== undefined ? bashValue(c.args) : 'COMPREPLY=()';
    lines.push(`    ${sq(key(c))})`);
    lines.push(`      if [[ "$cur" == -* ]]; then COMPREPLY=( $(compgen -W ${sq(offered.join(' '))} -- "$cur") ); else ${rest}; fi ;;`);
  }
  lines.push('  esac');
  lines.push('}');
  lines.push(`complete -o filenames -F ${fn} ${name}`);
  return lines.join('\n') + '\n';
}

/** Text inside a zsh `[...]` description. */
function zshDesc(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, `'\\''`).replace(/\[/g, '\\[').replace(/\]/g, '\\]').replace(/:/g, '\\:');
}

function zshAction(v: ValueSpec): string {
  switch (v.kind) {
    case 'choices':
      return `(${v.choices.join(' ')})`;
    case 'path':
      return '_files';
    case 'dir':
      return '_files -/';
    case 'none':
      return ' ';
    default: {
      const never: never = v;
      throw new Error(`unknown value ${String(never)}`);
    }
  }
}

function zshOption(o: OptionSpec): string[] {
  const value = o.value === undefined ? '' : `${o.optionalValue ? '::' : ':'}value:${zshAction(o.value)}`;
  return flags(o).map((f) => `'${f}[${zshDesc(o.description)}]${value}'`);
}

/** zsh function name of a command: `_rcsctl_report_merge`. */
function zshFn(name: string, c: CommandSpec): string {
  return ['', name, ...c.path].join('_').replace(/-/g, '_');
}

function zshScript(name: string, root: CommandSpec): string {
  const lines = [`#compdef ${name}`, `# zsh completion for ${name}; generated by \`${name} completion zsh\`.`];
  for (const c of allCommands(root)) {
    const specs = accepted(c, root).filter((o) => !o.hidden).flatMap(zshOption);
    lines.push(`${zshFn(name, c)}() {`);
    if (c.commands.length > 0) {
      lines.push('  local curcontext="$curcontext" state line ret=1', '  typeset -A opt_args');
      lines.push(`  _arguments -C ${specs.join(' ')} '1: :->command' '*:: :->rest' && ret=0`);
      lines.push('  case $state in');
      lines.push('    command)');
      lines.push('      local -a commands');
      lines.push(`      commands=(${c.commands.map((s) => `'${s.path.at(-1)}:${zshDesc(s.description)}'`).join(' ')})`);
      lines.push(`      _describe -t commands '${[name, ...c.path].join(' ')} command' commands && ret=0`);
      lines.push('      ;;');
      lines.push('    rest)');
      lines.push('      case $words[1] in');
      for (const s of c.commands) lines.push(`        ${s.path.at(-1)}) ${zshFn(name, s)} && ret=0 ;;`);
      lines.push('      esac');
      lines.push('      ;;');
      lines.push('  esac');
      lines.push('  return ret');
    } else {
      const args = c.args !== undefined ? ` '*:${c.args.kind === 'choices' ? 'choice' : c.args.kind}:${zshAction(c.args)}'` : '';
      lines.push(`  _arguments -s ${specs.join(' ')}${args}`);
    }
    lines.push('}');
  }
  // Autoloaded from $fpath (the file is then the body of _rcsctl): complete now; sourced: register.
  lines.push(`if [ "$funcstack[1]" = "${zshFn(name, root)}" ]; then`, `  ${zshFn(name, root)} "$@"`, 'else', `  compdef ${zshFn(name, root)} ${name}`, 'fi');
  return lines.join('\n') + '\n';
}

function fishScript(name: string, root: CommandSpec): string {
  const helper = `__${name}_path`;
  const commands = allCommands(root);
  const lines = [
    `# fish completion for ${name}; generated by \`${name} completion fish\`.`,
    `# ${helper} prints the command being completed (report/merge), stepping over option values.`,
    `function ${helper}`,
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    set -l path ''",
    '    set -l skip 0',
    '    for word in $words',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch "$path:$word"',
  ];
  const takesValue = (o: OptionSpec): boolean => o.value !== undefined && !o.optionalValue;
  for (const c of [...commands.filter((x) => x !== root), root]) {
    const takes = c.options.filter(takesValue).flatMap(flags);
    if (takes.length > 0) lines.push(`            case ${takes.map((f) => sq(`${c === root ? '*' : key(c)}:${f}`)).join(' ')}`, '                set skip 1');
  }
  lines.push("            case '*:-*'");
  for (const c of commands.filter((x) => x !== root)) {
    lines.push(`            case ${sq(`${c.path.slice(0, -1).join('/')}:${c.path.at(-1)}`)}`, `                set path ${sq(key(c))}`);
  }
  lines.push('        end', '    end', '    echo $path', 'end', `complete -c ${name} -f`);
  const when = (c: CommandSpec): string => `test (${helper}) = ${sq(key(c))}`;
  for (const c of commands) {
    const cond = `-n ${sq(when(c))}`;
    for (const s of c.commands) lines.push(`complete -c ${name} ${cond} -a ${sq(s.path.at(-1) as string)} -d ${sq(s.description)}`);
    for (const o of accepted(c, root)) {
      if (o.hidden) continue;
      const parts = [`complete -c ${name}`, cond];
      if (o.long !== undefined) parts.push(`-l ${o.long.replace(/^--/, '')}`);
      if (o.short !== undefined) parts.push(`-s ${o.short.replace(/^-/, '')}`);
      // An optional value is not taken from the next word (as commander parses it): the option stands alone.
      if (o.value !== undefined && !o.optionalValue) parts.push(fishValue(o.value));
      parts.push(`-d ${sq(o.description)}`);
      lines.push(parts.join(' '));
    }
    if (c.commands.length === 0 && c.args !== undefined) {
      const v = c.args;
      lines.push(`complete -c ${name} ${cond} ${v.kind === 'choices' ? `-a ${sq(v.choices.join(' '))}` : v.kind === 'path' ? '-F' : v.kind === 'dir' ? "-a '(__fish_complete_directories)'" : ''}`.trimEnd());
    }
  }
  return lines.join('\n') + '\n';
}

function fishValue(v: ValueSpec): string {
  switch (v.kind) {
    case 'choices':
      return `-x -a ${sq(v.choices.join(' '))}`;
    case 'path':
      return '-r -F';
    case 'dir':
      return "-x -a '(__fish_complete_directories)'";
    case 'none':
      return '-x';
    default: {
      const never: never = v;
      throw new Error(`unknown value ${String(never)}`);
    }
  }
}
