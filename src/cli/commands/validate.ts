// `rcsctl validate`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl validate`. */
export function registerValidate(program: Command, _ctx: CommandContext): void {
  program
    .command('validate')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl validate is not available yet');
    });
}
