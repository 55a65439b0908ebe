// `rcsctl export`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl export`. */
export function registerExport(program: Command, _ctx: CommandContext): void {
  program
    .command('export')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl export is not available yet');
    });
}
