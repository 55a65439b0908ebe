// Brands nobody declares (issue 38): plan and drift of a repository list the
// live brands the account can see that no manifest declares, as
// BRAND_UNMANAGED, in every format; --detailed-exitcode counts them; a brand
// rcsctl planned before (its cache holds it) is named as a removed folder;
// --unmanaged-brand leaves one out on purpose; each shard names only its own.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { loadSeed, type Seed } from '../../src/emulator/index.js';
import { planValidator } from '../../src/plan/plan-file.js';
import { shardOf } from '../../src/plan/shard.js';
import { cli, emulator, ROOT } from './helpers.js';

const ORPHANS = ['BR.orphan0001', 'BR.orphan0002', 'BR.orphan0003', 'BR.orphan0004'];

function seed(): Seed {
  const s = loadSeed(join(ROOT, 'examples', 'emulator-seed.yaml'));
  const master = s.accounts.find((a) => a.userId === 'master');
  if (master === undefined) throw new Error('the example seed has no master account');
  // The example brand's page has a name in the account's list: what plan and drift call it, its manifests declaring no profile.
  const demo = s.brands.find((b) => b.brandId === 'BR.demo000001');
  if (demo === undefined) throw new Error('the example seed has no example brand');
  demo.page = { ...(demo.page ?? {}), name: 'Coffee Co' };
  ORPHANS.forEach((brandId, i) => {
    s.brands.push({ brandId, brandKey: `BK.orphan00000${i + 1}`, page: { name: `Old Client ${i + 1}` } });
    (master.brands ??= []).push({ brandId, role: 'representative' });
  });
  return s;
}

let emu: RunningEmulator;
let cache: string;
let REPO: string;
const env = (): Record<string, string> => ({ RCSCTL_PERSON_ID: 'master', RCSCTL_CACHE_DIR: cache });

