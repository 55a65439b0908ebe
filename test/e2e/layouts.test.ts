// Layouts end to end, through the CLI against the emulator over HTTP, as an
// agency account (the service's layout routes are for agencies alone):
// validate counts them and plan checks them against the service's components
// and rules at their manifest line; apply registers them and a plan after is
// empty; a layout made in the console is a drift finding, and a console edit
// of a declared one is drift; export writes them back and a plan of the export
// is empty; a console layout on a brand that declares none (an agency's: it
// has a key) is found too; a layout stuck in 처리중 is blocked and found; doctor checks the
// layout routes; graph draws them.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { layoutsOf } from '../../src/emulator/routes/layouts.js';
import { call } from '../emulator/helpers.js';
import { admin, BRAND, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '110-layout-from-nothing');
const AGENCY = { RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.demo0000000001' };

let emu: RunningEmulator | undefined;
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-layouts-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');
const edit = (from: string, to: string): void => writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace(from, to));
const run = (argv: string[]) => cli(argv, { emu, env: { ...(emu !== undefined ? { RCSCTL_BASE_URL: emu.url } : {}), ...AGENCY } });
const stored = () => [...layoutsOf(emu?.store.brands.get(BRAND) as never).values()];

describe('layouts end to end', () => {
  it('validate counts the layouts with every other kind', async () => {
    const r = await cli(['validate', manifest()], { env: AGENCY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${BRAND}: valid (0 auto-reply files, 0 auto-replies, 0 logos, 0 templates, 2 layouts, 0 rooms, 0 persistent menus, 0 bidirectional rooms, 0 agency files, 0 brand profiles, 0 privileges)\n`);
  });

  it("plan names a component the service does not list, and one outside the product's rule, at the manifest line", async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    edit('      - componentId: CP_TEXT_01\n      - componentId: CP_TABLE_01', '      - componentId: CP_TEXT_02\n      - componentId: CP_TABLE_01');
    edit('    productCode: mms', '    productCode: lms');
    const plan = await run(['plan', manifest()]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('error[LAYOUT_COMPONENT] ' + manifest() + ':13:9: the service lists no layout component "CP_TEXT_02" (did you mean "CP_TEXT_01"?)');
    expect(plan.stdout).toContain('error[LAYOUT_RULE] ' + manifest() + ':25:5: an LMS layout takes at most 0 components of group GRP_MEDIA; this one has 1');
    expect(plan.stdout).toContain('Plan failed: 2 problems; nothing can be applied for this brand.');
  });

  it('apply registers them; drift finds a layout made in the console and a console edit; export round-trips; 처리중 blocks', async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    const applied = await run(['apply', manifest(), '--yes']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(stored().map((l) => [l.layoutName, l.productCode, l.approvalResult])).toEqual([
      ['Notice with image', 'mms', '등록완료'],
      ['Receipt', 'lms', '등록완료'],
    ]);
    expect(stored()[1]?.bodyComposition[1]).toEqual({ componentId: 'CP_TABLE_01', options: { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'bold', maxCount: 10 } });
    expect((await run(['plan', manifest(), '--detailed-exitcode'])).code).toBe(0);
    expect((await run(['drift', manifest()])).code).toBe(0);

    // The console: a new layout, and the receipt's table cut back to five rows.
    const path = `/api/1.1/brand/${BRAND}/layout`;
    const made = await call(emu, 'POST', path, { token: AGENCY.RCSCTL_TOKEN, brandKey: AGENCY.BRAND_KEY, json: { layoutName: 'Flash sale', productCode: 'sms', headerComposition: [], bodyComposition: [{ componentId: 'CP_TEXT_01' }], footerComposition: [] } });
    expect(made.status, made.text).toBe(200);
    const receipt = stored().find((l) => l.layoutName === 'Receipt');
    const cut = await call(emu, 'PUT', `${path}/${receipt?.layoutId}`, {
      token: AGENCY.RCSCTL_TOKEN,
      brandKey: AGENCY.BRAND_KEY,
      json: { layoutName: 'Receipt', productCode: 'lms', headerComposition: [{ componentId: 'CP_TITLE_01' }], bodyComposition: [{ componentId: 'CP_TEXT_01' }, { componentId: 'CP_TABLE_01', options: { maxCount: 5 } }], footerComposition: [{ componentId: 'CP_BUTTON_01', options: { color: '#3B2A1A' } }] },
    });
    expect(cut.status, cut.text).toBe(200);
    const drift = await run(['drift', manifest(), '--format', 'json']);
    expect(drift.code).toBe(2);
    const findings = (JSON.parse(drift.stdout) as { brands: { resources: { findings: { code: string; address: string }[] }[] }[] }).brands.flatMap((b) => b.resources.flatMap((r) => r.findings));
    expect(findings.map((f) => [f.code, f.address])).toEqual(
      expect.arrayContaining([
        ['DRIFT_CHANGED', 'layout.receipt'],
        ['DRIFT_UNMANAGED', `layout.${made.body.result[0].layoutId}`],
      ]),
    );

    // The finding's advice: adopt the console's layout into the manifest; it is then declared as it is live.
    const adopted = await run(['export', '--resource', `layout.${made.body.result[0].layoutId}`, '--into', manifest()]);
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(parse(readFileSync(manifest(), 'utf8')).layouts['flash-sale']).toEqual({ layoutName: 'Flash sale', productCode: 'sms', bodyComposition: [{ componentId: 'CP_TEXT_01' }] });
    const afterAdopt = await run(['plan', manifest(), '--json']);
    expect((JSON.parse(afterAdopt.stdout) as { brands: { steps: { address: string }[] }[] }).brands[0]?.steps.map((st) => st.address)).toEqual(['layout.receipt']);

    // Export as the agency: every layout, and the plan of the export is empty.
    const out = join(tmp, 'exported');
    const exp = await run(['export', '--brand', BRAND, '--brand-key-env', 'BRAND_KEY', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toContain('0 templates, 3 layouts, 0 rooms');
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8'));
    expect(written.layouts['flash-sale']).toEqual({ layoutName: 'Flash sale', productCode: 'sms', bodyComposition: [{ componentId: 'CP_TEXT_01' }] });
    expect(written.layouts.receipt.bodyComposition[1].options.maxCount).toBe(5);
    expect((await run(['validate', out])).code).toBe(0);
    const again = await run(['plan', out, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes. The live brand matches the manifests.');
    expect(again.code).toBe(0);

    // Stuck part-way: the manifest's change is blocked, and drift says why.
    await admin(emu, 'POST', 'state', { kind: 'layout', brandId: BRAND, id: receipt?.layoutId, approvalResult: '처리중' });
    const blocked = await run(['plan', manifest()]);
    expect(blocked.stdout).toContain('blocked (처리중): its registration with the carriers stopped part-way');
    expect(blocked.stdout).toContain('LAYOUT_PROCESSING');
    const held = await run(['apply', manifest(), '--yes']);
    expect(stored().find((l) => l.layoutName === 'Receipt')?.bodyComposition[1]?.options?.maxCount).toBe(5);
    expect(held.stdout).toContain('blocked');
  });

  it('a layout made in the console on a brand that declares no layouts is a drift finding; export writes it back and a plan of the export is empty', async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    // The brand as an agency keeps it in git before any layout: its key, an auto-reply, no `layouts:` and no prune.
    writeFileSync(manifest(), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001, key: "${env:BRAND_KEY}" }\n');
    expect((await run(['drift', manifest()])).code).toBe(0);

    const made = await call(emu, 'POST', `/api/1.1/brand/${BRAND}/layout`, { token: AGENCY.RCSCTL_TOKEN, brandKey: AGENCY.BRAND_KEY, json: { layoutName: 'Flash sale', productCode: 'sms', headerComposition: [], bodyComposition: [{ componentId: 'CP_TEXT_01' }], footerComposition: [] } });
    expect(made.status, made.text).toBe(200);
    const id = made.body.result[0].layoutId as string;

    const drift = await run(['drift', manifest(), '--format', 'json']);
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    const findings = (JSON.parse(drift.stdout) as { brands: { resources: { findings: { code: string; address: string; severity: string }[] }[] }[] }).brands.flatMap((b) => b.resources.flatMap((r) => r.findings));
    expect(findings.map((f) => [f.code, f.address])).toEqual([['DRIFT_UNMANAGED', `layout.${id}`]]);
    const plan = await run(['plan', manifest()]);
    expect(plan.stdout).toContain('1 unmanaged');

    const out = join(tmp, 'exported');
    const exp = await run(['export', '--brand', BRAND, '--brand-key-env', 'BRAND_KEY', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(parse(readFileSync(join(out, 'brand.yaml'), 'utf8')).layouts).toEqual({ 'flash-sale': { layoutName: 'Flash sale', productCode: 'sms', bodyComposition: [{ componentId: 'CP_TEXT_01' }] } });
    const again = await run(['plan', out, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes. The live brand matches the manifests.');
    expect(again.code).toBe(0);
    expect((await run(['drift', out])).code).toBe(0);
  });

  it('a brand without a key (a master or manager: the service lists layouts to agencies alone) costs no layout request', async () => {
    const seed = loadSeed(join(CASE, 'seed.yaml'));
    seed.accounts = [...(seed.accounts ?? []), { userId: 'manager', role: 'manager', token: 'layout-manager-token', brands: [{ brandId: BRAND, role: 'operator' }] }];
    emu = await emulator(seed);
    writeFileSync(manifest(), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\n');
    await admin(emu, 'DELETE', 'requests');
    const drift = await cli(['drift', manifest()], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'layout-manager-token' } });
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    const log = (await admin(emu, 'GET', 'requests')) as { requests: { path: string }[] };
    expect(log.requests.filter((r) => r.path.includes('/layout'))).toEqual([]);
    // With a key but an account the service refuses layouts to: read, refused, and nothing to find (no error).
    const keyed = await cli(['drift', manifest()], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'layout-manager-token', RCSCTL_BRAND_KEY_BR_demo000001: AGENCY.BRAND_KEY } });
    expect(keyed.code, keyed.stdout + keyed.stderr).toBe(0);
  });

  it("validate says what the service does with a button colour other than the brand's templateColor, at its line; the preview draws the colour kept", async () => {
    // The brand's page from the profile case, with its templateColor, beside the layouts.
    cpSync(join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images'), join(tmp, 'brand', 'images'), { recursive: true });
    const profile = readFileSync(join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'manifest.yaml'), 'utf8').split('brandProfile:')[1] as string;
    writeFileSync(manifest(), `${readFileSync(manifest(), 'utf8')}brandProfile:${profile.replace('  keywords: coffee\n', '  keywords: coffee\n  templateColor: "#3B2A1A"\n')}`);
    edit('options: { color: "#3B2A1A" }', 'options: { color: "#FF0000" }');
    const lines = readFileSync(manifest(), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('#FF0000')) + 1;
    const col = (lines[line - 1] as string).indexOf('"#FF0000"') + 1;
    const colourAt = lines.findIndex((l) => l.includes('templateColor')) + 1;
    const profileAt = lines.findIndex((l) => l.startsWith('brandProfile:')) + 1;

    const warned = await cli(['validate', manifest()], { env: AGENCY });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain(
      `${manifest()}:${line}:${col}: warning RCS515: button colour "#FF0000" is not the brand's templateColor "#3B2A1A" (brandProfile.templateColor, ${manifest()}:${profileAt}): the service sets a layout button's colour to the templateColor, so this button will be "#3B2A1A"; write "#3B2A1A", or "" for the default colour`,
    );
    expect(colourAt).toBeGreaterThan(profileAt);

    const out = join(tmp, 'site');
    const shown = await cli(['preview', manifest(), '-o', out], { env: AGENCY });
    expect(shown.code, shown.stderr).toBe(0);
    expect(readFileSync(join(out, BRAND, 'index.html'), 'utf8')).toContain('<span class="sg btn lo-btn" style="border-color:#3B2A1A;color:#3B2A1A">');

    // The graph: the button's colour is the brand page's, declared here.
    const graph = await cli(['graph', manifest()], { env: AGENCY });
    expect(graph.stdout).toMatch(/n\d+ -->\|"button colour"\| n\d+\n/);

    // The templateColor itself (in any case) and the default colour are what the service keeps: nothing to say.
    for (const kept of ['#3b2a1a', '']) {
      writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace(/color: "[^"]*" \}/, `color: "${kept}" }`));
      const quiet = await cli(['validate', manifest()], { env: AGENCY });
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toContain('RCS515');
    }
  });

  it('a warm plan reads the list alone: each layout comes from the live cache while its updateDate holds, a console edit is read again', async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    const env = { ...AGENCY, RCSCTL_BASE_URL: emu.url, XDG_CACHE_HOME: join(tmp, 'cache') };
    const detailReads = async (): Promise<number> => {
      const log = (await admin(emu as RunningEmulator, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
      await admin(emu as RunningEmulator, 'DELETE', 'requests');
      return log.requests.filter((r) => r.method === 'GET' && /\/layout\/CLL/.test(r.path)).length;
    };
    expect((await cli(['apply', manifest(), '--yes'], { emu, env })).code).toBe(0);
    await detailReads();
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(2);
    // Both warm now: nothing but the list.
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(0);
    const receipt = stored().find((l) => l.layoutName === 'Receipt');
    const edit = await call(emu, 'PUT', `/api/1.1/brand/${BRAND}/layout/${receipt?.layoutId}`, {
      token: AGENCY.RCSCTL_TOKEN,
      brandKey: AGENCY.BRAND_KEY,
      json: { layoutName: 'Receipt', productCode: 'lms', headerComposition: [], bodyComposition: [{ componentId: 'CP_TEXT_01' }], footerComposition: [] },
    });
    expect(edit.status, edit.text).toBe(200);
    await detailReads();
    const plan = await cli(['plan', manifest()], { emu, env });
    expect(plan.stdout).toContain('~ layout.receipt');
    expect(await detailReads()).toBe(1);
  });

  it('a plan of declared layouts with an account that is not an agency fails at the layouts, saying why', async () => {
    // The case's seed, and a manager with a role on the brand: a valid token, but not an agency's.
    const seed = loadSeed(join(CASE, 'seed.yaml'));
    seed.accounts = [...(seed.accounts ?? []), { userId: 'manager', role: 'manager', token: 'layout-manager-token', brands: [{ brandId: BRAND, role: 'operator' }] }];
    emu = await emulator(seed);
    const master = await cli(['plan', manifest()], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'layout-manager-token', BRAND_KEY: AGENCY.BRAND_KEY } });
    expect(master.code).toBe(1);
    expect(master.stdout).toContain(`error[LAYOUT_ACCOUNT] ${manifest()}:7:3: the service lists layouts to agency accounts only (401 61003): plan and apply layouts with an agency account, sending the brand key (brand.key)`);
    expect(master.stdout).not.toContain('Invalid token');
    // Nothing read is nothing missing: drift says why it could not check, and finds no layout "to create".
    const drift = await cli(['drift', manifest()], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'layout-manager-token', BRAND_KEY: AGENCY.BRAND_KEY } });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('error[LAYOUT_ACCOUNT]');
    expect(drift.stdout).not.toContain('DRIFT_MISSING');
  });

  it('export with an account the service refuses layouts to says they were not read', async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    await run(['apply', manifest(), '--yes']);
    const out = join(tmp, 'as-master');
    const exp = await cli(['--sandbox', 'export', '--brand', BRAND, '--out', out], { env: {} });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toContain('layout not read');
    expect(exp.stdout).toContain('note: the layout was not read, so it is not exported: the service lists layouts to agency accounts only (401 61003)');
  });

  it("doctor checks the layout routes as an agency; graph draws each layout with its product and components", async () => {
    emu = await emulator(join(CASE, 'seed.yaml'));
    const doctorEnv = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: AGENCY.RCSCTL_TOKEN, RCSCTL_BRAND_KEY_BR_demo000001: AGENCY.BRAND_KEY };
    const layoutChecks = async () => (JSON.parse((await cli(['doctor', '--brand', BRAND, '--format', 'json'], { emu, env: doctorEnv })).stdout) as { checks: { id: string; status: string; said: string }[] }).checks.filter((c) => c.id.startsWith('layout-'));
    // No layout yet: the detail has nothing to read.
    expect((await layoutChecks()).find((c) => c.id === 'layout-detail')).toMatchObject({ status: 'skipped', said: 'the brand has no layout to read' });
    expect((await run(['apply', manifest(), '--yes'])).code).toBe(0);
    const checks = await layoutChecks();
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['layout-components', 'ok'],
      ['layout-rules', 'ok'],
      ['layout-samples', 'ok'],
      ['layout-list', 'ok'],
      ['layout-detail', 'ok'],
    ]);
    expect(checks[0]?.said).toBe('HTTP 200, 9 components, 6 usable in a layout');
    expect(checks[4]?.said).toMatch(/^HTTP 200, CLLBR\.demo000001-\d+: \d components in its three areas$/);
    const graph = await cli(['graph', manifest()], { env: AGENCY });
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toContain('layout.receipt');
    expect(graph.stdout).toContain('LMS: CP_TITLE_01, CP_TEXT_01, CP_TABLE_01, CP_BUTTON_01');
    // The receipt's button takes the brand's templateColor: an arrow to the brand's page, outside these manifests.
    expect(graph.stdout).toContain('    n1["home<br/>not in the manifests"]:::external\n');
    expect(graph.stdout).toContain('  n0 -.->|"button colour"| n1\n');
    expect(graph.stdout.match(/button colour/g)?.length).toBe(1);
  });
});
