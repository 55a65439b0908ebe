// `report merge` knows shards (issue 25 §1): every sharded drift report and
// plan records its shard and the brand list it was split from; a merge of a
// set with a shard missing, given twice or from another split is refused,
// naming it; --allow-partial merges anyway under a banner in every format and
// exits 1; --detailed-exitcode gives 2 for a merged plan with changes.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { shardOf } from '../../src/plan/shard.js';
import type { PlanFile } from '../../src/plan/types.js';
import type { DriftReport } from '../../src/report/types.js';
import type { ApplyResult } from '../../src/cli/apply-result.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { cli, TOKEN } from './helpers.js';

const IDS = Array.from({ length: 12 }, (_, i) => `BR.set${String(i + 1).padStart(7, '0')}`);
const SHARDS = ['1/4', '2/4', '3/4', '4/4'];
const inShard3 = IDS.filter((id) => shardOf(id, 4) === 3);

let dir: string;
let emu: RunningEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-shard-set-'));
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello from ${id}" } }\n`);
  }
  // The same brands less one: another brand list, so another split.
  mkdirSync(join(dir, 'fewer'));
  for (const id of IDS.slice(1)) {
    mkdirSync(join(dir, 'fewer', id));
    copyFileSync(join(dir, 'brands', id, 'brand.yaml'), join(dir, 'fewer', id, 'brand.yaml'));
  }
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  emu = await startEmulator({ port: 0, seed });
  for (const s of SHARDS) {
    const n = s[0] as string;
    const r = await run('drift', 'brands', '--shard', s, '--format', 'json', '-o', `drift-${n}.json`);
    expect(r.code, r.stderr).toBe(2);
    expect((await run('plan', 'brands', '--shard', s, '--format', 'json', '-o', `plan-${n}.json`)).code).toBe(0);
  }
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => cli(argv, { emu, cwd: dir });
const read = <T>(name: string): T => JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;
const drifts = (...n: number[]) => n.map((i) => `drift-${i}.json`);
const plans = (...n: number[]) => n.map((i) => `plan-${i}.json`);

describe('sharded reports record their shard and brand list', () => {
  it('drift and plan JSON (and the saved plan) carry shard i/n and one digest of the brand list', async () => {
    expect(inShard3.length).toBeGreaterThan(0);
    const drift = read<DriftReport>('drift-3.json');
    expect(drift.shard).toMatchObject({ index: 3, count: 4, brandSetSize: 12 });
    expect(drift.shard?.brandSet).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(drift.brands.map((b) => b.brandId)).toEqual(inShard3);
    expect(read<PlanFile>('plan-3.json').shard).toEqual(drift.shard);
    expect((await run('plan', 'brands', '--shard', '3/4', '--out', 'saved-3.json')).code).toBe(0);
    expect(read<PlanFile>('saved-3.json').shard).toEqual(drift.shard);
    // Every shard names the same brand list; a run without --shard records none.
    for (const n of [1, 2, 4]) expect(read<DriftReport>(`drift-${n}.json`).shard?.brandSet).toBe(drift.shard?.brandSet);
    expect((JSON.parse((await run('drift', 'brands', '--json')).stdout) as DriftReport).shard).toBeUndefined();
  });

  it('apply --format json records its shard too: from the manifests, and from a sharded saved plan', async () => {
    const drift = read<DriftReport>('drift-1.json');
    const fromManifests = JSON.parse((await run('apply', 'brands', '--shard', '1/4', '--yes', '--json')).stdout) as ApplyResult;
    expect(fromManifests.shard).toEqual(drift.shard);
    const fromPlan = JSON.parse((await run('apply', '--plan', 'saved-3.json', '--json')).stdout) as ApplyResult;
    expect(fromPlan.shard).toEqual(read<DriftReport>('drift-3.json').shard);
  });
});

