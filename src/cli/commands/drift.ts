// `rcsctl drift`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl drift`. */
export function registerDrift(program: Command, _ctx: CommandContext): void {
  program
    .command('drift')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl drift is not available yet');
    });
}
