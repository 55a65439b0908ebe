// `rcsctl show` prints a saved plan exactly as `plan` printed it, with no
// service; `rcsctl completion` writes scripts that the shells accept and that
// complete every command the CLI registers.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-show-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rcsctl show', () => {
  it('prints a saved plan as text, json and markdown without any service', async () => {
    const planPath = join(dir, 'plan.json');
    const planned = await cli(['plan', EXAMPLE, '--out', planPath], { emu });
    expect(planned.code).toBe(0);
    const noService = { env: {} };

    const text = await cli(['show', planPath], noService);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Saved plan .*plan\.json, made \S+ against http:\/\/127\.0\.0\.1:\d+ by rcsctl /);
    // The same plan body as `plan` printed (after its header line and before the save note).
    const planBody = planned.stdout.slice(0, planned.stdout.indexOf('\nSaved the plan to'));
    expect(text.stdout).toContain(planBody);

    const json = await cli(['show', planPath, '--json'], noService);
    const parsed = JSON.parse(json.stdout) as { brands: { brandId: string; summary: { create: number } }[] };
    expect(parsed.brands[0]?.brandId).toBe('BR.demo000001');
    expect(parsed.brands[0]?.summary.create).toBeGreaterThan(0);
    expect((await cli(['show', planPath, '--format', 'json'], noService)).stdout).toBe(json.stdout);

    const md = await cli(['show', planPath, '--format', 'markdown'], noService);
    expect(md.stdout).toMatch(/^## rcsctl plan\n/);
    expect(md.stdout).toContain('`BR.demo000001`');
  });

  it('refuses a file that is not a plan, naming it', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1}');
    const run = await cli(['show', bad], { env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('bad.json is not a valid plan');
    const missing = await cli(['show', join(dir, 'nope.json')], { env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read plan file');
  });

  it('refuses an unknown format', async () => {
    const run = await cli(['show', 'x.json', '--format', 'yaml'], { env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--format must be one of text, json, markdown, not "yaml"');
  });
});

describe('rcsctl completion', () => {
  async function script(shell: string): Promise<string> {
    const run = await cli(['completion', shell], { env: {} });
    expect(run.code).toBe(0);
    return run.stdout;
  }

  /** The words bash offers after typing `words` (the last one being completed). */
  function bashComplete(source: string, words: string[]): string[] {
    const file = join(dir, 'rcsctl.bash');
    writeFileSync(file, source);
    const program = [
      `source ${JSON.stringify(file)}`,
      `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      '_rcsctl_completion',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    return execFileSync('bash', ['-c', program], { cwd: dir, encoding: 'utf8' }).split('\n').filter((l) => l !== '');
  }

  it('bash: completes commands, their options, option values and files', async () => {
    const bash = await script('bash');
    expect(spawnSync('bash', ['-n'], { input: bash }).status).toBe(0);
    const commands = bashComplete(bash, ['rcsctl', '']);
    for (const c of ['validate', 'plan', 'apply', 'drift', 'export', 'emulator', 'show', 'completion']) expect(commands).toContain(c);
    expect(bashComplete(bash, ['rcsctl', 'pl'])).toEqual(['plan']);
    const planOptions = bashComplete(bash, ['rcsctl', 'plan', '--']);
    expect(planOptions).toContain('--out');
    expect(planOptions).toContain('--detailed-exitcode');
    expect(planOptions).toContain('--sandbox'); // global options are offered under every command
    expect(planOptions).not.toContain('--allow-delete'); // apply's, not plan's
    writeFileSync(join(dir, 'brand.yaml'), '');
    expect(bashComplete(bash, ['rcsctl', 'plan', 'bra'])).toEqual(['brand.yaml']);
  });

  it('zsh and fish: every command and option appears, and the shells accept the script when installed', async () => {
    const zsh = await script('zsh');
    const fish = await script('fish');
    expect(zsh.split('\n')[0]).toBe('#compdef rcsctl');
    for (const c of ['validate', 'plan', 'apply', 'drift', 'export', 'show']) {
      expect(zsh).toMatch(new RegExp(`^    '${c}:`, 'm'));
      expect(fish).toMatch(new RegExp(` -a ${c} -d `));
    }
    expect(zsh).toContain(`'--detailed-exitcode[`);
    expect(fish).toMatch(/__fish_seen_subcommand_from plan' -l detailed-exitcode/);
    for (const [shell, text] of [['zsh', zsh], ['fish', fish]] as const) {
      const probe = spawnSync(shell, ['--version']);
      if (probe.error !== undefined) continue; // the shell is not installed here: the text checks above still ran
      const file = join(dir, `rcsctl.${shell}`);
      writeFileSync(file, text);
      const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    }
  });

  it('refuses an unknown shell', async () => {
    const run = await cli(['completion', 'tcsh'], { env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('unknown shell "tcsh"');
  });
});

