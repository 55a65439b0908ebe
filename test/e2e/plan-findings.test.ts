// Plan shows the live state findings drift reports (issue 35): a rejected logo
// with nothing to change no longer reads "No changes. The live brand matches
// the manifests." Checked in every view (text, JSON, Markdown), and, over the
// golden cases whose live resources have a state, finding for finding against
// drift, so a kind's new finding reaches plan with no change to plan.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_FINDING_CODES, type Finding } from '../../src/core/finding.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, ROOT } from './helpers.js';

const CASES = join(ROOT, 'test', 'plan-cases');
const REJECTED = join(CASES, '079-rejected-logo-no-changes');
const validatePlan = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object);

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

interface PlanJson {
  brands: { findings?: Finding[]; steps: unknown[] }[];
}
interface DriftJson {
  brands: { resources: { findings: Finding[] }[] }[];
}

describe('plan shows the live state findings', () => {
  it('a rejected logo with no changes: text, JSON and Markdown name it; --detailed-exitcode stays 0', async () => {
    emu = await emulator(join(REJECTED, 'seed.yaml'));
    const manifest = join(REJECTED, 'manifest.yaml');
    const text = await cli(['plan', manifest], { emu, cwd: REJECTED });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('No changes. The live brand matches the manifests.');
    expect(text.stdout).toContain('No changes to apply, but 1 live resource needs attention (below).');
    expect(text.stdout).toContain('logo.main error LOGO_REJECTED: logo "Coffee Co logo" (BLG-MAIN) was rejected (반려(수정))');

    const json = await cli(['plan', manifest, '--format', 'json'], { emu, cwd: REJECTED });
    const file = JSON.parse(json.stdout) as PlanJson;
    expect(validatePlan(file), JSON.stringify(validatePlan.errors)).toBe(true);
    expect(file.brands[0]?.steps).toEqual([]);
    expect(file.brands[0]?.findings?.map((f) => [f.code, f.address, f.severity, f.approvalReason])).toEqual([['LOGO_REJECTED', 'logo.main', 'error', 'the sign must show the registered name']]);

    const md = await cli(['plan', manifest, '--format', 'markdown'], { emu, cwd: REJECTED });
    expect(md.stdout).toContain('⚠️ No changes to apply, but 1 live resource needs attention (below).');
    expect(md.stdout).toMatch(/- ❌ `logo\.main` \*\*LOGO_REJECTED\*\* \(error\): logo "Coffee Co logo" \(BLG-MAIN\) was rejected .*\(\[help\]\(https:\/\/\S+troubleshooting\.md#logo_rejected\)\)/);

    // The exit code says whether apply has something to send; a rejected logo is drift's to fail on.
    expect((await cli(['plan', manifest, '--detailed-exitcode'], { emu, cwd: REJECTED })).code).toBe(0);
    expect((await cli(['drift', manifest], { emu, cwd: REJECTED })).code).toBe(2);
  });

  it('live resources no manifest declares are not "the live brand matches the manifests", in text and Markdown', async () => {
    // 017: three live resources undeclared, nothing else; 122: one needs attention, one more undeclared.
    const only = join(CASES, '017-unmanaged-without-prune');
    emu = await emulator(join(only, 'seed.yaml'));
    const text = await cli(['plan', 'manifest.yaml'], { emu, cwd: only });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('matches the manifests');
    expect(text.stdout).toContain('  No changes to apply, but 3 live resources are not declared in the manifests (below).\n');
    const md = await cli(['plan', 'manifest.yaml', '--format', 'markdown'], { emu, cwd: only });
    expect(md.stdout).not.toContain('match their manifests');
    expect(md.stdout).toContain('No changes to apply in 1 brand, but 3 live resources are not declared in the manifests (in 1 brand: `rcsctl plan` lists them).');
    await emu.close();

    const both = join(CASES, '122-privilege-console-change');
    emu = await emulator(join(both, 'seed.yaml'));
    const md2 = await cli(['plan', 'manifest.yaml', '--format', 'markdown'], { emu, cwd: both });
    expect(md2.code, md2.stderr).toBe(0);
    expect(md2.stdout).toContain('⚠️ No changes to apply, but 1 live resource needs attention and 1 live resource is not declared in the manifests (below).');
    expect(md2.stdout).not.toContain('The live brand matches the manifests');
  });

  // Every golden case whose plan is made: plan's findings are drift's state findings, one for one.
  const cases = readdirSync(CASES, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d{3}-/.test(e.name))
    .map((e) => e.name)
    .filter((name) => !readdirSync(join(CASES, name)).includes('args') && !readdirSync(join(CASES, name)).includes('env'));
  it('holds every state finding drift reports, over the golden cases', async () => {
    let compared = 0;
    const codes = new Set<string>();
    for (const name of cases) {
      const dir = join(CASES, name);
      const paths = readdirSync(dir).includes('manifests') ? ['manifests'] : ['manifest.yaml'];
      emu = await emulator(join(dir, 'seed.yaml'));
      const plan = await cli(['plan', ...paths, '--format', 'json'], { emu, cwd: dir });
      const drift = await cli(['drift', ...paths, '--format', 'json'], { emu, cwd: dir });
      await emu.close();
      emu = undefined;
      if (plan.code === 1 || plan.stdout === '') continue;
      const key = (f: Finding): string => `${f.address} ${f.code} ${f.severity} ${f.message}`;
      const planned = (JSON.parse(plan.stdout) as PlanJson).brands.flatMap((b) => b.findings ?? []).map(key);
      const content = new Set<string>(CONTENT_FINDING_CODES);
      const reported = (JSON.parse(drift.stdout) as DriftJson).brands.flatMap((b) => b.resources.flatMap((r) => r.findings)).filter((f) => !content.has(f.code));
      for (const f of reported) codes.add(f.code);
      expect(planned.sort(), name).toEqual(reported.map(key).sort());
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
    // The cases reach several kinds' findings, not one kind's.
    for (const code of ['LOGO_REJECTED', 'ROOM_REJECTED', 'TEMPLATE_REJECTED', 'AUTO_REPLY_PROCESSING', 'BRAND_REVIEW_PENDING']) expect([...codes]).toContain(code);
  }, 120_000);
});
