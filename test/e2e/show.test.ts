// `rcsctl show` prints a saved plan exactly as `plan` printed it, with no
// service. (`rcsctl completion`: test/e2e/completion.test.ts.)

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
    expect(md.stdout).toMatch(/^## rcsctl plan: 1 of 1 brand change\n/);
    expect(md.stdout).toContain('`BR.demo000001`');
  });

  it('refuses a file that is not a plan, naming it', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 3}');
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
