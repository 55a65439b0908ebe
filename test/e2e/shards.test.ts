// Sharding across CI jobs end to end: 30 brands split 3 ways by --shard i/3.
// `rcsctl brands` lists each shard; the shards partition the brands (no
// overlap, none missing); apply --shard touches only its shard; and
// `rcsctl report merge` of the three shards' drift and plan reports equals
// the unsharded run in every format.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import type { PlanFile } from '../../src/plan/types.js';
import type { DriftReport } from '../../src/report/types.js';
import { shardOf } from '../../src/plan/shard.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { cli, TOKEN } from './helpers.js';

const IDS = Array.from({ length: 30 }, (_, i) => `BR.shard${String(i + 1).padStart(5, '0')}`);
const SHARDS = ['1/3', '2/3', '3/3'];

let dir: string;
let emu: RunningEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-shards-'));
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello from ${id}" } }\n`);
  }
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  emu = await startEmulator({ port: 0, seed });
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => cli(argv, { emu, cwd: dir });
/** Times differ between runs; everything else must not. */
const timeless = (text: string): string => text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, 'T').replace(/"requests": \d+|\d+ requests?, \d+ answered 429/g, 'N requests');

describe('three shards of thirty brands', () => {
  it('brands --shard partitions the brands: no overlap, none missing, none empty', async () => {
    const all = JSON.parse((await run('brands', 'brands', '--format', 'json')).stdout) as string[];
    expect(all).toEqual(IDS);
    const shards: string[][] = [];
    for (const s of SHARDS) {
      const r = await run('brands', 'brands', '--json', '--shard', s);
      expect(r.code).toBe(0);
      shards.push(JSON.parse(r.stdout) as string[]);
    }
    for (const s of shards) expect(s.length).toBeGreaterThan(0);
    expect(shards.flat().sort()).toEqual(IDS);
    expect(new Set(shards.flat()).size).toBe(IDS.length);
    // Text: one id a line, the same shard.
    expect((await run('brands', 'brands', '--shard', '2/3')).stdout).toBe(shards[1]?.map((id) => `${id}\n`).join(''));
    // A bad shard is refused naming the flag.
    expect((await run('brands', 'brands', '--shard', '4/3')).stderr).toContain('--shard must be i/n');
  });

  it('apply --shard 1/3 changes only the brands of shard 1', async () => {
    const first = JSON.parse((await run('brands', 'brands', '--json', '--shard', '1/3')).stdout) as string[];
    const r = await run('apply', 'brands', '--shard', '1/3', '--yes');
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse((await run('plan', 'brands', '--json')).stdout) as PlanFile;
    for (const b of plan.brands) expect(b.steps.length === 0, b.brandId).toBe(first.includes(b.brandId));
  });

  it('the merged drift and plan reports equal the unsharded ones, in every format', async () => {
    for (const s of SHARDS) {
      const n = s[0] as string;
      expect([0, 2]).toContain((await run('drift', 'brands', '--shard', s, '--format', 'json', '-o', `drift-${n}.json`)).code);
      expect((await run('plan', 'brands', '--shard', s, '--format', 'json', '-o', `plan-${n}.json`)).code).toBe(0);
    }
    const shards = (kind: string) => SHARDS.map((s) => `${kind}-${s[0]}.json`);
    for (const format of ['json', 'markdown', 'junit', 'text']) {
      const whole = await run('drift', 'brands', '--format', format);
      const merged = await run('report', 'merge', ...shards('drift'), '--format', format);
      expect(merged.code, merged.stderr).toBe(whole.code);
      expect(timeless(merged.stdout), format).toBe(timeless(whole.stdout));
    }
    const report = JSON.parse((await run('report', 'merge', ...shards('drift'), '--json')).stdout) as DriftReport;
    expect(report.brands.map((b) => b.brandId)).toEqual(IDS);

    for (const format of ['json', 'markdown', 'text']) {
      const whole = await run('plan', 'brands', '--format', format);
      const merged = await run('report', 'merge', ...shards('plan'), '--format', format);
      expect(merged.code, merged.stderr).toBe(0);
      expect(timeless(merged.stdout), format).toBe(timeless(whole.stdout));
    }
    const merged = await run('report', 'merge', ...shards('plan'), '--json', '-o', 'plan.json');
    expect(merged.stdout).toContain('(30 brands from 3 reports)');
    expect((JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as PlanFile).brands).toHaveLength(30);
  });

  it('--brand X --shard i/n for a brand of another shard names its shard, and lists no brands (issue 25 §6)', async () => {
    const id = IDS.find((x) => shardOf(x, 3) === 3) as string;
    for (const cmd of ['plan', 'drift', 'apply', 'validate']) {
      const r = await run(cmd, 'brands', '--brand', id, '--shard', '2/3', ...(cmd === 'apply' ? ['--yes'] : []));
      expect(r.code, cmd).toBe(1);
      expect(r.stderr, cmd).toContain(`brand ${id} is in shard 3/3, not 2/3: run it with --shard 3/3, or without --shard`);
      expect(r.stderr, cmd).not.toContain('found:');
    }
    // An id no manifest declares still lists what was found.
    expect((await run('plan', 'brands', '--brand', 'BR.nosuch0001', '--shard', '2/3')).stderr).toContain('no manifest declares brand BR.nosuch0001 (found: BR.shard00001');
  });

  it('with --concurrency auto (the default), a shard of n ramps up as 1 of n sharing the account (plan, drift, apply, apply of a shard\'s saved plan); unsharded or fixed, as one', async () => {
    const env = { RCSCTL_DEBUG: 'limiter' };
    const summary = (stderr: string): string => stderr.split('\n').find((l) => l.includes('limiter: auto') || l.includes('limiter: fixed')) ?? '';
    for (const cmd of ['plan', 'drift', 'apply']) {
      const r = await cli([cmd, 'brands', '--shard', '2/3', '--concurrency', 'auto', ...(cmd === 'apply' ? ['--yes'] : [])], { emu, cwd: dir, env });
      expect([0, 2], `${cmd}: ${r.stderr}`).toContain(r.code);
      expect(summary(r.stderr), cmd).toMatch(/^rcsctl debug: limiter: auto \(cap 32, ramping as 1 of 3 sharing the account\), /);
    }
    // A saved plan of a shard carries it: its apply ramps up as 1 of 3 too.
    expect([0, 2]).toContain((await cli(['plan', 'brands', '--shard', '1/3', '--out', 'saved-1.json'], { emu, cwd: dir })).code);
    const saved = await cli(['apply', '--plan', 'saved-1.json', '--yes'], { emu, cwd: dir, env });
    expect(saved.code, saved.stderr).toBe(0);
    expect(summary(saved.stderr)).toMatch(/^rcsctl debug: limiter: auto \(cap 32, ramping as 1 of 3 sharing the account\), /);
    const whole = await cli(['plan', 'brands', '--concurrency', 'auto'], { emu, cwd: dir, env });
    expect(summary(whole.stderr)).toMatch(/^rcsctl debug: limiter: auto \(cap 32\), /);
    const byDefault = await cli(['plan', 'brands', '--shard', '3/3'], { emu, cwd: dir, env });
    expect(summary(byDefault.stderr)).toMatch(/^rcsctl debug: limiter: auto \(cap 32, ramping as 1 of 3 sharing the account\), /);
    const fixed = await cli(['plan', 'brands', '--shard', '2/3', '--concurrency', '8'], { emu, cwd: dir, env });
    expect(summary(fixed.stderr)).toMatch(/^rcsctl debug: limiter: fixed 8, /);
  });

  it('report merge refuses overlapping shards and mixed kinds, naming the files', async () => {
    const twice = await run('report', 'merge', 'drift-1.json', 'drift-1.json');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('shard 1/3 was given twice (drift-1.json, drift-1.json)');
    // Reports made without --shard are not checked as a set, but a brand in two of them still is refused.
    expect([0, 2]).toContain((await run('drift', 'brands', '--brand', IDS[0] as string, '--json', '-o', 'one.json')).code);
    const overlap = await run('report', 'merge', 'one.json', 'one.json');
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toContain(`brand ${IDS[0]} is in both one.json and one.json`);
    const mixed = await run('report', 'merge', 'drift-1.json', 'plan-2.json');
    expect(mixed.stderr).toContain('drift-1.json is a drift report but plan-2.json is a plan report');
    writeFileSync(join(dir, 'bad.json'), '{"version": 1, "options": {}, "summary": {}}');
    expect((await run('report', 'merge', 'bad.json')).stderr).toMatch(/bad\.json is not a valid drift report: /);
  });
});
