// A YAML syntax error in one brand's file, end to end against the emulator:
// three brands, acme with an unclosed `[` in a file that names no brand
// (brands/acme/menus.yaml). The file is acme's (its folder holds acme's other
// file), so acme fails alone: drift, plan, apply, validate, preview and graph
// report the other two in full, exit 1 as for any failed brand, and write
// --output. A shard without acme is not touched by it. A broken file tied to
// no brand stops the run, and drift still writes its report, with the error,
// in every format.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { shardOf } from '../../src/plan/shard.js';
import type { PlanFile } from '../../src/plan/types.js';
import type { DriftReport } from '../../src/report/types.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { checkJunit } from '../report/xml-check.js';
import { cli, ROOT, TOKEN } from './helpers.js';

const addFormats = formatsModule as unknown as (ajv: Ajv) => Ajv;
const validDrift = addFormats(new Ajv({ allErrors: true, strict: true })).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as object);

const ACME = 'BR.acme000001';
const BETA = 'BR.beta000001';
const GAMMA = 'BR.gamma00001';
const IDS = [ACME, BETA, GAMMA];
const BROKEN = 'brands/acme/menus.yaml';
const LINE = '  hi: { name: Hi, messagebaseId: SCS00000, body: { description: [Hello } }';
/** The source line of the error and a caret under its column (65: the `[`). */
const CARET = `   2 | ${LINE}\n     | ${' '.repeat(LINE.indexOf('['))}^`;

const manifest = (id: string): string => `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello from ${id}" } }\n`;

let dir: string;
let stray: string;
let emu: RunningEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-broken-file-'));
  for (const [name, id] of [['acme', ACME], ['beta', BETA], ['gamma', GAMMA]] as const) {
    mkdirSync(join(dir, 'brands', name), { recursive: true });
    writeFileSync(join(dir, 'brands', name, 'brand.yaml'), manifest(id));
  }
  // No brand id above the error: only its folder says whose it is.
  writeFileSync(join(dir, BROKEN), `autoReplies:\n${LINE}\n`);
  // The same tree, and a broken file beside the brand folders: no brand's.
  stray = mkdtempSync(join(tmpdir(), 'rcsctl-stray-file-'));
  cpSync(join(dir, 'brands'), join(stray, 'brands'), { recursive: true });
  rmSync(join(stray, BROKEN));
  writeFileSync(join(stray, 'brands', 'shared.yaml'), 'defaults: [\n');
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  emu = await startEmulator({ port: 0, seed });
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(stray, { recursive: true, force: true });
});

const run = (...argv: string[]) => cli(argv, { emu, cwd: dir });
const timeless = <T>(x: T): T => JSON.parse(JSON.stringify(x), (k, v: unknown) => (k === 'generatedAt' || k === 'createdAt' ? undefined : v)) as T;

