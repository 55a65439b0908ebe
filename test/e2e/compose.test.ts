// Composition (issue 37): bases with typed variables, overrides, generated
// brands. Each way of getting one wrong is an error with the file, line and
// column that holds the mistake (the brand's file, the base's, or a generator
// row) and, for a base's line, the brand that uses it. The example agency
// validates clean, its documents pass the editors' schemas, and a sandbox
// apply converges.

import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Seed } from '../../src/emulator/index.js';
import { parseManifestText } from '../../src/manifest/read-yaml.js';
import { admin, cli, emulator, TOKEN } from './helpers.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function run(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(argv, { stdout, stderr, env: {}, cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const BASE = `apiVersion: rcsctl/v1
kind: Base
variables:
  city: { type: string }
  seats: { type: number, default: 24 }
autoReplies:
  hours:
    name: Opening hours
    messagebaseId: SCS00000
    body:
      description: "Bean Street \${var:city}, \${var:seats} seats."
`;

function brand(id: string, extra: string, vars = '{ city: Seoul }'): string {
  return `apiVersion: rcsctl/v1
kind: Brand
brand:
  id: ${id}
bases:
  - base: ../base
    variables: ${vars}
${extra}`;
}

/** A repository in a temporary folder: path → text. */
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-compose-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

interface Diag {
  code: string;
  file: string;
  line: number;
  col: number;
  message: string;
}

async function diagnostics(files: Record<string, string>, paths = ['.']): Promise<{ code: number; diags: Diag[] }> {
  const r = await run(['validate', '--format', 'json', ...paths], repo(files));
  return { code: r.code, diags: (JSON.parse(r.stdout) as { diagnostics: Diag[] }).diagnostics.map(({ code, file, line, col, message }) => ({ code, file, line, col, message })) };
}

describe('composition errors, each with its file, line and column', () => {
  it('a variable the base does not declare (RCS701), at the brand line that gives it', async () => {
    const r = await diagnostics({ 'base/base.yaml': BASE, 'a/brand.yaml': brand('BR.composeaaa', '', '{ city: Seoul, cty: Busan }') });
    expect(r.code).toBe(1);
    expect(r.diags).toEqual([{ code: 'RCS701', file: 'a/brand.yaml', line: 7, col: 36, message: 'base base declares no variable "cty" (it declares city, seats)' }]);
  });

  it('${var:NAME} of a variable the base lacks (RCS701), at the base line, naming the brand', async () => {
    const r = await diagnostics({ 'base/base.yaml': BASE.replace('${var:seats}', '${var:tables}'), 'a/brand.yaml': brand('BR.composeaaa', '') });
    expect(r.diags).toEqual([
      { code: 'RCS701', file: 'base/base.yaml', line: 11, col: 20, message: '"${var:tables}" names no variable of base base (it declares city, seats) (for brand BR.composeaaa (a/brand.yaml:3))' },
    ]);
  });

  it('a required variable not given (RCS702), at the bases entry', async () => {
    const r = await diagnostics({ 'base/base.yaml': BASE, 'a/brand.yaml': brand('BR.composeaaa', '', '{ seats: 3 }') });
    expect(r.diags).toEqual([{ code: 'RCS702', file: 'a/brand.yaml', line: 6, col: 11, message: 'base base needs variable "city" (a string), and it is not given' }]);
  });

  it('a value of the wrong type (RCS703), from a brand and from a CSV row', async () => {
    const r = await diagnostics({
      'base/base.yaml': BASE,
      'a/brand.yaml': brand('BR.composeaaa', '', '{ city: Seoul, seats: many }'),
      'set/set.yaml': 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nfrom: rows.csv\n',
      'set/rows.csv': 'id,city,seats\nBR.composebbb,Daegu,30\nBR.composeccc,Ulsan,lots\n',
    });
    expect(r.diags).toEqual([
      { code: 'RCS703', file: 'a/brand.yaml', line: 7, col: 38, message: 'variable "seats" of base base is a number; "many" is not' },
      { code: 'RCS703', file: 'set/rows.csv', line: 3, col: 1, message: 'variable "seats" of base base is a number; "lots" is not' },
    ]);
  });

  it('an override that changes nothing a base sets (RCS708): a key, and a field', async () => {
    const r = await diagnostics({
      'base/base.yaml': BASE,
      'a/brand.yaml': brand('BR.composeaaa', 'overrides:\n  autoReplies:\n    hours:\n      body: { title: Hours }\n    ours: { name: X }\n'),
    });
    expect(r.diags.map((d) => [d.code, d.file, d.line, d.col, d.message])).toEqual([
      ['RCS708', 'a/brand.yaml', 11, 15, 'override of field body.title of "autoReplies.hours" changes nothing: no base of this brand sets it (declare a new resource in the brand itself; an override changes what a base sets)'],
      ['RCS708', 'a/brand.yaml', 12, 5, 'override of "autoReplies.ours" changes nothing: no base of this brand sets it (declare a new resource in the brand itself; an override changes what a base sets)'],
    ]);
  });

  it("a BrandSet's YAML rows file inside the manifest folder is its rows, not a manifest; a broken one is reported once", async () => {
    const set = 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nfrom: rows.yml\n';
    const ok = await diagnostics({ 'base/base.yaml': BASE, 'set/set.yaml': set, 'set/rows.yml': '- { id: BR.composeaaa, city: Daegu }\n' });
    expect(ok).toEqual({ code: 0, diags: [] });
    const broken = await diagnostics({ 'base/base.yaml': BASE, 'set/set.yaml': set, 'set/rows.yml': '- { id: BR.composeaaa, city: [\n' });
    // The YAML error and its follow-on, once each (not again for the read as rows).
    const yaml = broken.diags.filter((d) => d.code === 'RCS101');
    expect(yaml.map((d) => `${d.file}:${d.line}:${d.col}`)).toEqual(['set/rows.yml:1:30', 'set/rows.yml:1:30']);
    expect(new Set(yaml.map((d) => d.message)).size).toBe(2);
    const notList = await diagnostics({ 'base/base.yaml': BASE, 'set/set.yaml': set, 'set/rows.yml': 'id: BR.composeaaa\n' });
    expect(notList.diags).toEqual([{ code: 'RCS707', file: 'set/rows.yml', line: 1, col: 1, message: 'set/rows.yml is a list of rows: `- { id: BR.…, city: Seoul }`' }]);
  });

  it('a malformed entry (RCS706) and rows that cannot be read (RCS707), each at its line', async () => {
    const r = await diagnostics({
      'base/base.yaml': BASE.replace('  seats: { type: number, default: 24 }', '  seats: { type: number, default: 24 }\n  when: { type: date }'),
      'a/brand.yaml': 'apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: BR.composeaaa\nbases:\n  - ../base\n',
      'b/brand.yaml': brand('BR.composebbb', ''),
      'set/set.yaml': 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nfrom: nowhere.csv\n',
      'set2/set.yaml': 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nfrom: rows.csv\n',
      'set2/rows.csv': 'city\nDaegu\n',
      'set3/set.yaml': 'apiVersion: rcsctl/v1\nkind: BrandSet\nbase: ../base\nbrands:\n  - { variables: { city: Ulsan } }\n',
    });
    expect(r.diags.map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`)).toEqual([
      'RCS706 a/brand.yaml:6:5',
      'RCS706 base/base.yaml:6:17',
      'RCS707 set/set.yaml:4:7',
      'RCS707 set2/rows.csv:1:1',
      'RCS707 set3/set.yaml:5:5',
    ]);
  });

  it('a base that uses itself (RCS704) names the chain', async () => {
    const r = await diagnostics(
      {
        'base/base.yaml': 'apiVersion: rcsctl/v1\nkind: Base\nuses:\n  - base: ../other\n',
        'other/base.yaml': 'apiVersion: rcsctl/v1\nkind: Base\nuses:\n  - base: ../base\n',
        'a/brand.yaml': brand('BR.composeaaa', '', '{}'),
      },
      ['a'],
    );
    expect(r.diags).toEqual([{ code: 'RCS704', file: 'other/base.yaml', line: 4, col: 11, message: 'base base uses itself: base → other → base; a base may not use a base that uses it (for brand BR.composeaaa (a/brand.yaml:3))' }]);
  });

  it('a base that is not there (RCS705), or holds no Base document', async () => {
    const r = await diagnostics({ 'a/brand.yaml': brand('BR.composeaaa', '').replace('../base', '../nowhere'), 'b/brand.yaml': brand('BR.composebbb', '').replace('../base', '../a') });
    expect(r.diags).toEqual([
      { code: 'RCS705', file: 'a/brand.yaml', line: 6, col: 11, message: 'base nowhere cannot be used: no such file or directory' },
      { code: 'RCS705', file: 'b/brand.yaml', line: 6, col: 11, message: 'base a cannot be used: it holds no `kind: Base` document' },
    ]);
  });

  it("an override's bad value is reported at the override's line; a base's bad value at the base's line, once, naming the brands that use it", async () => {
    const r = await diagnostics({
      'base/base.yaml': BASE.replace('messagebaseId: SCS00000', 'messagebaseId: NOPE00'),
      'a/brand.yaml': brand('BR.composeaaa', ''),
      'b/brand.yaml': brand('BR.composebbb', ''),
      'c/brand.yaml': brand('BR.composeccc', `overrides:\n  autoReplies:\n    hours:\n      messagebaseId: SCS00000\n      name: "${'y'.repeat(101)}"\n`),
    });
    expect(r.diags.map((d) => `${d.code} ${d.file}:${d.line}:${d.col} ${d.message.replace(/^.*?( \(for .*\))?$/, '$1')}`)).toEqual([
      'RCS502 base/base.yaml:9:20  (for 2 brands: BR.composeaaa (a/brand.yaml:3), BR.composebbb (b/brand.yaml:3))',
      'RCS205 c/brand.yaml:12:13 ',
    ]);
  });

  it('a finding in a base used by many brands is one diagnostic: the message names five and counts the rest, `brands` lists them all', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `BR.composem0${i}`);
    const files: Record<string, string> = {
      // A link to a handle the base lacks: its message names the brand, so each brand's copy differs until merged.
      'base/base.yaml': BASE.replace('messagebaseId: SCS00000', 'messagebaseId: NOPE00') + '    chipList:\n      - reply: { autoReply: hourz, displayText: Hours }\n',
    };
    ids.forEach((id, i) => (files[`b${i}/brand.yaml`] = brand(id, '')));
    const r = await run(['validate', '--format', 'json', '.'], repo(files));
    const diags = (JSON.parse(r.stdout) as { diagnostics: (Diag & { brands?: string[] })[] }).diagnostics;
    expect(diags.map((d) => [d.code, d.file, d.line])).toEqual([
      ['RCS502', 'base/base.yaml', 9],
      ['RCS402', 'base/base.yaml', 13],
    ]);
    for (const d of diags) expect(d.brands).toEqual(ids);
    expect(diags[0]?.message).toMatch(/ \(for 7 brands: BR\.composem00 \(b0\/brand\.yaml:3\), BR\.composem01 \(b1\/brand\.yaml:3\), BR\.composem02 \(b2\/brand\.yaml:3\), BR\.composem03 \(b3\/brand\.yaml:3\), BR\.composem04 \(b4\/brand\.yaml:3\), and 2 more\)$/);
    expect(diags[1]?.message).toMatch(/^no auto-reply "hourz" in each brand \(did you mean "hours"\?\) \(for 7 brands: /);
    const text = await run(['validate', '.'], repo(files));
    expect(text.stderr.match(/error RCS402/g)).toHaveLength(1);
  });

  it("a base's finding that holds for one brand only fails that brand: validate and plan keep the others", async () => {
    const files = {
      'base/base.yaml': BASE.replace('seats: { type: number, default: 24 }', 'seats: { type: number, default: 24 }\n  kind: { type: string, default: SCS00000 }').replace('messagebaseId: SCS00000', 'messagebaseId: ${var:kind}'),
      'a/brand.yaml': brand('BR.composeaaa', ''),
      'b/brand.yaml': brand('BR.composebbb', '', '{ city: Busan, kind: NOPE00 }'),
    };
    const dir = repo(files);
    const v = await run(['validate', '.'], dir);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/base\/base\.yaml:10:20: error RCS502: "NOPE00" is not a common messagebase .* \(for brand BR\.composebbb \(b\/brand\.yaml:3\)\)/);
    expect(v.stderr).toMatch(/BR\.composeaaa: valid \(.*1 auto-reply,/);
    expect(v.stderr).toMatch(/BR\.composebbb: invalid \(1 error\)/);
    // Validating the other brand alone shows nothing of it.
    const other = await run(['validate', '--brand', 'BR.composeaaa', '.'], dir);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).not.toContain('RCS502');
    const p = await run(['--sandbox', 'plan', '--json', '.'], dir);
    const plan = JSON.parse(p.stdout) as { brands: { brandId: string; steps: unknown[]; error?: { message: string } }[] };
    expect(plan.brands.find((b) => b.brandId === 'BR.composeaaa')?.steps).toHaveLength(1);
    expect(plan.brands.find((b) => b.brandId === 'BR.composebbb')?.error?.message).toMatch(/base\/base\.yaml:10:20: RCS502 "NOPE00" .* \(for brand BR\.composebbb \(b\/brand\.yaml:3\)\)/);
  });
});

