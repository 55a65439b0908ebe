// A change to a shared base, planned against the emulator (issue 37): each
// brand that uses the base gets its step, marked with the base's file and line
// and where the brand uses the base (its `bases:` entry, or its generator
// row); the JSON plan and the text plan sum up which brands the base changes.
// A problem in the base is reported once, naming the brands, in plan and
// drift as in validate.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { cli, emulator, TOKEN } from './helpers.js';

const IDS = ['BR.fleetbase1', 'BR.fleetbase2', 'BR.fleetbase3'];
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-base-change-'));
let emu: RunningEmulator;

const seed = {
  accounts: [{ userId: 'fleet', role: 'master', token: TOKEN, brands: IDS.map((brandId) => ({ brandId, role: 'representative' })) }],
  brands: IDS.map((brandId, i) => ({ brandId, brandKey: `BK.fleetbase${i + 1}000`, autoReplies: [] })),
} as unknown as Seed;

const base = (hours: string): string =>
  [
    'apiVersion: rcsctl/v1',
    'kind: Base',
    'variables:',
    '  city: { type: string }',
    'autoReplies:',
    '  hours:',
    '    name: Opening hours',
    '    messagebaseId: SCS00000',
    `    body: { description: "Bean Street \${var:city}: ${hours}" }`,
    '',
  ].join('\n');

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(async () => {
  emu = await emulator(seed);
  write('base/base.yaml', base('Mon-Fri 9-18'));
  write('brands/one.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${IDS[0]} }\nbases:\n  - base: ../base\n    variables: { city: Seoul }\n`);
  write('brands/two.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${IDS[1]} }\nbases:\n  - base: ../base\n    variables: { city: Busan }\n`);
  write('set/set.yaml', 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nfrom: rows.csv\n');
  write('set/rows.csv', `id,city\n${IDS[2]},Daegu\n`);
  const applied = await cli(['apply', '--yes', '.'], { emu, cwd: dir });
  expect(applied.code, applied.stderr).toBe(0);
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a change to a shared base', () => {
  it('plans one step in every brand that uses it, each naming the base and where the brand uses it, and sums them up by base', async () => {
    write('base/base.yaml', base('Mon-Sun 8-20'));
    const json = await cli(['plan', '--json', '.'], { emu, cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { sharedBases?: unknown; brands: { brandId: string; steps: { id: string; sharedBase?: unknown }[] }[] };
    expect(plan.brands.map((b) => [b.brandId, b.steps.map((s) => [s.id, s.sharedBase])])).toEqual([
      [IDS[0], [['autoReply.hours:update', { file: 'base/base.yaml', line: 6, usedAt: { file: 'brands/one.yaml', line: 4 } }]]],
      [IDS[1], [['autoReply.hours:update', { file: 'base/base.yaml', line: 6, usedAt: { file: 'brands/two.yaml', line: 4 } }]]],
      [IDS[2], [['autoReply.hours:update', { file: 'base/base.yaml', line: 6, usedAt: { file: 'set/rows.csv', line: 2 } }]]],
    ]);
    expect(plan.sharedBases).toEqual([{ file: 'base/base.yaml', brands: IDS, steps: 3 }]);
    // Each brand is declared where its own file (or row) names it, not in the base.
    const declared = (JSON.parse(json.stdout) as { brands: { declaredAt?: unknown }[] }).brands.map((b) => b.declaredAt);
    expect(declared).toEqual([{ file: 'brands/one.yaml', line: 3 }, { file: 'brands/two.yaml', line: 3 }, { file: 'set/rows.csv', line: 2 }]);

    const text = await cli(['plan', '.'], { emu, cwd: dir });
    expect(text.stdout).toContain('      from base base/base.yaml:6 (used at brands/two.yaml:4)\n');
    expect(text.stdout).toContain(`From base base/base.yaml: 3 steps in 3 brands (${IDS.join(', ')})\n`);
    // The Markdown plan (the pull request's comment) says the same: each step's base and where the brand uses it, and the sum by base.
    const md = await cli(['plan', '.', '--format', 'markdown'], { emu, cwd: dir });
    expect(md.stdout).toContain('**From shared bases:**\n\n- `autoReply.hours` from base `base/base.yaml:6` (used at `brands/two.yaml:4`)\n');
    expect(md.stdout).toContain('- `autoReply.hours` from base `base/base.yaml:6` (used at `set/rows.csv:2`)\n');
    expect(md.stdout).toContain(`From base \`base/base.yaml\`: 3 steps in 3 brands (${IDS.map((id) => `\`${id}\``).join(', ')}).`);
  });

  it('brands changed alike by a base share one Markdown block, which names the base without where each brand uses it', async () => {
    // The same text in every brand, before and after (no variable in the field): one group.
    const alike = (hours: string): string => base(hours).replace('Bean Street ${var:city}: ', 'Bean Street: ');
    write('base/base.yaml', alike('Mon-Fri 9-18'));
    expect((await cli(['apply', '--yes', '.'], { emu, cwd: dir })).code).toBe(0);
    write('base/base.yaml', alike('Mon-Sun 8-20'));
    try {
      const md = await cli(['plan', '.', '--format', 'markdown'], { emu, cwd: dir });
      expect(md.code, md.stderr).toBe(0);
      expect(md.stdout).toContain('<summary>The same change in 3 brands: 1 to update in each</summary>');
      expect(md.stdout).toContain('**From shared bases:**\n\n- `autoReply.hours` from base `base/base.yaml:6`\n');
      expect(md.stdout).not.toContain('(used at');
      const text = await cli(['plan', '.'], { emu, cwd: dir });
      expect(text.stdout).toContain('      from base base/base.yaml:6\n');
    } finally {
      // As the other cases expect the brands.
      write('base/base.yaml', base('Mon-Fri 9-18'));
      expect((await cli(['apply', '--yes', '.'], { emu, cwd: dir })).code).toBe(0);
    }
  });

  it("a brand's own resource carries no base, and an unchanged base is in no summary", async () => {
    write('base/base.yaml', base('Mon-Fri 9-18'));
    write('brands/one.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${IDS[0]} }\nbases:\n  - base: ../base\n    variables: { city: Seoul }\nautoReplies:\n  own:\n    name: Own\n    messagebaseId: SCS00000\n    body: { description: "Only Seoul" }\n`);
    const json = await cli(['plan', '--json', '.'], { emu, cwd: dir });
    const plan = JSON.parse(json.stdout) as { sharedBases?: unknown; brands: { brandId: string; steps: { id: string; sharedBase?: unknown }[] }[] };
    expect(plan.brands.flatMap((b) => b.steps.map((s) => [b.brandId, s.id, s.sharedBase]))).toEqual([[IDS[0], 'autoReply.own:create', undefined]]);
    expect(plan.sharedBases).toBeUndefined();
    const text = await cli(['plan', '.'], { emu, cwd: dir });
    expect(text.stdout).not.toContain('From base');
  });

  it('a plan problem at a line of a base names where the brand uses the base too, in the text and JSON plans and in drift', async () => {
    write('base2/base.yaml', 'apiVersion: rcsctl/v1\nkind: Base\nchatbots:\n  "0299990000":\n    display: "11"\n');
    write('brands/one.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${IDS[0]} }\nbases:\n  - base: ../base2\n`);
    const json = await cli(['plan', '--json', 'brands/one.yaml'], { emu, cwd: dir });
    const plan = JSON.parse(json.stdout) as { brands: { problems: unknown[] }[] };
    expect(plan.brands[0]?.problems).toEqual([expect.objectContaining({ code: 'E_PLAN_ROOM_CERTIFICATE', file: 'base2/base.yaml', line: 4, usedAt: { file: 'brands/one.yaml', line: 4 } })]);
    const text = await cli(['plan', 'brands/one.yaml'], { emu, cwd: dir });
    expect(text.stdout).toMatch(/error\[E_PLAN_ROOM_CERTIFICATE\] base2\/base\.yaml:4: room 0299990000 does not exist; .* \(in a shared base the brand uses at brands\/one\.yaml:4\)/);
    const drift = await cli(['drift', 'brands/one.yaml'], { emu, cwd: dir });
    expect(drift.stdout).toContain('(in a shared base the brand uses at brands/one.yaml:4)');
    rmSync(join(dir, 'base2'), { recursive: true });
    write('brands/one.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${IDS[0]} }\nbases:\n  - base: ../base\n    variables: { city: Seoul }\n`);
  });

  it('a problem in the base is reported once in plan and drift, naming the brands and the base file and line', async () => {
    write('base/base.yaml', base('Mon-Fri 9-18').replace('messagebaseId: SCS00000', 'messagebaseId: NOPE00'));
    for (const command of ['plan', 'drift']) {
      const r = await cli([command, '.'], { emu, cwd: dir });
      expect(r.code, command).not.toBe(0);
      const lines = r.stderr.split('\n').filter((l) => / error RCS502: /.test(l));
      expect(lines, command).toHaveLength(1);
      expect(lines[0], command).toMatch(/^base\/base\.yaml:8:20: error RCS502: .* \(for 3 brands: BR\.fleetbase1 \(brands\/one\.yaml:3\), BR\.fleetbase2 \(brands\/two\.yaml:3\), BR\.fleetbase3 \(set\/rows\.csv:2, generated by set\/set\.yaml:3\)\)/);
    }
  });
});
