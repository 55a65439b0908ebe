// Policies as code (issue 38): rules kept in the repository (`kind: Policy`),
// CEL expressions checked by validate on the manifests and by plan and apply
// on the plan; violations in every format with the value's and the rule's
// file and line; errors exit 1 and are never applied; exceptions with a
// reason; bad rule files named by file, line and field; a slow expression
// bounded. Through the CLI, against the emulator, with the shipped examples.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { planValidator } from '../../src/plan/plan-file.js';
import { shardOf } from '../../src/plan/shard.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { BRAND, cli, emulator, EXAMPLE, ROOT, TOKEN } from './helpers.js';

const EXAMPLE_RULES = join(ROOT, 'examples', 'policies', 'agency.yaml');
let REPO: string;
const brandFile = (): string => join(REPO, 'brand', 'brand.yaml');

beforeAll(() => {
  REPO = mkdtempSync(join(tmpdir(), 'rcsctl-policies-'));
  mkdirSync(join(REPO, '.git'));
  cpSync(EXAMPLE, join(REPO, 'brand'), { recursive: true });
  mkdirSync(join(REPO, 'policies'));
  cpSync(EXAMPLE_RULES, join(REPO, 'policies', 'agency.yaml'));
  // A shortened link in a button, and no `welcome` auto-reply: three rules broken.
  const text = readFileSync(brandFile(), 'utf8').replace('https://example.com/coffee-co/map', 'https://bit.ly/acme7').replace(/^ {2}welcome:/m, '  hello:').replace(/autoReply: welcome\b/g, 'autoReply: hello');
  writeFileSync(brandFile(), text);
});
afterAll(() => rmSync(REPO, { recursive: true, force: true }));

