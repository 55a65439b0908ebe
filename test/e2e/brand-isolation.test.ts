// Per-brand isolation end to end: a directory with three brands, one readable
// (the example), one the account may not read (403 63001) and one whose
// manifest is broken. plan, drift and apply report all three in every format,
// the readable brand in full (equal to a run over it alone), write --output
// always, and exit 1 after everything ran. The same with the service down.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftReport } from '../../src/report/types.js';
import type { PlanFile } from '../../src/plan/types.js';
import { admin, BRAND, cli, EXAMPLE, ROOT } from './helpers.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/helpers.js';
import { checkJunit } from '../report/xml-check.js';

const addFormats = formatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
const validDrift = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as object);
const validPlan = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object);

const FORBIDDEN = 'BR.forbid0001';
const BROKEN = 'BR.broken0001';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-isolation-'));
  cpSync(EXAMPLE, join(dir, 'brands', 'coffee'), { recursive: true });
  mkdirSync(join(dir, 'brands', 'forbidden'));
  writeFileSync(
    join(dir, 'brands', 'forbidden', 'brand.yaml'),
    `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${FORBIDDEN} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: Hello } }\n`,
  );
  mkdirSync(join(dir, 'brands', 'broken'));
  writeFileSync(join(dir, 'brands', 'broken', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BROKEN} }\nautoReply:\n  hours: { name: x }\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });
const run = (argv: string[]) => cli(argv, { emu, cwd: dir });

function withoutTimes<T>(x: T): T {
  return JSON.parse(JSON.stringify(x), (k, v: unknown) => (k === 'createdAt' || k === 'generatedAt' ? undefined : v)) as T;
}