describe('three brands, one with a YAML syntax error in a file that names no brand', () => {
  it('drift: the two others are reported in full, acme fails with file, line, column and caret; exit 1; --output written in every format', async () => {
    const alone = JSON.parse((await run('drift', 'brands', '--brand', BETA, '--brand', GAMMA, '--format', 'json')).stdout) as DriftReport;
    expect(alone.brands.map((b) => b.resources.length)).toEqual([1, 1]);
    const out: Record<string, string> = {};
    for (const format of ['json', 'text', 'markdown', 'junit']) {
      const r = await run('drift', 'brands', '--format', format, '-o', `drift.${format}`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toContain('belong to no brand');
      expect(r.stderr).toContain(`Error: ${ACME}: E_MANIFEST (manifest): 1 error in its manifests: ${BROKEN}:2:65: RCS101`);
      expect(r.stderr).toContain('1 of 3 brands failed; the others are reported in full.');
      out[format] = readFileSync(join(dir, `drift.${format}`), 'utf8');
    }
    const report = JSON.parse(out.json as string) as DriftReport;
    if (!validDrift(report)) throw new Error(JSON.stringify(validDrift.errors));
    expect(report.brands.map((b) => b.brandId)).toEqual(IDS);
    expect(report.brands[0]?.error).toMatchObject({ code: 'E_MANIFEST', stage: 'manifest', file: BROKEN, line: 2, col: 65, excerpt: CARET });
    expect(timeless(report.brands.slice(1))).toEqual(timeless(alone.brands));
    expect(report.error).toBeUndefined();

    expect(out.text).toContain(`Brand ${ACME} (brands/acme): failed: its manifests have errors\n  error[E_MANIFEST] 1 error in its manifests: ${BROKEN}:2:65: RCS101`);
    expect(out.text).toContain(CARET.split('\n').map((l) => `  ${l}`).join('\n'));
    expect(out.text).toMatch(new RegExp(`Brand ${BETA.replace('.', '\\.')}( "[^"]*")? \\(brands/beta\\): drifted`));
    expect(out.markdown).toContain(`| \`${ACME}\` (brands/acme) | ❌ failed |`);
    expect(out.markdown).toContain('```\n' + CARET + '\n```');
    const cases = checkJunit(out.junit as string);
    expect(cases.filter((c) => c.errored).map((c) => `${c.classname} ${c.name}`)).toEqual([`${ACME} manifest`]);
    expect(cases.filter((c) => c.name === 'autoReply.hi').map((c) => c.classname)).toEqual([`${BETA}.autoReply`, `${GAMMA}.autoReply`]);
  });

  it('plan, apply, validate, preview and graph: acme fails, the others are planned, applied, checked and drawn', async () => {
    const plan = await run('plan', 'brands', '--format', 'json', '-o', 'plan.json');
    expect(plan.code).toBe(1);
    const file = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as PlanFile;
    expect(file.brands.map((b) => [b.brandId, b.steps.length, b.error?.code])).toEqual([[ACME, 0, 'E_MANIFEST'], [BETA, 1, undefined], [GAMMA, 1, undefined]]);

    const validate = await run('validate', 'brands');
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(`${BROKEN}:2:65: error RCS101`);
    expect(validate.stderr).toContain(`${ACME}: invalid (1 error)\n${BETA}: valid (0 auto-reply files, 1 auto-reply, `);
    expect(validate.stderr).toContain(`\n${GAMMA}: valid (0 auto-reply files, 1 auto-reply, `);

    const preview = await run('preview', 'brands', '-o', 'site');
    expect(preview.code).toBe(1);
    expect(preview.stdout).toMatch(new RegExp(`^${BETA}: 1 auto-reply, `));
    expect(preview.stdout).toContain(`\n${GAMMA}: 1 auto-reply, `);
    expect(preview.stdout).not.toContain(ACME);
    expect(existsSync(join(dir, 'site', BETA))).toBe(true);
    expect(existsSync(join(dir, 'site', ACME))).toBe(false);
    expect(preview.stderr).toContain(`Error: ${ACME}: E_MANIFEST (manifest)`);
    expect(preview.stderr).toContain('1 of 3 brands failed; the others are drawn.');

    const graph = await run('graph', 'brands');
    expect(graph.code).toBe(1);
    expect(graph.stdout).toContain(BETA);
    expect(graph.stdout).toContain(GAMMA);
    expect(graph.stdout).not.toContain(ACME);
    expect(graph.stderr).toContain(`Error: ${ACME}: E_MANIFEST (manifest)`);

    const apply = await run('apply', 'brands', '--yes');
    expect(apply.code).toBe(1);
    // The plan block on stdout names the broken file; stderr only counts the brand.
    expect(apply.stdout).toContain(`Brand ${ACME} (brands/acme): failed`);
    expect(apply.stdout).toContain('E_MANIFEST');
    expect(apply.stderr).not.toContain(`Error: ${ACME}`);
    expect(apply.stderr).toContain('1 of 3 brands failed (above), the others were applied');
    const after = JSON.parse((await run('plan', 'brands', '--brand', BETA, '--brand', GAMMA, '--format', 'json')).stdout) as PlanFile;
    expect(after.brands.map((b) => b.steps.length)).toEqual([0, 0]);
  });

  it('a shard without acme is not touched by its broken file', async () => {
    const count = [2, 3, 4, 5].find((n) => IDS.filter((id) => shardOf(id, n) !== shardOf(ACME, n)).length > 0) as number;
    const index = shardOf(IDS.find((id) => shardOf(id, count) !== shardOf(ACME, count)) as string, count);
    const mine = IDS.filter((id) => shardOf(id, count) === index);
    const shard = `${index}/${count}`;
    const drift = await run('drift', 'brands', '--shard', shard, '--format', 'json', '-o', 'shard.json');
    const report = JSON.parse(readFileSync(join(dir, 'shard.json'), 'utf8')) as DriftReport;
    expect(report.brands.map((b) => [b.brandId, b.error, b.resources.length])).toEqual(mine.map((id) => [id, undefined, 1]));
    // The exit code is this shard's own: 0 clean, 2 drift; never 1 for acme.
    expect(drift.code, drift.stderr).toBe(report.clean ? 0 : 2);
    expect(drift.stderr).not.toContain('acme');
    const validate = await run('validate', 'brands', '--shard', shard);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).not.toContain('menus.yaml');
    // acme's shard fails acme alone.
    const other = await run('drift', 'brands', '--shard', `${shardOf(ACME, count)}/${count}`, '--format', 'json');
    expect(other.code).toBe(1);
    expect((JSON.parse(other.stdout) as DriftReport).brands.find((b) => b.brandId === ACME)?.error?.file).toBe(BROKEN);
  });
});

