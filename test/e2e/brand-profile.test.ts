// The brand profile end to end, through the CLI against the emulator over
// HTTP: validate counts it and checks its images locally; apply sends the page
// with its images (the name and profile image to review); drift reports the
// review and a rejection with the operator's reason; an unchanged image is
// never sent again; export writes the profile and its images, and a plan of
// the export is empty; graph draws the home buttons' links.

import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { pageOf } from '../../src/emulator/routes/brand-state.js';
import { admin, BRAND, cli, emulator, ROOT } from './helpers.js';
import { png } from '../emulator/helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing');
const SEED = join(CASE, 'seed.yaml');

let emu: RunningEmulator | undefined;
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-profile-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');
const page = () => {
  const brand = emu?.store.brands.get(BRAND);
  return brand && pageOf(brand);
};
const review = (action: string, reason?: string) => admin(emu as RunningEmulator, 'POST', 'review', { kind: 'brand', brandId: BRAND, id: BRAND, action, ...(reason !== undefined ? { reason } : {}) });

describe('brand profile end to end', () => {
  it('validate counts the profile with every other kind', async () => {
    const r = await cli(['validate', manifest()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${BRAND}: valid (0 auto-reply files, 0 auto-replies, 0 logos, 0 templates, 0 layouts, 0 rooms, 0 persistent menus, 0 bidirectional rooms, 0 agency files, 1 brand profile, 0 privileges)\n`);
  });

  it('validate checks the images against the rules, naming the file and the rule', async () => {
    const edit = (from: string, to: string) => writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace(from, to));
    copyFileSync(join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images', 'profile.png'), join(tmp, 'brand', 'images', 'profile.jpg'));
    edit('images/profile.png', 'images/profile.jpg');
    const jpg = await cli(['validate', manifest()]);
    expect(jpg.code).toBe(1);
    expect(jpg.stderr).toContain('RCS304');
    expect(jpg.stderr).toContain('a brand profile image must be png; "images/profile.jpg" is not');
    edit('images/profile.jpg', 'images/wide.png');
    // A whole PNG (validate walks every chunk), 500x400.
    writeFileSync(join(tmp, 'brand', 'images', 'wide.png'), png(500, 400));
    const wide = await cli(['validate', manifest()]);
    expect(wide.stderr).toContain('brand profile image "images/wide.png" is 500x400; the service takes square images only');
  });

  it('apply: the page with its image, name and image to review; drift names the review, then the rejection and its reason', async () => {
    emu = await emulator(SEED);
    const held = await cli(['apply', manifest(), '--yes'], { emu });
    expect(held.code, held.stdout + held.stderr).toBe(3);
    expect(held.stdout).toContain('held: the brand goes back to operator review (승인 → 승인대기(수정)); description, tel, categoryId, subCategoryId, menus, keywords change at once (reviewed: name, profileImage)');
    expect(page()?.name).toBe(BRAND);

    const applied = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(page()).toMatchObject({ name: 'Coffee Co', description: 'Fresh coffee daily', approvalResult: '승인대기(수정)', categoryOpt: 'coffee' });
    expect(page()?.profileImage?.fileName).toBe('profile-5cb43538bc19.png');
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);
    expect((await cli(['drift', manifest()], { emu })).stdout).toContain('BRAND_REVIEW_PENDING');

    await review('reject', 'the name must match the business registration');
    const drift = await cli(['drift', manifest()], { emu });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('BRAND_REJECTED');
    expect(drift.stdout).toContain('"the name must match the business registration"');
  });

  it('report merge takes the drift report of a profile whose reviewed fields differ (its gate names them; issue 35)', async () => {
    emu = await emulator(SEED);
    const out = join(tmp, 'drift.json');
    expect((await cli(['drift', manifest(), '--format', 'json', '-o', out], { emu })).code).toBe(2);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { brands: { resources: { findings: { gate?: { fields?: string[] } }[] }[] }[] };
    expect(report.brands[0]?.resources.flatMap((r) => r.findings).some((f) => f.gate?.fields?.includes('name') === true)).toBe(true);
    const merged = await cli(['report', 'merge', out, '--format', 'json'], { emu });
    expect(merged.stderr).not.toContain('is not a valid drift report');
    expect(merged.code, merged.stderr).toBe(2);
  });

  it('an unchanged image is never sent again; --cancel-review withdraws a pending modification', async () => {
    emu = await emulator(SEED);
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    await review('complete');
    const imageId = page()?.profileImage?.fileId;
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('keywords: coffee', 'keywords: espresso'));
    const plain = await cli(['apply', manifest(), '--yes'], { emu });
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(page()).toMatchObject({ categoryOpt: 'espresso', approvalResult: '승인' });
    expect(page()?.profileImage?.fileId).toBe(imageId);

    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('name: Coffee Co', 'name: Coffee Company'));
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    expect(page()).toMatchObject({ name: 'Coffee Company', approvalResult: '승인대기(수정)' });
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('name: Coffee Company', 'name: Coffee Co.'));
    const blocked = await cli(['plan', manifest()], { emu });
    expect(blocked.stdout).toContain('blocked (승인대기(수정)): the brand is under review');
    const withdrawn = await cli(['apply', manifest(), '--yes', '--allow-review', '--allow-delete', '--cancel-review'], { emu });
    expect(withdrawn.code, withdrawn.stdout + withdrawn.stderr).toBe(0);
    expect(page()).toMatchObject({ name: 'Coffee Co.', approvalResult: '승인대기(수정)' });
    expect(page()?.previous?.name).toBe('Coffee Co');
  });

  it('initTab is fixed at the first approval: plan and apply block the step with the reason, and nothing is sent', async () => {
    emu = await emulator(SEED);
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    await review('complete');
    expect(page()).toMatchObject({ initTab: 'FEED', approvalResult: '승인' });
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('keywords: coffee', 'keywords: espresso\n  initTab: INFO'));
    const reason = 'initTab is chosen at the brand\'s first approval and the service refuses any change afterwards (64337); leave it out of the manifest or write the live value (initTab: "FEED")';
    const plan = await cli(['plan', manifest()], { emu });
    expect(plan.stdout).toContain(`  ! brandProfile.home "Coffee Co" (${BRAND})  will be updated`);
    expect(plan.stdout).toContain(`blocked (승인): ${reason}`);
    const applied = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(applied.stdout + applied.stderr).not.toContain('64337 Brand Creation Property Value Error');
    expect(applied.stdout).toContain(reason);
    expect(applied.code, applied.stdout + applied.stderr).toBe(3);
    expect(page()).toMatchObject({ initTab: 'FEED', categoryOpt: 'coffee' });
  });

  it('export writes the profile and its images; a plan of the export is empty', async () => {
    emu = await emulator(SEED);
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    await review('complete');
    const out = join(tmp, 'exported');
    const env = { RCSCTL_PERSON_ID: 'master' };
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu, env });
    expect(exp.code, exp.stdout + exp.stderr).toBe(0);
    expect(exp.stdout).toContain(`Exported ${BRAND}: 0 auto-reply files, 0 auto-replies, 0 logos, 0 templates, layout not read, 0 rooms, 0 bidirectional rooms, 1 brand profile, 1 privilege\n`);
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8'));
    expect(written.brandProfile).toMatchObject({ account: 'master', name: 'Coffee Co', keywords: 'coffee', profileImage: 'images/profile/profile.png' });
    expect(written.brandProfile.menus).toEqual([{ type: 'web', urlAction: { openUrl: { url: 'https://coffee.example' } } }, { type: 'call' }]);
    expect(readFileSync(join(out, 'images', 'profile', 'profile.png')).equals(readFileSync(join(CASE, 'images', 'profile.png')))).toBe(true);
    const plan = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(plan.stdout).toContain('No changes. The live brand matches the manifests.');
    expect(plan.code).toBe(0);
  });

  it('export of a brand page with no profile image leaves the page out, says why, and the export plans clean', async () => {
    // The page as the seed has it, before anything is applied: no profile image, which every update of it needs.
    emu = await emulator(SEED);
    const out = join(tmp, 'exported');
    const env = { RCSCTL_PERSON_ID: 'master' };
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu, env });
    expect(exp.code, exp.stdout + exp.stderr).toBe(0);
    expect(exp.stdout + exp.stderr).toMatch(/brand page has no profile image/);
    expect(exp.stdout).toContain(`Exported ${BRAND}: 0 auto-reply files, 0 auto-replies, 0 logos, 0 templates, layout not read, 0 rooms, 0 bidirectional rooms, 0 brand profiles, 1 privilege\n`);
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8'));
    expect(written.brandProfile).toBeUndefined();
    const check = await cli(['validate', out], { emu });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const plan = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("an agency's token may not read the brand page: plan fails at the section saying why, export leaves it out saying why", async () => {
    // The service shows a brand's page to a company's masters and managers only (403 63002 for an agency).
    const seed = loadSeed(SEED);
    seed.accounts = [...(seed.accounts ?? []), { userId: 'ag1', role: 'agency', token: 't-ag1', brands: [{ brandId: BRAND, role: 'operator' }] }];
    emu = await emulator(seed);
    const env = { RCSCTL_TOKEN: 't-ag1', RCSCTL_BRAND_KEY_BR_demo000001: 'BK.demo0000000001' };
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('account: master', 'account: ag1').replace(`  id: ${BRAND}\n`, `  id: ${BRAND}\n  key: BK.demo0000000001\n`));
    const plan = await cli(['plan', manifest()], { emu, env });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(`error[PROFILE_ACCOUNT] ${manifest()}:7: the service shows a brand's page to a company's masters and managers only (403 63002), and this token's account is not one (an agency's?): plan the brand profile with a master's or manager's token`);
    expect(plan.stdout + plan.stderr).not.toContain('could not be read');
    // Nothing read is nothing changed: drift says why it could not check.
    const drift = await cli(['drift', manifest()], { emu, env });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('error[PROFILE_ACCOUNT]');
    expect(drift.stdout).not.toContain('DRIFT_');

    const out = join(tmp, 'as-agency');
    const exp = await cli(['export', '--brand', BRAND, '--account', 'ag1', '--out', out], { emu, env });
    expect(exp.code, exp.stdout + exp.stderr).toBe(0);
    expect(exp.stdout).toContain('brand profile not read');
    expect(exp.stdout).toContain("the brand profile was not read, so it is not exported: the service shows a brand's page to a company's masters and managers only (403 63002)");
    expect(parse(readFileSync(join(out, 'brand.yaml'), 'utf8')).brandProfile).toBeUndefined();
  });

  it('preview draws the brand home: header, profile picture, buttons, information', async () => {
    const out = join(tmp, 'preview');
    const r = await cli(['preview', manifest(), '-o', out], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(out, BRAND, 'index.html'), 'utf8');
    expect(html).toContain('data-address="brandProfile.home"');
    expect(html).toMatch(/<img class="home-profile" src="data:image\/png;base64,[^"]+"/);
    expect(html).toContain('<p class="home-name">Coffee Co</p><p class="intro">Fresh coffee daily</p>');
    // The buttons in the auto-reply vocabulary: web opens its link, call dials the brand's tel.
    expect(html).toMatch(/kind-link.*web.*https:\/\/coffee\.example.*kind-dial.*call.*0212345678/s);
  });

  it('doctor checks the category list and, as RCSCTL_PERSON_ID, the brand page', async () => {
    emu = await emulator(SEED);
    const env: Record<string, string> = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token' };
    const checks = async () => (JSON.parse((await cli(['doctor', '--brand', BRAND, '--format', 'json'], { emu, env })).stdout) as { checks: { id: string; status: string; said: string }[] }).checks;
    const without = await checks();
    expect(without.find((c) => c.id === 'brand-categories')).toMatchObject({ status: 'ok', said: 'HTTP 200, 4 categories' });
    expect(without.find((c) => c.id === 'brand-detail')).toMatchObject({ status: 'skipped' });
    // The run's environment (main's io.env), not the process's: RCSCTL_PERSON_ID is set there alone.
    expect(process.env.RCSCTL_PERSON_ID).toBeUndefined();
    env.RCSCTL_PERSON_ID = 'master';
    expect((await checks()).find((c) => c.id === 'brand-detail')).toMatchObject({ status: 'ok', said: `HTTP 200, "${BRAND}" in 승인` });
  });

  it("plan and drift read the page as the run's RCSCTL_PERSON_ID (main's io.env, not the process's) when the manifest names no account", async () => {
    emu = await emulator(SEED);
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('  account: master\n', ''));
    expect(process.env.RCSCTL_PERSON_ID).toBeUndefined();
    const without = await cli(['plan', manifest()], { emu });
    expect(without.code).toBe(1);
    expect(without.stdout).toContain('error[PROFILE_ACCOUNT]');
    const plan = await cli(['plan', manifest()], { emu, env: { RCSCTL_PERSON_ID: 'master' } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('⚑ brandProfile.home "Coffee Co" (BR.demo000001)  will be updated');
    expect(plan.stdout).not.toContain('PROFILE_ACCOUNT');
    const drift = await cli(['drift', manifest()], { emu, env: { RCSCTL_PERSON_ID: 'master' } });
    expect(drift.stdout).not.toContain('PROFILE_ACCOUNT');
    expect(drift.stdout).toContain('DRIFT_CHANGED');
  });

  it('graph draws the home buttons\' links', async () => {
    const graph = await cli(['graph', manifest()], { env: {} });
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain('n0 -.->|"web"|');
    expect(graph.stdout).toContain('https://coffee.example');
  });
});