describe('one brand failing does not stop the others', () => {
  it('plan: text, json and markdown report all three; the readable brand is complete', async () => {
    const alone = JSON.parse((await run(['plan', 'brands', '--brand', BRAND, '--format', 'json'])).stdout) as PlanFile;

    const json = await run(['plan', 'brands', '--format', 'json', '--out', 'plan.json']);
    expect(json.code).toBe(1);
    const file = JSON.parse(json.stdout) as PlanFile;
    if (!validPlan(file)) throw new Error(ajv.errorsText(validPlan.errors));
    expect(file.brands.map((b) => b.brandId)).toEqual([BROKEN, BRAND, FORBIDDEN]);
    const [broken, coffee, forbidden] = file.brands;
    expect(withoutTimes(coffee)).toEqual(withoutTimes(alone.brands[0]));
    expect(coffee?.steps.length).toBeGreaterThan(0);
    expect(forbidden?.error).toMatchObject({ code: 'E_API', stage: 'read', httpStatus: 403, serviceCode: '63001' });
    expect(forbidden?.error?.hint).toContain('brand role');
    expect(broken?.error).toMatchObject({ code: 'E_MANIFEST', stage: 'manifest' });
    expect(broken?.error?.message).toMatch(/brands\/broken\/brand\.yaml:4:1: RCS201/);
    expect(broken?.error).toMatchObject({ file: 'brands/broken/brand.yaml', line: 4, col: 1, excerpt: '   4 | autoReply:\n     | ^' });
    expect(json.stderr).toContain(`Error: ${FORBIDDEN}: E_API (read)`);
    expect(json.stderr).toContain('2 of 3 brands failed');
    // The saved plan holds the failed brands with their error and no step, and is a valid plan file.
    const saved = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as PlanFile;
    expect(saved.brands.find((b) => b.brandId === FORBIDDEN)).toMatchObject({ steps: [], error: { httpStatus: 403 } });

    const text = await run(['plan', 'brands']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`Brand ${FORBIDDEN} (brands/forbidden): failed: its live state could not be read`);
    expect(text.stdout).toContain('error[E_API]');
    expect(text.stdout).toContain(`Brand ${BROKEN} (brands/broken): failed: its manifests have errors`);
    expect(text.stdout).toMatch(new RegExp(`Brand ${BRAND.replace('.', '\\.')}( "[^"]*")? \\(brands/coffee\\)\\n[\\s\\S]*Plan: \\d+ to create`));
    // The text plan on stdout said each error: stderr does not say it again, and counts the failed brands.
    expect(text.stderr).not.toContain('Error: ');
    expect(text.stderr).toContain('2 of 3 brands failed; the others are reported in full.');

    const md = await run(['plan', 'brands', '--format', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).toContain(`| \`${FORBIDDEN}\` (brands/forbidden) | – | – | – | – | – | – | ❌ E_API |`);
    expect(md.stdout).toContain(`<details><summary>❌ <code>${FORBIDDEN}</code> failed: its live state could not be read</summary>`);
    expect(md.stdout).toMatch(new RegExp(`\\| \`${BRAND}\`[^|]* \\(brands/coffee\\) \\| [1-9]`));
  });

  it('drift: every format is written with --output, reports all three, and exits 1', async () => {
    const alone = JSON.parse((await run(['drift', 'brands', '--brand', BRAND, '--format', 'json'])).stdout) as DriftReport;
    const out: Record<string, string> = {};
    for (const format of ['text', 'json', 'markdown', 'junit']) {
      const r = await run(['drift', 'brands', '--format', format, '--output', `out/drift.${format}`]);
      expect(r.code, format).toBe(1);
      expect(r.stdout).toContain(`Wrote the ${format} report to out/drift.${format}`);
      expect(r.stderr).toContain(`Error: ${FORBIDDEN}: E_API (read)`);
      out[format] = readFileSync(join(dir, 'out', `drift.${format}`), 'utf8');
    }
    const report = JSON.parse(out.json as string) as DriftReport;
    if (!validDrift(report)) throw new Error(ajv.errorsText(validDrift.errors));
    expect(report.brands.map((b) => b.brandId)).toEqual([BROKEN, BRAND, FORBIDDEN]);
    expect(withoutTimes(report.brands[1])).toEqual(withoutTimes(alone.brands[0]));
    expect(report.brands[2]?.error).toMatchObject({ httpStatus: 403, serviceCode: '63001' });
    expect(report.brands[0]?.error?.code).toBe('E_MANIFEST');
    expect(report.clean).toBe(false);

    expect(out.text).toContain(`Brand ${FORBIDDEN} (brands/forbidden): failed: its live state could not be read`);
    expect(out.text).toMatch(new RegExp(`Brand ${BRAND.replace('.', '\\.')}( "[^"]*")? \\(brands/coffee\\): `));
    expect(out.markdown).toContain(`| \`${FORBIDDEN}\` (brands/forbidden) | ❌ failed |`);
    expect(out.markdown).toContain(`<details><summary>❌ <code>${FORBIDDEN}</code>`);
    const cases = checkJunit(out.junit as string);
    expect(cases.filter((c) => c.errored).map((c) => `${c.classname} ${c.name}`)).toEqual([`${BROKEN} manifest`, `${FORBIDDEN} read`]);
    const coffee = alone.brands[0]?.resources.map((r) => r.address) ?? [];
    expect(coffee.length).toBeGreaterThan(0);
    for (const address of coffee) expect(cases.some((c) => c.name === address)).toBe(true);
  });

  it('apply: the readable brand is applied, the others are reported, exit 1', async () => {
    const r = await run(['apply', 'brands', '--yes', '--allow-review']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Brand ${FORBIDDEN} (brands/forbidden): failed: its live state could not be read`);
    expect(r.stdout).toMatch(new RegExp(`${BRAND.replace('.', '\\.')}: \\d+ done, 0 failed`));
    // The plan block on stdout says why each failed brand could not be planned; stderr does not repeat it.
    expect(r.stdout).toContain(`list logos of ${FORBIDDEN} failed: 403`);
    expect(r.stdout).toContain(`Brand ${BROKEN} (brands/broken): failed`);
    expect(r.stderr).not.toContain('Error: ');
    expect(r.stderr).toContain('2 of 3 brands failed (above), the others were applied');
    // The readable brand now matches its manifest.
    const after = await run(['plan', 'brands', '--brand', BRAND, '--format', 'json']);
    const steps = (JSON.parse(after.stdout) as PlanFile).brands[0]?.steps ?? [];
    expect(steps.filter((s) => s.gate.type !== 'blocked')).toEqual([]);
  });

  it('a brand answered 503 until the retries run out fails alone', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ path: 'BR\\.forbid', kind: 'error', status: 503, rate: 1 }] });
    const both = await run(['drift', 'brands', '--format', 'json']);
    expect(both.code).toBe(1);
    const report = JSON.parse(both.stdout) as DriftReport;
    expect(report.brands[2]?.error).toMatchObject({ code: 'E_API', stage: 'read', httpStatus: 503 });
    expect(report.brands.map((b) => [b.brandId, b.error?.httpStatus])).toEqual([[BROKEN, undefined], [BRAND, undefined], [FORBIDDEN, 503]]);
    expect(report.brands[1]?.resources.length).toBeGreaterThan(0);
  }, 30_000);

  it('with the service down, drift still writes its report, every brand errored', async () => {
    const r = await cli(['drift', 'brands', '--format', 'junit', '--output', 'down.xml'], { cwd: dir, env: { RCSCTL_BASE_URL: 'http://127.0.0.1:9', RCSCTL_TOKEN: 't0ken-x' } });
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, 'down.xml'))).toBe(true);
    const cases = checkJunit(readFileSync(join(dir, 'down.xml'), 'utf8'));
    expect(cases.filter((c) => c.errored).map((c) => c.classname)).toEqual([BROKEN, BRAND, FORBIDDEN]);
    expect(r.stderr).toContain('connection refused');
  }, 30_000);
});
