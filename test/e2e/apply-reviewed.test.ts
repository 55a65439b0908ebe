// apply --plan FILE --reviewed REVIEWED: the plan an approver reviewed bounds
// what a plan made later may run. A step (brand and step id) the reviewed plan
// does not hold refuses the run before anything is sent; a plan holding the
// same steps or fewer runs. The CI recipes' apply jobs rely on it.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import type { PlanFile } from '../../src/plan/types.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { cli, TOKEN } from './helpers.js';

const ID = 'BR.review0001';
let dir: string;
let emu: RunningEmulator;

function manifest(replies: string[]): void {
  const body = replies.map((h) => `  ${h}: { name: ${h}, messagebaseId: SCS00000, body: { description: "Reply ${h}" } }\n`).join('');
  writeFileSync(join(dir, 'brands', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${ID} }\nautoReplies:\n${body}`);
}

const run = (...argv: string[]) => cli(argv, { emu, cwd: dir });
const steps = (file: string): string[] => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as PlanFile).brands.flatMap((b) => b.steps.map((s) => `${b.brandId} ${s.id}`));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-reviewed-'));
  mkdirSync(join(dir, 'brands'));
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: ID }], TOKEN);
  emu = await startEmulator({ port: 0, seed });
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('apply --plan --reviewed', () => {
  it('refuses a plan with a step the reviewed plan lacks, naming it, and sends nothing', async () => {
    manifest(['hours']);
    expect((await run('plan', 'brands', '--out', 'reviewed.json')).code).toBe(0);
    manifest(['hours', 'menu']);
    expect((await run('plan', 'brands', '--out', 'now.json')).code).toBe(0);
    const unseen = steps('now.json').filter((s) => !steps('reviewed.json').includes(s));
    expect(unseen).toHaveLength(1);
    const r = await run('apply', '--plan', 'now.json', '--reviewed', 'reviewed.json', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`plan file now.json holds a step that the reviewed plan reviewed.json does not; nothing was sent. Plan again for review:\n  ${unseen[0]}\n`);
    // Nothing was created: both auto-replies are still to create.
    expect(steps('now.json').length).toBe(2);
    const after = await run('plan', 'brands', '--json');
    expect((JSON.parse(after.stdout) as PlanFile).brands[0]?.steps.map((s) => s.id)).toEqual(expect.arrayContaining([expect.stringContaining('hours'), expect.stringContaining('menu')]));
    // The JSON result says why, with the steps.
    const json = await run('apply', '--plan', 'now.json', '--reviewed', 'reviewed.json', '--yes', '--format', 'json');
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as { outcome: string; error: { code: string; message: string } };
    expect(doc.outcome).toBe('error');
    expect(doc.error.code).toBe('E_PLAN_UNREVIEWED');
    expect(doc.error.message).toContain(unseen[0]);
  });

  it('runs a plan that holds the reviewed steps or fewer', async () => {
    manifest(['hours']);
    expect((await run('plan', 'brands', '--out', 'same.json')).code).toBe(0);
    const r = await run('apply', '--plan', 'same.json', '--reviewed', 'reviewed.json', '--yes');
    expect(r.code, r.stderr).toBe(0);
    // A plan with no steps at all is within any reviewed plan.
    expect((await run('plan', 'brands', '--out', 'empty.json')).code).toBe(0);
    expect(steps('empty.json')).toEqual([]);
    expect((await run('apply', '--plan', 'empty.json', '--reviewed', 'now.json', '--yes')).code).toBe(0);
  });

  it('needs --plan, and a readable reviewed plan for the same service', async () => {
    const alone = await run('apply', 'brands', '--reviewed', 'reviewed.json', '--yes');
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('--reviewed bounds a saved plan: give --plan FILE too');
    writeFileSync(join(dir, 'broken.json'), '{');
    const broken = await run('apply', '--plan', 'empty.json', '--reviewed', 'broken.json', '--yes');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/cannot read plan file .*broken\.json/);
  });
});
