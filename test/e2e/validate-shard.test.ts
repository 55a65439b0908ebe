// `rcsctl validate --shard i/n`: the shards partition the brands as plan's do,
// a brand's diagnostics are reported by its shard alone, and a file that
// belongs to no brand is reported by every shard.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/plan/shard.js';
import { cli } from './helpers.js';

const IDS = Array.from({ length: 12 }, (_, i) => `BR.vshard${String(i + 1).padStart(4, '0')}`);
const BROKEN = IDS[4] as string;
const SHARDS = ['1/3', '2/3', '3/3'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-validate-shard-'));
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    const messagebase = id === BROKEN ? 'messagebaseId: 12' : 'messagebaseId: SCS00000';
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi: { name: Hi, ${messagebase}, body: { description: "Hello from ${id}" } }\n`);
  }
  writeFileSync(join(dir, 'brands', 'orphan.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: [not, a, brand\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ValidateJson {
  ok: boolean;
  diagnostics: { file: string; severity: string }[];
  brands: { brandId: string }[];
}

const validate = async (...extra: string[]): Promise<ValidateJson> => {
  const r = await cli(['validate', 'brands', '--json', ...extra], { cwd: dir });
  expect(r.code).toBe(1);
  return JSON.parse(r.stdout) as ValidateJson;
};

describe('validate --shard', () => {
  it('partitions the brands; each brand\'s diagnostics come from its shard, a file of no brand from every shard', async () => {
    const all = await validate();
    expect(all.brands.map((b) => b.brandId).sort()).toEqual(IDS.filter((id) => id !== BROKEN).sort());
    const brokenFile = (d: { file: string }) => d.file.includes(BROKEN);
    const orphanFile = (d: { file: string }) => d.file.endsWith('orphan.yaml');
    expect(all.diagnostics.some(brokenFile)).toBe(true);
    expect(all.diagnostics.some(orphanFile)).toBe(true);

    const shards: ValidateJson[] = [];
    for (const s of SHARDS) shards.push(await validate('--shard', s));
    const ids = shards.flatMap((s) => s.brands.map((b) => b.brandId));
    expect(ids.sort()).toEqual(all.brands.map((b) => b.brandId).sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i, s] of shards.entries()) {
      for (const b of s.brands) expect(shardOf(b.brandId, 3)).toBe(i + 1);
      expect(s.diagnostics.some(brokenFile)).toBe(shardOf(BROKEN, 3) === i + 1);
      expect(s.diagnostics.some(orphanFile)).toBe(true);
      expect(s.ok).toBe(false);
    }
    // Every diagnostic of the whole run is reported by some shard.
    const seen = new Set(shards.flatMap((s) => s.diagnostics.map((d) => JSON.stringify(d))));
    for (const d of all.diagnostics) expect(seen.has(JSON.stringify(d))).toBe(true);
  });

  it('refuses a bad shard, naming the flag', async () => {
    const r = await cli(['validate', 'brands', '--shard', '0/3'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--shard must be i/n');
  });
});