describe('a broken file tied to no brand', () => {
  const runStray = (...argv: string[]) => cli(argv, { emu, cwd: stray });

  it('stops the run before any request; drift still writes its report, with the error, in every format', async () => {
    const out: Record<string, string> = {};
    for (const format of ['json', 'text', 'markdown', 'junit']) {
      const r = await runStray('drift', 'brands', '--format', format, '-o', `drift.${format}`);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Error: the manifests have 1 error that belongs to no brand; nothing was sent');
      expect(r.stdout).toBe(`Drift: stopped before any brand was checked: a manifest error belongs to no brand.\nWrote the ${format} report to drift.${format}.\n`);
      out[format] = readFileSync(join(stray, `drift.${format}`), 'utf8');
    }
    const report = JSON.parse(out.json as string) as DriftReport;
    if (!validDrift(report)) throw new Error(JSON.stringify(validDrift.errors));
    expect(report).toMatchObject({ clean: false, brands: [], error: { code: 'E_MANIFEST', stage: 'manifest', file: 'brands/shared.yaml', line: 1, col: 11, excerpt: '   1 | defaults: [\n     |           ^' } });
    expect(out.text).toContain('brands/shared.yaml:1:11: RCS101');
    expect((out.text as string).trimEnd().split('\n').at(-1)).toBe('Drift: stopped before any brand was checked: a manifest error belongs to no brand.');
    expect(out.markdown).toContain('## rcsctl drift: stopped');
    expect(out.markdown).toContain('brands/shared.yaml:1:11: RCS101');
    const cases = checkJunit(out.junit as string);
    expect(cases.map((c) => [c.classname, c.name, c.errored])).toEqual([['manifests', 'manifest', true]]);
    const plan = await runStray('plan', 'brands', '--brand', BETA);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('belongs to no brand');
  });

  it('every shard stops; report merge keeps the error and exits 1', async () => {
    for (const s of ['1/2', '2/2']) {
      const r = await runStray('drift', 'brands', '--shard', s, '--format', 'json', '-o', `shard-${s[0]}.json`);
      expect(r.code).toBe(1);
      expect((JSON.parse(readFileSync(join(stray, `shard-${s[0]}.json`), 'utf8')) as DriftReport).shard).toMatchObject({ index: Number(s[0]), count: 2 });
    }
    const merged = await runStray('report', 'merge', 'shard-1.json', 'shard-2.json', '--format', 'json', '-o', 'merged.json');
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stdout).toContain('Drift: stopped before any brand was checked: a manifest error belongs to no brand in a shard.');
    const report = JSON.parse(readFileSync(join(stray, 'merged.json'), 'utf8')) as DriftReport;
    expect(report).toMatchObject({ clean: false, brands: [], error: { file: 'brands/shared.yaml', line: 1, col: 11 } });
  });

  it('plan --out writes a plan file that holds the error and no brand; apply refuses it; report merge keeps the error', async () => {
    for (const s of ['1/2', '2/2']) {
      const r = await runStray('plan', 'brands', '--shard', s, '--format', 'json', '-o', `plan-${s[0]}.json`);
      expect(r.code).toBe(1);
      const file = JSON.parse(readFileSync(join(stray, `plan-${s[0]}.json`), 'utf8')) as PlanFile;
      expect((JSON.parse(r.stdout) as PlanFile).error).toEqual(file.error);
      expect(file).toMatchObject({ baseUrl: emu.url, brands: [], shard: { index: Number(s[0]), count: 2 }, error: { code: 'E_MANIFEST', file: 'brands/shared.yaml', line: 1, col: 11 } });
    }
    const apply = await runStray('apply', '--plan', 'plan-1.json', '--yes');
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('plan file plan-1.json holds no plan: the run that made it stopped: 1 error that belongs to no brand: brands/shared.yaml:1:11: RCS101');
    const merged = await runStray('report', 'merge', 'plan-1.json', 'plan-2.json');
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('Plan: stopped before any brand was checked: a manifest error belongs to no brand in a shard.');
    expect(merged.stdout).toContain('brands/shared.yaml:1:11: RCS101');
  });
});
