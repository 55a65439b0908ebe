// `rcsctl emulator`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl emulator`. */
export function registerEmulator(program: Command, _ctx: CommandContext): void {
  program
    .command('emulator')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl emulator is not available yet');
    });
}
