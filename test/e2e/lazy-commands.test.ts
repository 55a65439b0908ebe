// main() loads only the command a run names; help, completion and typos still
// see every command.

import { describe, expect, it } from 'vitest';
import { commandsFor } from '../../src/cli/main.js';
import { cli } from './helpers.js';

describe('lazy command loading', () => {
  it('picks the named command past global options, none for --version, all otherwise', () => {
    expect(commandsFor(['--concurrency', '4', '--sandbox', 'plan', 'x'])).toEqual(['plan']);
    expect(commandsFor(['--base-url=http://127.0.0.1:1', 'validate'])).toEqual(['validate']);
    expect(commandsFor(['--version'])).toEqual([]);
    expect(commandsFor(['--help'])).toContain('apply');
    expect(commandsFor(['completion', 'bash'])).toContain('drift');
    expect(commandsFor(['plna'])).toContain('plan');
  });

  it('still lists every command in help and suggests one for a typo', async () => {
    const help = await cli(['--help']);
    for (const name of ['validate', 'plan', 'apply', 'drift', 'export', 'emulator', 'show', 'completion']) expect(help.stdout).toContain(`  ${name}`);
    const typo = await cli(['plna']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Did you mean plan?');
    expect((await cli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