describe('the example agency', () => {
  it('validates clean: 4 brands, one of them written by hand with an override, two generated from a CSV', async () => {
    const r = await run(['validate', 'examples/agency'], ROOT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).map((l) => l.split(':')[0])).toEqual(['BR.beanbusan1', 'BR.beandaegu1', 'BR.beanichn01', 'BR.beanseoul1']);
  });

  it("passes the editors' schemas: Brand, Base and BrandSet documents", () => {
    const require = createRequire(import.meta.url);
    const { Ajv } = require('ajv') as typeof import('ajv');
    const ajv = new Ajv({ allErrors: true, strict: false });
    (require('ajv-formats') as { default: (a: InstanceType<typeof Ajv>) => void }).default(ajv);
    const schemas = Object.fromEntries(['manifest', 'base', 'brandset'].map((n) => [n, ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', `${n}.schema.json`), 'utf8')) as object)]));
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : []));
    const files = walk(join(ROOT, 'examples', 'agency'));
    expect(files.length).toBe(5);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const schema = /\$schema=.*\/(\w+)\.schema\.json/.exec(text)?.[1] ?? 'missing';
      const doc = parseManifestText(text, f, f).docs[0]?.value as { kind: string };
      expect(schema, f).toBe(doc.kind === 'Base' ? 'base' : doc.kind === 'BrandSet' ? 'brandset' : 'manifest');
      const validate = schemas[schema];
      expect(validate?.(doc), `${f}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }
    // The schema refuses what composition refuses: a variable of another type.
    expect(schemas.base?.({ apiVersion: 'rcsctl/v1', kind: 'Base', variables: { city: { type: 'date' } } })).toBe(false);
  });

  it("its moved: declaration keeps a store's live auto-reply through the base's rename: an update, the id kept, then nothing to do", async () => {
    const seed = {
      accounts: [{ userId: 'agency', role: 'master', token: TOKEN, brands: [{ brandId: 'BR.beanseoul1', role: 'representative' }] }],
      brands: [
        {
          brandId: 'BR.beanseoul1',
          brandKey: 'BK.beanseoul10000',
          autoReplies: [{ autoReplyMsgId: 'ARM000000000107', autoReplyMsgName: 'Opening', messagebaseId: 'SCwThM00', body: { title: 'Bean Street Seoul', description: 'Mon-Sun 8:00-20:00.' } }],
        },
      ],
    } as unknown as Seed;
    const emu = await emulator(seed);
    try {
      const seoul = 'examples/agency/brands/seoul';
      const plan = JSON.parse((await cli(['plan', '--json', seoul], { emu })).stdout) as { brands: { steps: { id: string; liveId?: string; movedFrom?: string }[] }[] };
      const steps = plan.brands[0]?.steps ?? [];
      expect(steps.find((st) => st.id === 'autoReply.hours:update')).toMatchObject({ liveId: 'ARM000000000107', movedFrom: 'autoReply.ARM000000000107' });
      expect(steps.some((st) => st.id.endsWith(':delete'))).toBe(false);
      const applied = await cli(['apply', '--yes', seoul], { emu });
      expect(applied.code, applied.stderr).toBe(0);
      const again = JSON.parse((await cli(['plan', '--json', seoul], { emu })).stdout) as { brands: { steps: unknown[]; moves?: unknown }[] };
      expect(again.brands[0]?.steps).toEqual([]);
      // Done: the live id is now the brand's hours, and the entry is ignored.
      expect(again.brands[0]?.moves).toBeUndefined();
      const store = JSON.stringify(await admin(emu, 'GET', 'store'));
      expect(store).toContain('"autoReplyMsgId":"ARM000000000107","autoReplyMsgName":"Opening hours"');
    } finally {
      await emu.close();
    }
  }, 60_000);

  it('plans in the sandbox: every brand created, the moved: entry ignored where no live auto-reply has its id', async () => {
    const r = await run(['--sandbox', 'plan', 'examples/agency'], ROOT);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Total for 4 brands: 17 to create, 0 to update, 0 to delete;');
    expect(r.stdout).not.toContain('moved from');
  }, 60_000);

  it('applies in the sandbox and converges', async () => {
    const r = await run(['--sandbox', 'apply', '--yes', 'examples/agency'], ROOT);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('Apply complete: the live service matches the manifests.');
    expect(r.stdout + r.stderr).toMatch(/BR\.beandaegu1: 4 done, 0 failed/);
  }, 60_000);
});

describe('rcsctl render', () => {
  it("prints each brand's effective manifest: base, variables, override and the brand's own resources in one Brand document", async () => {
    const r = await run(['render', 'examples/agency', '--brand', 'BR.beanseoul1'], ROOT);
    expect(r.code, r.stderr).toBe(0);
    const doc = parseManifestText(r.stdout, 'x', 'x').docs[0]?.value as { brand: { id: string }; autoReplies: Record<string, { body: { title?: string; description: string } }>; files: Record<string, unknown> };
    expect(doc.brand.id).toBe('BR.beanseoul1');
    expect(Object.keys(doc.autoReplies).sort()).toEqual(['hours', 'legal', 'rooftop', 'welcome']);
    expect(doc.autoReplies.hours?.body).toMatchObject({ title: 'Bean Street Seoul', description: 'Mon-Sun 7:00-23:00: the flagship opens late.' });
    expect(doc.autoReplies.legal?.body.description).toMatch(/^Bean Street Seoul is a franchise/);
    const json = await run(['render', 'examples/agency', '--format', 'json'], ROOT);
    expect((JSON.parse(json.stdout) as { brand: { id: string } }[]).map((m) => m.brand.id)).toEqual(['BR.beanbusan1', 'BR.beandaegu1', 'BR.beanichn01', 'BR.beanseoul1']);
  });

  it('--explain names, per field, the file and line that set it: base, override, variable, generator row', async () => {
    const r = await run(['render', 'examples/agency', '--explain', 'autoReply.hours', '--format', 'json'], ROOT);
    expect(r.code, r.stderr).toBe(0);
    const found = JSON.parse(r.stdout) as { brandId: string; fields: { path: string; at: { file: string; line: number; how: string }; variables: { name: string; at: { file: string; line: number; how: string } }[] }[] }[];
    const field = (brand: string, path: string) => found.find((b) => b.brandId === brand)?.fields.find((f) => f.path === path);
    const base = 'examples/agency/bases/franchise/base.yaml';
    expect(field('BR.beanseoul1', '/autoReplies/hours/name')).toMatchObject({ at: { file: base, line: 29, how: 'base' }, variables: [] });
    expect(field('BR.beanseoul1', '/autoReplies/hours/body/description')).toMatchObject({ at: { file: 'examples/agency/brands/seoul/brand.yaml', line: 24, how: 'override' }, variables: [] });
    expect(field('BR.beanseoul1', '/autoReplies/hours/body/title')).toMatchObject({ at: { file: base, line: 32 }, variables: [{ name: 'city', at: { file: 'examples/agency/brands/seoul/brand.yaml', line: 12, how: 'variable' } }] });
    expect(field('BR.beanbusan1', '/autoReplies/hours/body/description')?.variables).toEqual([{ name: 'seats', at: { file: base, line: 14, col: 35, how: 'default' } }]);
    expect(field('BR.beanichn01', '/autoReplies/hours/body/title')?.variables).toEqual([{ name: 'city', at: { file: 'examples/agency/stores/stores.csv', line: 3, col: 1, how: 'generator row' } }]);
    const text = await run(['render', 'examples/agency', '--explain', 'autoReply.hours', '--brand', 'BR.beanseoul1'], ROOT);
    expect(text.stdout).toContain('  body.description = "Mon-Sun 7:00-23:00: the flagship opens late."\n      set at examples/agency/brands/seoul/brand.yaml:24:22 (override)\n');
    const wrong = await run(['render', 'examples/agency', '--explain', 'hours'], ROOT);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/--explain takes an address KIND\.KEY/);
  });

  it('keeps a secret given as a variable (sensitive), and refuses manifests with errors', async () => {
    const dir = repo({
      'base/base.yaml': BASE,
      'a/brand.yaml': brand('BR.composeaaa', '', '{ city: "${env:STORE_SECRET_TOKEN}" }'),
    });
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await main(['render', '.'], { stdout, stderr, env: { STORE_SECRET_TOKEN: 'hunter2-very-secret-value' }, cwd: dir });
    expect(code, stderr.text).toBe(0);
    expect(stdout.text).toContain('Bean Street (sensitive), 24 seats.');
    expect(stdout.text + stderr.text).not.toContain('hunter2');
    const broken = await run(['render', '.'], repo({ 'base/base.yaml': BASE, 'a/brand.yaml': brand('BR.composeaaa', '', '{}') }));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('error RCS702');
  });
});