describe('report merge refuses a set that is not whole', () => {
  it('a missing shard: exit 1 naming it, nothing on stdout', async () => {
    for (const files of [drifts(1, 2, 4), plans(1, 2, 4)]) {
      const r = await run('report', 'merge', ...files, '--format', 'markdown');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('shard 3/4 is missing');
      expect(r.stderr).toContain('--allow-partial');
      expect(r.stdout).toBe('');
    }
    const two = await run('report', 'merge', ...drifts(1, 4));
    expect(two.stderr).toContain('shards 2/4, 3/4 are missing');
  });

  it('a shard given twice: exit 1 naming both files', async () => {
    copyFileSync(join(dir, 'drift-2.json'), join(dir, 'again-2.json'));
    const r = await run('report', 'merge', ...drifts(1, 2, 3, 4), 'again-2.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('shard 2/4 was given twice (drift-2.json, again-2.json)');
  });

  it('a foreign shard (another count, another brand list, or no --shard): exit 1 naming the file and why', async () => {
    // Drift or none (earlier tests applied some shards): only the report matters here.
    expect([0, 2]).toContain((await run('drift', 'brands', '--shard', '1/3', '--format', 'json', '-o', 'of-three.json')).code);
    const count = await run('report', 'merge', ...drifts(1, 2, 3, 4), 'of-three.json');
    expect(count.code).toBe(1);
    expect(count.stderr).toContain('of-three.json is shard 1/3, the others are shards of 4');

    expect([0, 2]).toContain((await run('drift', 'fewer', '--shard', '2/4', '--format', 'json', '-o', 'fewer-2.json')).code);
    const list = await run('report', 'merge', ...drifts(1, 3, 4), 'fewer-2.json');
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/fewer-2\.json is shard 2\/4 of another brand list \(11 brands, sha256:[0-9a-f]{16}; the others: 12 brands, sha256:[0-9a-f]{16}\)/);
    expect(list.stderr).toContain('shard 2/4 is missing');

    expect([0, 2]).toContain((await run('drift', 'brands', '--brand', IDS[0] as string, '--format', 'json', '-o', 'unsharded.json')).code);
    const plain = await run('report', 'merge', ...drifts(1, 2, 3, 4), 'unsharded.json');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('unsharded.json was made without --shard');
  });

  it('the whole set still merges as before (exit as drift: 2)', async () => {
    const r = await run('report', 'merge', ...drifts(4, 2, 1, 3), '--json');
    expect(r.code, r.stderr).toBe(2);
    const merged = JSON.parse(r.stdout) as DriftReport;
    expect(merged.brands.map((b) => b.brandId)).toEqual(IDS);
    expect(merged.shard).toBeUndefined();
    expect(merged.partial).toBeUndefined();
  });
});