beforeAll(async () => {
  emu = await emulator(seed());
  cache = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-cache-'));
  // A repository that declares the example brand and nothing in it: its plan has no changes, so only the unmanaged brands remain to report.
  REPO = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-decl-'));
  writeFileSync(join(REPO, 'brand.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: BR.demo000001\n');
});
afterAll(async () => {
  await emu.close();
  rmSync(cache, { recursive: true, force: true });
  rmSync(REPO, { recursive: true, force: true });
});

describe('brands nobody declares', () => {
  it('plan names each one, and --detailed-exitcode counts them', async () => {
    const r = await cli(['plan', REPO, '--detailed-exitcode'], { emu, env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain('4 live brands of the account no manifest declares (BRAND_UNMANAGED):');
    for (const [i, id] of ORPHANS.entries()) expect(r.stdout).toContain(`warning BRAND_UNMANAGED ${id} "Old Client ${i + 1}"`);
    expect(r.stdout).not.toContain('BRAND_UNMANAGED BR.demo000001');
    // The declared brand is named as the list names it, though its manifests declare no profile (issue 38, "Names people use").
    expect(r.stdout).toContain(`Brand BR.demo000001 "Coffee Co" (${REPO})`);
    const drift = await cli(['drift', REPO, '--format', 'json'], { emu, env: env() });
    expect((JSON.parse(drift.stdout) as { brands: { brandId: string; name?: string }[] }).brands.find((b) => b.brandId === 'BR.demo000001')?.name).toBe('Coffee Co');
    // Without the account's id, no list is read: nothing to report, the plan has no changes.
    const bare = await cli(['plan', REPO, '--detailed-exitcode'], { emu, env: { ...env(), RCSCTL_PERSON_ID: undefined } });
    expect(bare.code, bare.stdout + bare.stderr).toBe(0);
    expect(bare.stdout).not.toContain('BRAND_UNMANAGED');
  });

  it('--unmanaged-brand leaves a brand out on purpose; --brand checks no list', async () => {
    const r = await cli(['plan', REPO, '--detailed-exitcode', ...ORPHANS.flatMap((id) => ['--unmanaged-brand', id])], { emu, env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('BRAND_UNMANAGED');
    const one = await cli(['plan', REPO, '--detailed-exitcode', '--brand', 'BR.demo000001'], { emu, env: env() });
    expect(one.code, one.stdout + one.stderr).toBe(0);
  });

  it('plan JSON and Markdown carry them; the JSON validates', async () => {
    const json = await cli(['plan', REPO, '--format', 'json'], { emu, env: env() });
    const file = JSON.parse(json.stdout) as { unmanagedBrands: { brandId: string; name: string; finding: { code: string; severity: string; address: string } }[] };
    expect(file.unmanagedBrands.map((b) => b.brandId)).toEqual(ORPHANS);
    expect(file.unmanagedBrands[0]?.finding).toMatchObject({ code: 'BRAND_UNMANAGED', severity: 'warning', address: 'brand.BR.orphan0001' });
    const validate = planValidator();
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const md = await cli(['plan', REPO, '--format', 'markdown'], { emu, env: env() });
    expect(md.stdout).toContain('### ⚠️ 4 live brands of the account no manifest declares (BRAND_UNMANAGED):');
    expect(md.stdout).toContain('| `BR.orphan0003` | Old Client 3 |');
  });

  it('drift reports them in text, JSON, Markdown and JUnit, and is not clean (exit 2)', async () => {
    const text = await cli(['drift', REPO], { emu, env: env() });
    expect(text.code, text.stdout + text.stderr).toBe(2);
    expect(text.stdout).toContain('warning BRAND_UNMANAGED BR.orphan0002 "Old Client 2"');
    expect(text.stdout).toMatch(/4 live brands no manifest declares\.\n$/);
    const json = await cli(['drift', REPO, '--format', 'json'], { emu, env: env() });
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as { clean: boolean; unmanagedBrands: { brandId: string; finding: { help: string } }[] };
    expect(report.clean).toBe(false);
    expect(report.unmanagedBrands.map((b) => b.brandId)).toEqual(ORPHANS);
    expect(report.unmanagedBrands[0]?.finding.help).toMatch(/troubleshooting\.md#brand_unmanaged$/);
    const ajv = (formatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: true, allErrors: true }));
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as object);
    expect(validate(report), ajv.errorsText(validate.errors)).toBe(true);
    const md = await cli(['drift', REPO, '--format', 'markdown'], { emu, env: env() });
    expect(md.stdout).toContain('| `BR.orphan0004` | Old Client 4 |');
    const junit = await cli(['drift', REPO, '--format', 'junit'], { emu, env: env() });
    expect(junit.stdout).toContain('<testsuite name="unmanaged brands" tests="4" failures="4"');
    expect(junit.stdout).toContain('<testcase classname="unmanaged brands" name="brand.BR.orphan0001">');
  });

  it('a brand whose folder was removed is named so: rcsctl planned it before', async () => {
    // A second repository declaring one orphan, planned with the same cache: then its folder goes away.
    const repo = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-repo-'));
    try {
      writeFileSync(join(repo, 'brand.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: BR.orphan0001\n');
      const before = await cli(['plan', repo], { emu, env: env() });
      expect(before.code, before.stdout + before.stderr).toBe(0);
      const after = await cli(['plan', REPO, '--format', 'json'], { emu, env: env() });
      const file = JSON.parse(after.stdout) as { unmanagedBrands: { brandId: string; declaredBefore: boolean; finding: { message: string } }[] };
      expect(file.unmanagedBrands.find((b) => b.brandId === 'BR.orphan0001')).toMatchObject({ declaredBefore: true });
      expect(file.unmanagedBrands.find((b) => b.brandId === 'BR.orphan0001')?.finding.message).toContain('its folder was removed or renamed');
      expect(file.unmanagedBrands.find((b) => b.brandId === 'BR.orphan0002')).toMatchObject({ declaredBefore: false });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('with --shard, each shard names only the brands that hash to it; the merge names each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-shards-'));
    try {
      const files: string[] = [];
      for (const i of [1, 2]) {
        const out = join(dir, `drift-${i}.json`);
        await cli(['drift', REPO, '--shard', `${i}/2`, '--format', 'json', '--out', out], { emu, env: env() });
        const report = JSON.parse(readFileSync(out, 'utf8')) as { unmanagedBrands: { brandId: string }[] };
        expect(report.unmanagedBrands.map((b) => b.brandId)).toEqual(ORPHANS.filter((id) => shardOf(id, 2) === i));
        files.push(out);
      }
      const merged = await cli(['report', 'merge', ...files, '--format', 'json'], { emu, env: env() });
      expect(merged.code, merged.stdout + merged.stderr).toBe(2);
      expect((JSON.parse(merged.stdout) as { unmanagedBrands: { brandId: string }[] }).unmanagedBrands.map((b) => b.brandId)).toEqual(ORPHANS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('plan --compare-to names a brand whose folder the change removes, with what stays live, without the account list or the cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-removed-'));
    try {
      const declare = (path: string, id: string): void => {
        mkdirSync(join(dir, path), { recursive: true });
        writeFileSync(join(dir, path, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${id}\n`);
      };
      // The base declares the example brand and an orphan; the change removes the example brand's folder.
      declare('base/brands/coffee', 'BR.demo000001');
      declare('base/brands/old', 'BR.orphan0002');
      declare('brands/old', 'BR.orphan0002');
      const noList = { RCSCTL_PERSON_ID: undefined };
      const r = await cli(['plan', 'brands', '--compare-to', 'base/brands', '--detailed-exitcode', '--no-cache'], { emu, cwd: dir, env: noList });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stdout).toContain('1 live brand of the account no manifest declares (BRAND_UNMANAGED):');
      expect(r.stdout).toContain('warning BRAND_UNMANAGED BR.demo000001 (its folder was removed)');
      // What the example brand holds live in the seed: its rooms and their menus.
      expect(r.stdout).toContain('brand BR.demo000001 is declared by the base (base/brands/coffee/brand.yaml:3) and by no manifest of this change: its folder was removed, and nothing is deleted. Everything it holds stays live and unmonitored: 2 rooms, 2 persistent menus.');
      const json = JSON.parse((await cli(['plan', 'brands', '--compare-to', 'base/brands', '--format', 'json', '--no-cache'], { emu, cwd: dir, env: noList })).stdout) as { unmanagedBrands: { brandId: string; declaredBefore: boolean; finding: { message: string } }[] };
      const validate = planValidator();
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
      expect(json.unmanagedBrands.map((b) => [b.brandId, b.declaredBefore])).toEqual([['BR.demo000001', true]]);
      expect(json.unmanagedBrands[0]?.finding.message).toContain('stays live and unmonitored: 2 rooms, 2 persistent menus.');
      // The saved plan keeps it, and show says it in text and Markdown as plan did.
      await cli(['plan', 'brands', '--compare-to', 'base/brands', '--out', 'saved.json', '--no-cache'], { emu, cwd: dir, env: noList });
      for (const format of ['text', 'markdown']) {
        const shown = await cli(['show', 'saved.json', '--format', format], { cwd: dir });
        expect(shown.stdout, format).toContain('brand BR.demo000001 is declared by the base (base/brands/coffee/brand.yaml:3) and by no manifest of this change: its folder was removed');
      }
      // Marked as deliberately unmanaged: not named.
      const marked = await cli(['plan', 'brands', '--compare-to', 'base/brands', '--detailed-exitcode', '--no-cache', '--unmanaged-brand', 'BR.demo000001'], { emu, cwd: dir, env: noList });
      expect(marked.code, marked.stdout).toBe(0);
      // With the account's list too, the brand is named once, as the change's removal.
      const both = JSON.parse((await cli(['plan', 'brands', '--compare-to', 'base/brands', '--format', 'json', '--no-cache'], { emu, cwd: dir, env: env() })).stdout) as { unmanagedBrands: { brandId: string; accounts: string[]; finding: { message: string } }[] };
      expect(both.unmanagedBrands.filter((b) => b.brandId === 'BR.demo000001')).toEqual([expect.objectContaining({ accounts: ['master'], finding: expect.objectContaining({ message: expect.stringContaining('declared by the base') }) })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the sharded recipes' comment (report merge of plans and drift reports) names a brand whose folder the change removes, and each unmanaged brand once", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-unmanaged-comment-'));
    try {
      const declare = (path: string, id: string): void => {
        mkdirSync(join(dir, path), { recursive: true });
        writeFileSync(join(dir, path, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${id}\n`);
      };
      declare('base/brands/coffee', 'BR.demo000001');
      declare('base/brands/old', 'BR.orphan0002');
      declare('brands/old', 'BR.orphan0002');
      // As a shard job runs them, with the account's list: the plan and the drift report both name the unmanaged brands.
      for (const i of [1, 2]) {
        await cli(['plan', 'brands', '--shard', `${i}/2`, '--compare-to', 'base/brands', '--format', 'json', '--output', `plan-${i}.json`, '--no-cache'], { emu, cwd: dir, env: env() });
        await cli(['drift', 'brands', '--shard', `${i}/2`, '--format', 'json', '--output', `drift-${i}.json`, '--no-cache'], { emu, cwd: dir, env: env() });
      }
      const comment = await cli(['report', 'merge', 'plan-1.json', 'plan-2.json', 'drift-1.json', 'drift-2.json', '--format', 'markdown'], { emu, cwd: dir, env: env() });
      expect(comment.code, comment.stdout + comment.stderr).toBe(2);
      const body = comment.stdout;
      // The removed folder, with what stays live, in the plan's part.
      expect(body).toContain('brand BR.demo000001 is declared by the base (base/brands/coffee/brand.yaml:3) and by no manifest of this change: its folder was removed, and nothing is deleted.');
      expect(body.indexOf('BR.demo000001')).toBeLessThan(body.indexOf('## rcsctl drift'));
      // Every unmanaged brand in one table row, not again under the drift.
      for (const id of ['BR.demo000001', ...ORPHANS.filter((o) => o !== 'BR.orphan0002')]) expect(body.match(new RegExp(`^\\| \`${id.replace('.', '\\.')}\``, 'gm')), id).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
