// `rcsctl plan`: placeholder registration until its issue lands.

import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Register `rcsctl plan`. */
export function registerPlan(program: Command, _ctx: CommandContext): void {
  program
    .command('plan')
    .description('not yet available')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new RcsctlError('E_NOT_IMPLEMENTED', 'rcsctl plan is not available yet');
    });
}