const lineOf = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('validate checks the rules on the manifests', () => {
  it('names the value and the rule, file and line, in every format; exit 1', async () => {
    const urlLine = lineOf(brandFile(), 'https://bit.ly/acme7');
    const shortenerRule = lineOf(join(REPO, 'policies', 'agency.yaml'), 'name: no-link-shorteners');
    const text = await cli(['validate', 'brand', 'policies'], { cwd: REPO });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`brand/brand.yaml:${urlLine}:`);
    expect(text.stderr).toContain(`error RCS810: ${BRAND}: a link shortener hides where the link goes; link to the page itself (rule no-link-shorteners, policies/agency.yaml:${shortenerRule})`);
    expect(text.stderr).toContain(`${BRAND}: a link outside the allowed domains (example.com): https://bit.ly/acme7 (rule allowed-url-domains, policies/agency.yaml:`);
    expect(text.stderr).toContain(`${BRAND}: the brand has no \`welcome\` auto-reply (rule welcome-auto-reply, policies/agency.yaml:`);
    const json = JSON.parse((await cli(['validate', 'brand', 'policies', '--format', 'json'], { cwd: REPO })).stdout) as { errors: number; diagnostics: { code: string; file: string; line: number; path: string; rule?: { name: string; file: string; line: number } }[] };
    expect(json.errors).toBe(3);
    expect(json.diagnostics).toContainEqual(expect.objectContaining({ code: 'RCS810', file: 'brand/brand.yaml', line: urlLine, path: '/autoReplies/location/buttons/0/suggestions/0/action/urlAction/openUrl/url', rule: { name: 'no-link-shorteners', file: 'policies/agency.yaml', line: shortenerRule } }));
    const md = await cli(['validate', 'brand', 'policies', '--format', 'markdown'], { cwd: REPO });
    expect(md.stdout).toContain('RCS810');
    expect(md.stdout).toContain('rule no-link-shorteners, policies/agency.yaml:');
    const junit = await cli(['validate', 'brand', 'policies', '--format', 'junit'], { cwd: REPO });
    expect(junit.stdout).toContain('rule welcome-auto-reply, policies/agency.yaml:');
    // Without the rules, the same manifests are valid.
    expect((await cli(['validate', 'brand'], { cwd: REPO })).code).toBe(0);
  });

  it('an exception with its reason lifts a rule for one brand; a warning fails only --strict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-exc-'));
    try {
      writeFileSync(
        join(dir, 'rules.yaml'),
        [
          'apiVersion: rcsctl/v1',
          'kind: Policy',
          'rules:',
          '  - name: no-link-shorteners',
          '    check: value',
          "    where: type(value) == string",
          "    expression: \"!urls(value).exists(u, urlHost(u) == 'bit.ly')\"",
          '    message: no shortener',
          '    exceptions:',
          `      - { brand: ${BRAND}, reason: "the client's printed flyers carry this link until March" }`,
          '  - name: welcome-auto-reply',
          '    severity: warning',
          '    check: brand',
          "    expression: \"'welcome' in brand.autoReplies\"",
          '    message: no welcome',
          '',
        ].join('\n'),
      );
      const r = await cli(['validate', 'brand', dir, '--format', 'json'], { cwd: REPO });
      const report = JSON.parse(r.stdout) as { errors: number; warnings: number; diagnostics: { code: string; severity: string; message: string }[] };
      expect(r.code, r.stdout).toBe(0);
      expect(report.diagnostics.filter((d) => d.code.startsWith('RCS8'))).toEqual([expect.objectContaining({ code: 'RCS811', severity: 'warning', message: expect.stringContaining('no welcome') })]);
      expect((await cli(['validate', 'brand', dir, '--strict'], { cwd: REPO })).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a rule never sees the brand key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-key-'));
    try {
      writeFileSync(join(dir, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\n  key: "\${env:BRAND_KEY}"\n`);
      writeFileSync(join(dir, 'rules.yaml'), 'apiVersion: rcsctl/v1\nkind: Policy\nrules:\n  - name: sees-the-key\n    check: value\n    where: key == "key" || value == "BK.policy0000001"\n    expression: "false"\n    messageExpression: "\'saw \' + string(value)"\n');
      const r = await cli(['validate', dir, '--format', 'json'], { env: { BRAND_KEY: 'BK.policy0000001' } });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).not.toContain('saw');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad rule files: each fault named by file, line and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-bad-'));
    try {
      const lines = [
        'apiVersion: rcsctl/v1', //                      1
        'kind: Policy', //                               2
        'rules:', //                                     3
        '  - name: ok-rule', //                          4
        '    check: brand', //                           5
        '    expression: "true"', //                     6
        '    message: fine', //                          7
        '  - name: typo', //                             8
        '    chekc: value', //                           9
        '    expression: "true"', //                    10
        '    message: x', //                            11
        '  - name: bad-cel', //                         12
        '    check: value', //                          13
        '    expression: |', //                        14
        '      value == 1 &&', //                       15
        '        foo(', //                              16
        '    message: x', //                            17
        '  - name: ok-rule', //                         18
        '    check: run', //                            19
        '    expression: "true"', //                    20
        '    message: again', //                        21
        '    exceptions:', //                           22
        '      - { brand: BR.demo000001 }', //          23
        '',
      ];
      writeFileSync(join(dir, 'rules.yaml'), lines.join('\n'));
      const r = await cli(['validate', dir, '--format', 'json']);
      expect(r.code).toBe(1);
      const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; line: number; path: string; message: string; file: string }[] }).diagnostics;
      expect(found.every((d) => d.file.endsWith('rules.yaml'))).toBe(true);
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS801', line: 9, path: '/rules/1/chekc', message: expect.stringContaining('unknown key "chekc"') }));
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS801', line: 8, path: '/rules/1', message: 'the rule has no `check:`' }));
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS802', line: 16, path: '/rules/2/expression', message: expect.stringContaining('expression of rule "bad-cel" does not parse') }));
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS801', line: 23, path: '/rules/3/exceptions/0', message: expect.stringContaining('gives no reason') }));
      // A broken rule file stops plan before any request: it belongs to no brand.
      const plan = await cli(['plan', join(REPO, 'brand'), dir], { env: { RCSCTL_BASE_URL: 'http://127.0.0.1:9', RCSCTL_TOKEN: 't' } });
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('rules.yaml:9');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a slow expression is stopped at its bound, naming the rule; the sandbox has no file or network function', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-slow-'));
    try {
      const hundred = `[${Array.from({ length: 100 }, (_, i) => i).join(',')}]`;
      writeFileSync(
        join(dir, 'rules.yaml'),
        [
          'apiVersion: rcsctl/v1',
          'kind: Policy',
          'rules:',
          '  - name: slow',
          '    check: brand',
          `    expression: "${hundred}.all(a, ${hundred}.all(b, ${hundred}.all(c, ${hundred}.all(d, a + b + c + d >= 0))))"`,
          '    message: never',
          '  - name: reads-a-file',
          '    check: brand',
          '    expression: "readFile(\'/etc/passwd\') != \'\'"',
          '    message: never',
          '',
        ].join('\n'),
      );
      const r = await cli(['validate', 'brand', dir, '--format', 'json'], { cwd: REPO });
      const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; line: number; message: string }[] }).diagnostics.filter((d) => d.code.startsWith('RCS80'));
      expect(r.code).toBe(1);
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS804', line: 6, message: expect.stringContaining('rule "slow" was stopped after 5 s') }));
      // The rule after the stopped one is not evaluated, and says so.
      expect(found).toContainEqual(expect.objectContaining({ code: 'RCS804', message: expect.stringContaining('not evaluated: rule "slow" before it was stopped') }));
      // Alone, the file-reading rule fails as an unknown function: CEL has none.
      writeFileSync(join(dir, 'rules.yaml'), readFileSync(join(dir, 'rules.yaml'), 'utf8').replace(/ {2}- name: slow[\s\S]*?message: never\n/, ''));
      const alone = await cli(['validate', 'brand', dir, '--format', 'json'], { cwd: REPO });
      const errs = (JSON.parse(alone.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.filter((d) => d.code.startsWith('RCS80'));
      expect(errs).toEqual([expect.objectContaining({ code: 'RCS803', message: expect.stringMatching(/^rule "reads-a-file" could not be evaluated for BR\.demo000001: expression: .*readFile/) })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('plan and apply check the rules on the plan', () => {
  let emu: RunningEmulator;
  let dir: string;
  const write = (ids: string[]): void =>
    writeFileSync(
      join(dir, 'brand', 'brand.yaml'),
      ['apiVersion: rcsctl/v1', 'kind: Brand', `brand: { id: ${BRAND} }`, 'prune: [autoReplies]', 'autoReplies:', ...ids.map((id) => `  ${id}: { name: ${id}, messagebaseId: SCS00000, body: { description: "Hello from ${id}" } }`), ''].join('\n'),
    );
  beforeAll(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-plan-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'brand'));
    mkdirSync(join(dir, 'policies'));
    cpSync(EXAMPLE_RULES, join(dir, 'policies', 'agency.yaml'));
  });
  afterAll(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a brand that breaks a manifest rule: shown in every format, exit 1, and apply sends nothing for it', async () => {
    const plan = await cli(['plan', join(REPO, 'brand'), join(REPO, 'policies')], { emu });
    expect(plan.code, plan.stderr).toBe(1);
    expect(plan.stdout).toContain('Policy: 3 violations for this brand (3 errors: nothing is applied for it):');
    expect(plan.stdout).toMatch(/error\[policy no-link-shorteners\] \/autoReplies\/location\/buttons\/0\/suggestions\/0\/action\/urlAction\/openUrl\/url: a link shortener hides where the link goes; link to the page itself \(.*brand\.yaml:\d+; rule no-link-shorteners at .*agency\.yaml:\d+\)/);
    const json = JSON.parse((await cli(['plan', join(REPO, 'brand'), join(REPO, 'policies'), '--format', 'json'], { emu })).stdout) as { brands: { steps: unknown[]; policy?: { rule: string; severity: string; file?: string; line?: number; ruleFile: string; ruleLine: number }[] }[] };
    const validate = planValidator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.brands[0]?.policy?.map((v) => v.rule).sort()).toEqual(['allowed-url-domains', 'no-link-shorteners', 'welcome-auto-reply']);
    const md = await cli(['plan', join(REPO, 'brand'), join(REPO, 'policies'), '--format', 'markdown'], { emu });
    expect(md.stdout).toContain('**Policy rules broken: nothing is applied for this brand.**');
    expect(md.stdout).toContain('❌ **policy `no-link-shorteners`**');
    const apply = await cli(['apply', join(REPO, 'brand'), join(REPO, 'policies'), '--yes'], { emu });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('the plan breaks policy rules allowed-url-domains, no-link-shorteners, welcome-auto-reply (above); nothing was applied for this brand');
    // Nothing was sent: the plan is the same.
    const again = await cli(['plan', join(REPO, 'brand'), '--format', 'json'], { emu });
    expect((JSON.parse(again.stdout) as { brands: { steps: unknown[] }[] }).brands[0]?.steps.length).toBe(json.brands[0]?.steps.length);
    expect(emu.store.brands.get(BRAND)?.autoReplies.size ?? 0).toBe(0);
  });

  it('at most 10 deletes per change: a run rule; the label lifts it; apply of manifests and of a saved plan refuse it', async () => {
    const all = ['welcome', ...Array.from({ length: 12 }, (_, i) => `r${i + 1}`)];
    write(all);
    const first = await cli(['apply', 'brand', 'policies', '--yes'], { emu, cwd: dir });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    write(['welcome']);
    // On a pull request (GitHub's event; its payload has no label).
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, labels: [{ name: 'docs' }] } }));
    const pr = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event };
    const plan = await cli(['plan', 'brand', 'policies', '--out', 'plan.json'], { emu, cwd: dir, env: pr });
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stdout).toContain('Policy: 1 violation for the whole run (1 error: nothing is applied for any brand):');
    expect(plan.stdout).toContain('error[policy at-most-10-deletes] this change deletes 12 resources; at most 10 without the bulk-delete label (rule at-most-10-deletes at policies/agency.yaml:');
    const md = await cli(['plan', 'brand', 'policies', '--format', 'markdown'], { emu, cwd: dir, env: pr });
    expect(md.stdout).toContain('### ❌ Policy rules broken by the whole change:');
    // The comment the recipes post (report merge of the plans, with the drift report) keeps the run's verdicts, and fails.
    const drift = await cli(['drift', 'brand', '--format', 'json', '--output', 'drift.json'], { emu, cwd: dir });
    expect(drift.code, drift.stderr).not.toBe(1);
    const comment = await cli(['report', 'merge', 'plan.json', 'drift.json', '--format', 'markdown'], { emu, cwd: dir });
    expect(comment.code).toBe(1);
    expect(comment.stdout).toContain('❌ **policy `at-most-10-deletes`**: this change deletes 12 resources');
    // show, which the recipes print the saved plan with, says it too (text and Markdown).
    const shownText = await cli(['show', 'plan.json'], { cwd: dir });
    expect(shownText.stdout).toContain('error[policy at-most-10-deletes] this change deletes 12 resources');
    const shownMd = await cli(['show', 'plan.json', '--format', 'markdown'], { cwd: dir });
    expect(shownMd.stdout).toContain('### ❌ Policy rules broken by the whole change:');
    const merged = JSON.parse((await cli(['report', 'merge', 'plan.json', '--format', 'json'], { cwd: dir })).stdout) as { policy?: { rule: string }[] };
    expect(merged.policy?.map((v) => v.rule)).toEqual(['at-most-10-deletes']);
    const refused = await cli(['apply', 'brand', 'policies', '--yes', '--allow-delete'], { emu, cwd: dir, env: pr });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the plan breaks a policy rule of the whole run; nothing was sent:');
    const saved = await cli(['apply', '--plan', 'plan.json', '--yes', '--allow-delete'], { emu, cwd: dir });
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('plan file plan.json breaks a policy rule of the whole run; nothing was sent:');
    expect(emu.store.brands.get(BRAND)?.autoReplies.size).toBe(13);
    // The label lifts it: from the pull request's event, RCSCTL_LABELS or --label.
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, labels: [{ name: 'docs' }, { name: 'bulk-delete' }] } }));
    for (const env of [pr, { RCSCTL_LABELS: 'docs, bulk-delete' }]) {
      const labelled = await cli(['plan', 'brand', 'policies', '--detailed-exitcode'], { emu, cwd: dir, env });
      expect(labelled.code, labelled.stdout).toBe(2);
      expect(labelled.stdout).not.toContain('Policy:');
    }
    // On the main branch (no request) the request's verdict stands: the rule holds.
    const main = await cli(['plan', 'brand', 'policies', '--detailed-exitcode'], { emu, cwd: dir });
    expect(main.code, main.stdout).toBe(2);
    const applied = await cli(['apply', 'brand', 'policies', '--yes', '--allow-delete', '--label', 'bulk-delete'], { emu, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(emu.store.brands.get(BRAND)?.autoReplies.size).toBe(1);
  });

  it("a brand's name changes only in a labelled change: a step rule", async () => {
    const CASE = join(ROOT, 'test', 'plan-cases', '072-profile-reviewed-field');
    const own = await emulator(join(CASE, 'seed.yaml'));
    const work = mkdtempSync(join(tmpdir(), 'rcsctl-policies-name-'));
    try {
      mkdirSync(join(work, '.git'));
      // The case's manifest and images (its seed is the emulator's, not a manifest).
      cpSync(join(CASE, 'manifest.yaml'), join(work, 'brand', 'manifest.yaml'));
      cpSync(join(CASE, 'images'), join(work, 'brand', 'images'), { recursive: true });
      // The example's step rule alone (the case's brand has no welcome auto-reply, and links to coffee.example).
      const example = readFileSync(EXAMPLE_RULES, 'utf8');
      writeFileSync(join(work, 'rules.yaml'), `apiVersion: rcsctl/v1\nkind: Policy\nrules:\n${example.slice(example.indexOf('  - name: brand-name-needs-label'))}`);
      // A GitLab merge request pipeline without the label.
      const plan = await cli(['plan', 'brand', 'rules.yaml', '--format', 'json'], { emu: own, cwd: work, env: { CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_LABELS: 'docs' } });
      expect(plan.code).toBe(1);
      const file = JSON.parse(plan.stdout) as { brands: { policy?: { rule: string; subject?: string; file?: string; line?: number }[] }[] };
      expect(file.brands[0]?.policy).toEqual([expect.objectContaining({ rule: 'brand-name-needs-label', subject: 'brandProfile.home', file: 'brand/manifest.yaml', line: 6 })]);
      const labelled = await cli(['plan', 'brand', 'rules.yaml'], { emu: own, cwd: work, env: { CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_LABELS: 'docs,brand-rename' } });
      expect(labelled.code, labelled.stdout).toBe(0);
      expect((await cli(['plan', 'brand', 'rules.yaml', '--label', 'brand-rename'], { emu: own, cwd: work })).code).toBe(0);
    } finally {
      await own.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('a rule on the whole run holds across shards', () => {
  // One brand in each of four shards, each deleting 3 auto-replies: 12 in all, over a limit of 5 that each shard keeps.
  const IDS = ['BR.polsh00005', 'BR.polsh00009', 'BR.polsh00000', 'BR.polsh00003'];
  let emu: RunningEmulator;
  let dir: string;
  const run = (...argv: string[]) => cli(argv, { emu, cwd: dir });
  const write = (keys: string[]): void => {
    for (const id of IDS) writeFileSync(join(dir, 'brands', id, 'brand.yaml'), ['apiVersion: rcsctl/v1', 'kind: Brand', `brand: { id: ${id} }`, 'prune: [autoReplies]', 'autoReplies:', ...keys.map((k) => `  ${k}: { name: ${k}, messagebaseId: SCS00000, body: { description: "${k} of ${id}" } }`), ''].join('\n'));
  };
  const rules = (limit: number): string =>
    ['apiVersion: rcsctl/v1', 'kind: Policy', 'rules:', `  - name: at-most-${limit}-deletes`, '    check: run', `    expression: "counts.delete <= ${limit}"`, `    messageExpression: "'this change deletes ' + string(counts.delete) + ' resources in ' + string(counts.brands) + ' brands; at most ${limit}'"`, '    message: too many deletes', ''].join('\n');
  beforeAll(async () => {
    expect(IDS.map((id) => shardOf(id, 4))).toEqual([1, 2, 3, 4]);
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-policies-shards-'));
    mkdirSync(join(dir, '.git'));
    for (const id of IDS) mkdirSync(join(dir, 'brands', id), { recursive: true });
    mkdirSync(join(dir, 'policies'));
    writeFileSync(join(dir, 'policies', 'rules.yaml'), rules(5));
    const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
    emu = await startEmulator({ port: 0, seed });
    write(['welcome', 'r1', 'r2', 'r3']);
    const applied = await run('apply', 'brands', '--yes');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    write(['welcome']);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each shard keeps the limit; report merge checks the rule again over all four and fails, in every format', async () => {
    for (let i = 1; i <= 4; i++) {
      const plan = await run('plan', 'brands', 'policies', '--shard', `${i}/4`, '--out', `plan-${i}.json`);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toContain('3 to delete');
      expect(plan.stdout).not.toContain('Policy:');
      const drift = await run('drift', 'brands', '--shard', `${i}/4`, '--format', 'json', '--output', `drift-${i}.json`);
      expect(drift.code, drift.stderr).toBe(2);
    }
    const plans = [1, 2, 3, 4].map((i) => `plan-${i}.json`);
    const ruleLine = `policies/rules.yaml:4`;
    const text = await run('report', 'merge', ...plans);
    expect(text.code, text.stdout).toBe(1);
    expect(text.stdout).toContain('Policy: 1 violation for the whole run (1 error: nothing is applied for any brand):');
    expect(text.stdout).toContain(`error[policy at-most-5-deletes] this change deletes 12 resources in 4 brands; at most 5 (rule at-most-5-deletes at ${ruleLine})`);
    const json = await run('report', 'merge', ...plans, '--format', 'json');
    expect(json.code).toBe(1);
    const merged = JSON.parse(json.stdout) as { policy?: { rule: string; message: string; ruleFile: string; ruleLine: number }[] };
    const validate = planValidator();
    expect(validate(merged), JSON.stringify(validate.errors)).toBe(true);
    expect(merged.policy).toEqual([{ rule: 'at-most-5-deletes', severity: 'error', message: 'this change deletes 12 resources in 4 brands; at most 5', ruleFile: 'policies/rules.yaml', ruleLine: 4 }]);
    // The comment the sharded recipes post: the plans and the drift reports in one Markdown, the exit code the worse.
    const comment = await run('report', 'merge', ...plans, ...[1, 2, 3, 4].map((i) => `drift-${i}.json`), '--format', 'markdown', '--detailed-exitcode');
    expect(comment.code).toBe(1);
    expect(comment.stdout).toContain('### ❌ Policy rules broken by the whole change:');
    expect(comment.stdout).toContain(`- ❌ **policy \`at-most-5-deletes\`**: this change deletes 12 resources in 4 brands; at most 5 (rule at \`${ruleLine}\`)`);
    // The merged plan is no plan to apply.
    writeFileSync(join(dir, 'merged.json'), json.stdout);
    const apply = await run('apply', '--plan', 'merged.json', '--yes', '--allow-delete');
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('breaks a policy rule of the whole run; nothing was sent');
    expect(emu.store.brands.get(IDS[0] as string)?.autoReplies.size).toBe(4);
  });

  it('within the limit over all shards: the merge passes; shards checked with other rules are refused', async () => {
    writeFileSync(join(dir, 'policies', 'rules.yaml'), rules(12));
    for (let i = 1; i <= 4; i++) expect((await run('plan', 'brands', 'policies', '--shard', `${i}/4`, '--out', `plan-${i}.json`)).code).toBe(0);
    const plans = [1, 2, 3, 4].map((i) => `plan-${i}.json`);
    const ok = await run('report', 'merge', ...plans, '--detailed-exitcode');
    expect(ok.code, ok.stdout).toBe(2);
    expect(ok.stdout).not.toContain('Policy:');
    // A shard planned from another commit's rules: its verdict is not the others'.
    writeFileSync(join(dir, 'policies', 'rules.yaml'), rules(11));
    expect((await run('plan', 'brands', 'policies', '--shard', '3/4', '--out', 'plan-3.json')).code).toBe(0);
    const refused = await run('report', 'merge', ...plans);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan-3.json was checked with other policy rules on the whole run (or other labels) than plan-1.json: at-most-11-deletes against at-most-12-deletes');
  });
});
