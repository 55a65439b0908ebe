// A 3 MB description: validate warns (no document states a length for it, so the
// service may take it), every view shows it shortened (its first and last
// characters, its length and a short hash: plan text, JSON and Markdown, drift in
// every format, both previews), the saved plan keeps it whole and apply sends it
// whole, and a sensitive value at a cut never shows in part. Before, plan printed
// all 3 MB, and `apply --plan` took a JSON view as readily as a saved plan.

import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT, type CliRun } from './helpers.js';

const SECRET = 'Zq9WvK3mT7pL2rX8';
// Saved plans holding the secret are sealed with a key: here the one CI would give (no cache directory to hold this machine's)
const env = { PROMO_SECRET: SECRET, RCSCTL_PLAN_KEY: 'test-plan-key-0123456789abcdef0123456789' };
const MB3 = 3 * 1024 * 1024;
/** 3 MB whose first 100 and last 40 characters (what a view keeps) each cut through the secret. */
const head = `Dear customer, ${'a'.repeat(75)}`;
const tail = (last: string): string => `${'z'.repeat(10)}\${env:PROMO_SECRET}${'y'.repeat(20)} ${last}`;
const written = (last: string): string => `${head}\${env:PROMO_SECRET}${'x'.repeat(MB3)}${tail(last)}`;
const sent = (last: string): string => written(last).split('${env:PROMO_SECRET}').join(SECRET);
const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);
/** The note after a cut: the length and hash of the text as shown, the secret already `(sensitive)` (a hash of the real text would test guesses of it). */
const note = (s: string): string => {
  const shown = s.split(SECRET).join('(sensitive)');
  return `(${shown.length.toLocaleString('en-US')} characters, sha256 ${hash(shown)})`;
};

let emu: RunningEmulator;
let dir: string;
const runs: CliRun[] = [];
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-long-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function manifest(last: string): string {
  const path = join(dir, 'brand.yaml');
  writeFileSync(path, `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n  a:\n    name: Promo\n    messagebaseId: SCS00000\n    body:\n      description: "${written(last)}"\n`);
  return path;
}

async function run(argv: string[]): Promise<CliRun> {
  const r = await cli(argv, { emu, env });
  runs.push(r);
  return r;
}

/** Every file under `d`, as text. */
function filesIn(d: string): [string, string][] {
  return readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => [join(f.parentPath, f.name), readFileSync(join(f.parentPath, f.name), 'utf8')]);
}

describe('a 3 MB description', () => {
  it('is a warning in validate, naming file, line, field and the bound', async () => {
    const r = await run(['validate', manifest('the end.')]);
    expect(r.code).toBe(0);
    // Counted after interpolation: what would be sent.
    const len = sent('the end.').length.toLocaleString('en-US');
    expect(r.stderr).toContain(`brand.yaml:10:20: warning RCS603: "description" is ${len} characters long, over rcsctl's bound of 2,000 for a body text`);
    expect(r.stderr).toContain('[/autoReplies/a/body/description]');
    expect(r.stderr.length).toBeLessThan(2000);
  });

  it('is an error where a document states the length (a chip label, 25), naming the limit', async () => {
    const path = join(dir, 'label.yaml');
    writeFileSync(path, `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n  a:\n    name: Promo\n    messagebaseId: SCS00000\n    body: { description: Hi }\n    chipList:\n      - action: { displayText: "${'L'.repeat(MB3)}", urlAction: { openUrl: { url: "https://example.com" } } }\n`);
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/label\.yaml:11:\d+: error RCS205: "displayText" is 3145728 characters long; the maximum is 25/);
    expect(r.stderr.length).toBeLessThan(2000);
  });

  it('is shortened in the plan as text, JSON and Markdown, and kept whole in the saved plan that apply sends', async () => {
    const m = manifest('the end.');
    const full = sent('the end.');
    const out = join(dir, 'plan.json');
    const text = await run(['plan', m, '--out', out]);
    const json = await run(['plan', m, '--format', 'json']);
    const md = await run(['plan', m, '--format', 'markdown']);
    for (const r of [text, json, md]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.length).toBeLessThan(8000);
      expect(r.stdout).toContain(note(full));
      expect(r.stdout).toContain('Dear customer, aaaa');
      expect(r.stdout).toContain('yyyy the end.');
    }
    expect(text.stdout).toMatch(/\+ body\.description: "Dear customer, a{75}\(sensitive"…"\(sensitive\)y{20} the end\." \(3,145,879 characters, sha256 [0-9a-f]{12}\)/);
    const view = JSON.parse(json.stdout) as { shortened?: boolean };
    expect(view.shortened).toBe(true);
    const schema = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object);
    expect(schema(view), JSON.stringify(schema.errors)).toBe(true);

    // The saved plan holds the value whole (the secret as its marker), and apply sends it whole.
    const saved = readFileSync(out, 'utf8');
    expect(saved.length).toBeGreaterThan(MB3);
    expect(saved).not.toContain('"shortened"');
    const viewFile = join(dir, 'view.json');
    writeFileSync(viewFile, json.stdout);
    const refused = await run(['apply', '--plan', viewFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is a view of a plan with its long values shortened (plan --format json)');
    expect(emu.store.brands.get(BRAND)?.autoReplies.size ?? 0).toBe(0);
    const applied = await run(['apply', '--plan', out]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.length).toBeLessThan(8000);
    expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].map((a) => a.body.description)).toEqual([full]);
  });

  it('is shortened in drift as text, JSON, Markdown and JUnit, printed and written', async () => {
    const m = manifest('another end.');
    const reports = ['text', 'json', 'markdown', 'junit'].flatMap((format) => [
      ['drift', m, '--format', format],
      ['drift', m, '--format', format, '-o', join(dir, 'drift', `drift.${format}`)],
    ]);
    for (const argv of reports) {
      const r = await run(argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout.length, argv.join(' ')).toBeLessThan(8000);
      if (!argv.includes('-o')) expect(r.stdout, argv.join(' ')).toContain(note(sent('another end.')));
    }
    for (const [file, text] of filesIn(join(dir, 'drift'))) {
      expect(text.length, file).toBeLessThan(8000);
      expect(text, file).toContain(note(sent('the end.')));
      expect(text, file).toContain(note(sent('another end.')));
    }
  });

  it('is shortened on both previews', async () => {
    const m = manifest('another end.');
    expect((await run(['preview', m, '-o', join(dir, 'site')])).code).toBe(0);
    expect((await run(['plan', m, '--preview', join(dir, 'changes')])).code).toBe(0);
    const pages = [...filesIn(join(dir, 'site')), ...filesIn(join(dir, 'changes'))].filter(([f]) => f.endsWith('.html') && !f.endsWith(`${dir}/site/index.html`) && !f.endsWith(`${dir}/changes/index.html`));
    expect(pages).toHaveLength(2);
    for (const [file, html] of pages) {
      expect(statSync(file).size, file).toBeLessThan(40_000);
      expect(html, file).toContain(note(sent('another end.')));
    }
  });

  it('never shows the sensitive value, whole or cut', () => {
    const files = filesIn(dir).filter(([f]) => !f.endsWith('.yaml'));
    const all = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...files.map(([, t]) => t)].join('\n');
    for (let i = 0; i + 5 <= SECRET.length; i++) expect(all).not.toContain(SECRET.slice(i, i + 5));
  });
});
