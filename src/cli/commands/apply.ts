// `rcsctl apply`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl apply`. */
export function registerApply(program: Command, _ctx: CommandContext): void {
  program
    .command('apply')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl apply is not available yet');
    });
}
