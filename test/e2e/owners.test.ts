// Owners (issue 38): a brand declares its owners in its brand document
// (`brand.owners`); plans show them beside the brand in every format,
// `rcsctl brands --owners` lists them and `--format codeowners` makes the
// CODEOWNERS file that requests their review; a malformed owner is an error
// naming file, line and field.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { planValidator } from '../../src/plan/plan-file.js';
import { cli, emulator, ROOT } from './helpers.js';

const addFormats = formatsModule as unknown as (ajv: Ajv) => Ajv;

let emu: RunningEmulator;
let REPO: string;

function brand(dir: string, id: string, owners?: string[], extra = ''): void {
  mkdirSync(join(REPO, dir), { recursive: true });
  const list = owners === undefined ? '' : `  owners: [${owners.map((o) => JSON.stringify(o)).join(', ')}]\n`;
  writeFileSync(join(REPO, dir, `${id}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${id}\n${list}${extra}`);
}

beforeAll(async () => {
  emu = await emulator();
  REPO = mkdtempSync(join(tmpdir(), 'rcsctl-owners-'));
  mkdirSync(join(REPO, '.git'));
  // The example brand with owners, a change to plan (a new auto-reply), in its own folder.
  brand('brands/coffee co', 'BR.demo000001', ['@agency/coffee-team', 'ops@example.com'], 'autoReplies:\n  hello:\n    name: Hello\n    messagebaseId: SCS00000\n    body: { description: "Hello from the owners test" }\n');
  // Two brands sharing one folder: each is named by its own file in CODEOWNERS.
  brand('brands/shared', 'BR.shared0001', ['@agency/north']);
  brand('brands/shared', 'BR.shared0002');
});
afterAll(async () => {
  await emu.close();
  rmSync(REPO, { recursive: true, force: true });
});

describe('owners', () => {
  it('brands --owners lists them, as text and JSON', async () => {
    const text = await cli(['brands', 'brands', '--owners'], { cwd: REPO });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('BR.demo000001\t@agency/coffee-team ops@example.com\nBR.shared0001\t@agency/north\nBR.shared0002\t(no owners)\n');
    const json = await cli(['brands', 'brands', '--owners', '--format', 'json'], { cwd: REPO });
    expect(JSON.parse(json.stdout)).toEqual([
      { brandId: 'BR.demo000001', owners: ['@agency/coffee-team', 'ops@example.com'] },
      { brandId: 'BR.shared0001', owners: ['@agency/north'] },
      { brandId: 'BR.shared0002', owners: [] },
    ]);
    // Without --owners the JSON stays the array of ids a CI matrix reads.
    expect(JSON.parse((await cli(['brands', 'brands', '--format', 'json'], { cwd: REPO })).stdout)).toEqual(['BR.demo000001', 'BR.shared0001', 'BR.shared0002']);
  });

  it('--format codeowners: a folder per brand, a file per brand where brands share a folder', async () => {
    const r = await cli(['brands', 'brands', '--owners', '--format', 'codeowners'], { cwd: REPO });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => !l.startsWith('#') && l !== '')).toEqual([
      '/brands/coffee\\ co/ @agency/coffee-team ops@example.com',
      '/brands/shared/BR.shared0001.yaml @agency/north',
    ]);
    expect(r.stderr).toContain('1 brand declares no owners (BR.shared0002)');
    // The same file from inside the folder: paths are the repository's, not the working directory's.
    const inside = await cli(['brands', '.', '--format', 'codeowners'], { cwd: join(REPO, 'brands') });
    expect(inside.stdout).toBe(r.stdout);
  });

  it('plan shows them beside the brand: text, Markdown, JSON', async () => {
    const dir = join(REPO, 'brands', 'coffee co');
    const text = await cli(['plan', dir], { emu });
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain(`Brand BR.demo000001 (${dir})\n  Owners: @agency/coffee-team, ops@example.com\n`);
    const md = await cli(['plan', dir, '--format', 'markdown'], { emu });
    expect(md.stdout).toContain('Owners: `@agency/coffee-team`, `ops@example.com`');
    const json = await cli(['plan', dir, '--format', 'json'], { emu });
    const file = JSON.parse(json.stdout) as { brands: { owners?: string[] }[] };
    expect(file.brands[0]?.owners).toEqual(['@agency/coffee-team', 'ops@example.com']);
    const validate = planValidator();
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it('drift shows them beside the brand, as plans do: text, Markdown, JSON, JUnit, and the merged comment', async () => {
    const dir = join(REPO, 'brands', 'coffee co');
    // The new auto-reply is missing live: the brand has drifted, so every format shows its block.
    const text = await cli(['drift', dir], { emu });
    expect(text.code, text.stdout + text.stderr).toBe(2);
    expect(text.stdout).toContain(`Brand BR.demo000001 (${dir}): drifted\n  Owners: @agency/coffee-team, ops@example.com\n`);
    const md = await cli(['drift', dir, '--format', 'markdown'], { emu });
    expect(md.stdout).toMatch(/<details><summary><code>BR\.demo000001<\/code>[^\n]*<\/summary>\n\nOwners: `@agency\/coffee-team`, `ops@example\.com`\n/);
    const json = await cli(['drift', dir, '--format', 'json'], { emu });
    const report = JSON.parse(json.stdout) as { brands: { owners?: string[] }[] };
    expect(report.brands[0]?.owners).toEqual(['@agency/coffee-team', 'ops@example.com']);
    const validDrift = addFormats(new Ajv({ allErrors: true, strict: true })).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as object);
    expect(validDrift(report), JSON.stringify(validDrift.errors)).toBe(true);
    const junit = await cli(['drift', dir, '--format', 'junit'], { emu });
    expect(junit.stdout).toContain('<property name="brand.owners" value="@agency/coffee-team, ops@example.com"/>');
    // A brand that could not be checked keeps its owners (whom to ask); one without owners says nothing of them.
    const shared = await cli(['drift', join(REPO, 'brands', 'shared')], { emu });
    expect(shared.code).toBe(1);
    expect(shared.stdout).toContain(`Brand BR.shared0001 (${join(REPO, 'brands', 'shared')}): failed: its live state could not be read\n  Owners: @agency/north\n`);
    expect(shared.stdout).toMatch(/Brand BR\.shared0002 \([^)]*\): failed: its live state could not be read\n {2}error\[E_API\]/);
    // The comment the recipes post: the drift part of a merge of plans and drift reports.
    writeFileSync(join(REPO, 'drift.json'), json.stdout);
    writeFileSync(join(REPO, 'plan.json'), (await cli(['plan', dir, '--format', 'json'], { emu })).stdout);
    const comment = await cli(['report', 'merge', 'plan.json', 'drift.json', '--format', 'markdown'], { cwd: REPO });
    const driftPart = comment.stdout.slice(comment.stdout.indexOf('## rcsctl drift'));
    expect(driftPart).toContain('Owners: `@agency/coffee-team`, `ops@example.com`');
  });

  it('a malformed owner is an error naming file, line and field', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'rcsctl-owners-bad-'));
    try {
      writeFileSync(join(bad, 'brand.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: BR.demo000001\n  owners:\n    - "@agency/ok"\n    - "coffee team"\n');
      const r = await cli(['validate', bad, '--format', 'json']);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as { diagnostics: { file: string; line: number; path: string; severity: string }[] };
      expect(report.diagnostics).toContainEqual(expect.objectContaining({ line: 7, path: '/brand/owners/1', severity: 'error' }));
      expect(report.diagnostics[0]?.file).toMatch(/brand\.yaml$/);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
