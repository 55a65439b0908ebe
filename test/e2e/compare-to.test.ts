// `plan --compare-to DIR` (issue 38): the steps the change to the manifests
// causes apart from those that undo changes made outside rcsctl since the base
// was applied, in JSON, Markdown (and a merged comment) and text, against the
// emulator. The golden cases test/plan-cases/085-087 hold the text plans of a
// change only, a console change only, and both on one resource; this uses the
// last one's seed and manifests.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '087-compare-both-on-one-resource');
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-compare-'));
let emu: RunningEmulator;

interface JsonPlan {
  requests: { requests: number };
  brands: { compared?: { base: string; message?: string }; steps: { address: string; origin?: string; changes: { path: string; origin?: string }[] }[] }[];
}

beforeAll(async () => {
  cpSync(CASE, dir, { recursive: true });
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (...args: string[]) => cli(['plan', 'manifest.yaml', '--no-cache', ...args], { emu, cwd: dir });

describe('plan --compare-to', () => {
  it('marks each step and field change with its origin in the JSON plan, with no request more than a plan without it', async () => {
    const r = await plan('--compare-to', 'base', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout) as JsonPlan;
    const brand = p.brands[0]!;
    expect(brand.compared).toEqual({ base: 'declared' });
    const byAddress = Object.fromEntries(brand.steps.map((s) => [s.address, s]));
    // Both sides changed the opening hours; the change rewrote the shop's description, the console its link.
    expect(byAddress['autoReply.hours']?.origin).toBe('both');
    expect(byAddress['autoReply.hours']?.changes.map((c) => [c.path, c.origin])).toEqual([['body.description', 'both']]);
    expect(byAddress['autoReply.shop']?.origin).toBe('both');
    expect(byAddress['autoReply.shop']?.changes.map((c) => [c.path, c.origin])).toEqual([
      ['body.description', 'change'],
      ['chipList[0].action.urlAction.openUrl.url', 'outside'],
    ]);
    const without = JSON.parse((await plan('--format', 'json')).stdout) as JsonPlan;
    expect(without.brands[0]?.compared).toBeUndefined();
    expect(p.requests.requests).toBe(without.requests.requests);
  });

  it('keeps the two apart in the Markdown plan and in the comment report merge writes from the saved plan', async () => {
    const md = await plan('--compare-to', 'base', '--format', 'markdown', '--out', 'plan.json');
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('⚠️ **2 steps in 1 brand undo changes made outside rcsctl since the base was applied**');
    expect(md.stdout).toContain('<code>BR.demo000001</code>: 2 to update (2 undo changes made outside rcsctl)');
    const change = md.stdout.indexOf('**From the change to the manifests** (1 step):');
    const outside = md.stdout.indexOf('**⚠️ Undoing changes made outside rcsctl since the base was applied** (2 steps):');
    expect(change).toBeGreaterThan(0);
    expect(outside).toBeGreaterThan(change);
    // The console's link is only under its own heading, and so is the opening hours both sides changed; the change's description only under the change's.
    expect(md.stdout.indexOf('+ body.description: "Monday to Saturday, eight to eight"  (the manifests change it too)')).toBeGreaterThan(outside);
    const link = '+ chipList[0].action.urlAction.openUrl.url: "https://example.com/shop"';
    expect(md.stdout.indexOf(link)).toBeGreaterThan(outside);
    expect(md.stdout.split(link).length).toBe(2);
    const description = '+ body.description: "Everything for your garden, and now for your balcony"';
    expect(md.stdout.indexOf(description)).toBeGreaterThan(change);
    expect(md.stdout.indexOf(description)).toBeLessThan(outside);
    expect(md.stdout).toContain('_Compared with the base: 0 steps from the change, 0 steps undoing changes made outside rcsctl, 2 steps doing both._');

    const drift = await cli(['drift', 'manifest.yaml', '--no-cache', '--format', 'json', '--output', 'drift.json'], { emu, cwd: dir });
    expect(drift.code, drift.stderr).toBe(2);
    const merged = await cli(['report', 'merge', 'plan.json', 'drift.json', '--format', 'markdown'], { emu, cwd: dir });
    expect(merged.stdout).toContain('**⚠️ Undoing changes made outside rcsctl since the base was applied** (2 steps):');
    // The drift the plan shows (both resources) is not repeated.
    expect(merged.stdout).toContain("2 drifted resources are the plan's changes above: not repeated here");
  });

  it('a brand the base does not declare is all the change; a base with errors leaves the steps unsplit, saying why', async () => {
    mkdirSync(join(dir, 'empty'), { recursive: true });
    const fresh = await plan('--compare-to', 'empty', '--format', 'json');
    expect(fresh.code, fresh.stderr).toBe(0);
    const p = JSON.parse(fresh.stdout) as JsonPlan;
    expect(p.brands[0]?.compared).toEqual({ base: 'new' });
    expect(p.brands[0]?.steps.map((s) => s.origin)).toEqual(['change', 'change']);

    mkdirSync(join(dir, 'broken'), { recursive: true });
    writeFileSync(join(dir, 'broken', 'brand.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\nautoReplies:\n  hours: { name: Opening hours, messagebaseId: SCS00000, body: { description: 5 } }\n');
    const broken = await plan('--compare-to', 'broken');
    expect(broken.code, broken.stderr).toBe(0);
    expect(broken.stdout).toMatch(/Not compared with the base: the base's manifests have errors \(broken\/brand\.yaml:5: RCS\d+ [^)]*\); the steps are not split\./);
    expect(broken.stdout).not.toContain('Undoing changes made outside rcsctl');
  });

  it('a resource deleted in the console is created again as outside rcsctl; one the change adds is the change\'s', async () => {
    const extra = (names: string[]) => names.map((n) => `  ${n}:\n    name: ${n}\n    messagebaseId: SCS00000\n    body: { description: "${n} text" }\n`).join('');
    const head = readFileSync(join(dir, 'manifest.yaml'), 'utf8');
    const base = readFileSync(join(dir, 'base', 'manifest.yaml'), 'utf8');
    mkdirSync(join(dir, 'deleted', 'base'), { recursive: true });
    writeFileSync(join(dir, 'deleted', 'manifest.yaml'), head + extra(['gone', 'fresh']));
    writeFileSync(join(dir, 'deleted', 'base', 'manifest.yaml'), base + extra(['gone']));
    const r = await cli(['plan', 'manifest.yaml', '--no-cache', '--compare-to', 'base', '--format', 'json'], { emu, cwd: join(dir, 'deleted') });
    expect(r.code, r.stderr).toBe(0);
    const steps = (JSON.parse(r.stdout) as JsonPlan).brands[0]!.steps;
    const origin = (address: string) => steps.find((s) => s.address === address)?.origin;
    expect(origin('autoReply.gone')).toBe('outside');
    expect(origin('autoReply.fresh')).toBe('change');
  });

  it('refuses a base directory that does not exist before any request', async () => {
    const r = await plan('--compare-to', 'no-such-base');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--compare-to no-such-base: no such directory');
  });
});