describe('report merge --allow-partial', () => {
  const held = IDS.length - inShard3.length;
  // The count missing first (issue 35: "It holds 9 of the 12 brands" read as if the missing shard held 9).
  const sentence = `PARTIAL REPORT: shard 3/4 is missing. ${inShard3.length} of the 12 brands (those of the shards left out) are not in this report; it holds the other ${held}.`;

  it('merges a drift set lacking a shard, with a banner in every format, and exits 1', async () => {
    const text = await run('report', 'merge', ...drifts(1, 2, 4), '--allow-partial');
    expect(text.code).toBe(1);
    const lines = text.stdout.trimEnd().split('\n');
    // The banner opens and closes the text report: its last line never reads as the whole set's.
    expect(lines.slice(0, 3).join('\n')).toContain(sentence);
    expect(lines.slice(-3).join('\n')).toContain(sentence);

    const md = await run('report', 'merge', ...drifts(1, 2, 4), '--allow-partial', '--format', 'markdown');
    expect(md.code).toBe(1);
    expect(md.stdout).toMatch(/^## rcsctl drift: partial report\n\n> \[!CAUTION\]\n> \*\*PARTIAL REPORT: shard 3\/4 is missing/);

    const json = JSON.parse((await run('report', 'merge', ...drifts(1, 2, 4), '--allow-partial', '--json')).stdout) as DriftReport;
    expect(json.partial).toMatchObject({ missing: ['3/4'], duplicated: [], foreign: [], split: { count: 4, brandSetSize: 12 } });
    expect(json.brands).toHaveLength(held);

    const junit = await run('report', 'merge', ...drifts(1, 2, 4), '--allow-partial', '--format', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain('<testcase classname="rcsctl report merge" name="shard set">');
    expect(junit.stdout).toMatch(/<error message="PARTIAL REPORT: shard 3\/4 is missing[^"]*" type="partial">/);

    // --output: the file has the banner, and so does stdout.
    const out = await run('report', 'merge', ...drifts(1, 2, 4), '--allow-partial', '--format', 'markdown', '-o', 'partial.md');
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(sentence);
    expect(readFileSync(join(dir, 'partial.md'), 'utf8')).toContain('[!CAUTION]');
  });

  it('merges a plan set the same way; a duplicate is left out, keeping the first file', async () => {
    const text = await run('report', 'merge', ...plans(1, 2, 4), '--allow-partial');
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n')[1]).toContain(sentence);
    expect(text.stdout.trimEnd().split('\n').at(-2)).toContain(sentence);
    const md = await run('report', 'merge', ...plans(1, 2, 4), '--allow-partial', '--format', 'markdown');
    expect(md.stdout).toMatch(/^## rcsctl plan: partial report\n\n> \[!CAUTION\]\n> \*\*PARTIAL REPORT: shard 3\/4 is missing/);
    const json = JSON.parse((await run('report', 'merge', ...plans(1, 2, 4), '--allow-partial', '--json')).stdout) as PlanFile;
    expect(json.partial?.missing).toEqual(['3/4']);

    copyFileSync(join(dir, 'plan-2.json'), join(dir, 'plan-2-again.json'));
    const dup = JSON.parse((await run('report', 'merge', ...plans(1, 2, 3, 4), 'plan-2-again.json', '--allow-partial', '--json')).stdout) as PlanFile;
    expect(dup.partial?.duplicated).toEqual([{ shard: '2/4', files: ['plan-2.json', 'plan-2-again.json'] }]);
    expect(dup.brands.map((b) => b.brandId)).toEqual(IDS);
  });
});

describe('report merge --detailed-exitcode', () => {
  it('a merged plan: 2 with changes, 0 without; without the flag 0 either way', async () => {
    expect((await run('report', 'merge', ...plans(1, 2, 3, 4))).code).toBe(0);
    expect((await run('report', 'merge', ...plans(1, 2, 3, 4), '--detailed-exitcode')).code).toBe(2);
    expect((await run('report', 'merge', ...drifts(1, 2, 3, 4), '--detailed-exitcode')).code).toBe(2);
    expect((await run('apply', 'brands', '--yes')).code).toBe(0);
    for (const s of SHARDS) {
      const n = s[0] as string;
      expect((await run('drift', 'brands', '--shard', s, '--format', 'json', '-o', `clean-drift-${n}.json`)).code).toBe(0);
      expect((await run('plan', 'brands', '--shard', s, '--format', 'json', '-o', `clean-plan-${n}.json`)).code).toBe(0);
    }
    const clean = (kind: string) => SHARDS.map((s) => `clean-${kind}-${s[0]}.json`);
    expect((await run('report', 'merge', ...clean('plan'), '--detailed-exitcode')).code).toBe(0);
    expect((await run('report', 'merge', ...clean('drift'), '--detailed-exitcode')).code).toBe(0);
    // A partial set is an error whatever it holds.
    expect((await run('report', 'merge', ...clean('plan').slice(1), '--detailed-exitcode', '--allow-partial')).code).toBe(1);
  });
});

describe('report merge --graph and --preview-url where they draw nothing', () => {
  it('says so on stderr for drift reports only, and for a plan in another format; says nothing where they draw', async () => {
    const drift = await run('report', 'merge', ...drifts(1, 2, 3, 4), '--format', 'markdown', '--graph', '--preview-url', 'https://ci.example/preview/');
    expect(drift.stderr).toContain('warning: --graph draws in the Markdown of plans, and these reports hold no plan: ignored');
    expect(drift.stderr).toContain('warning: --preview-url draws in the Markdown of plans, and these reports hold no plan: ignored');
    expect(drift.stdout).not.toContain('mermaid');
    const text = await run('report', 'merge', ...plans(1, 2, 3, 4), '--graph');
    expect(text.stderr).toContain('warning: --graph draws in the Markdown of plans, and the format is text: ignored');
    const md = await run('report', 'merge', ...plans(1, 2, 3, 4), '--format', 'markdown', '--graph');
    expect(md.stderr).not.toContain('warning');
    expect(md.stdout).toContain('mermaid');
  });
});
