// The options kinds add to plan and apply (`Optioned`, src/kinds/resource-kind.ts):
// each kind's flag is registered on both commands, and the flags a run sets go
// to the plan (which lifts the `option` gates naming them) and to apply's
// executor. The CLI knows no kind's option by name.

import type { Command } from 'commander';
import { kindOptions } from '../kinds/index.js';

/** Add every registered kind's options to `command` (each off unless given). */
export function withKindOptions(command: Command): Command {
  for (const o of kindOptions()) command.option(`--${o.flag}`, o.description, false);
  return command;
}

/** The kinds' options a command's parsed flags set, by flag (`allow-something`). */
export function kindOptionsSet(flags: object): string[] {
  const values = flags as Readonly<Record<string, unknown>>;
  return kindOptions()
    .map((o) => o.flag)
    .filter((flag) => values[flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase())] === true);
}
