// A saved plan is applied by another process (the CI apply job), which reads
// no manifest: the plan file carries everything apply needs to re-read what it
// planned (issue 35 §1). A plan touching the brand profile recorded no account,
// so a fresh process re-read the page as nobody and refused the plan as stale
// ("brandProfile.home: no longer exists") unless RCSCTL_PERSON_ID was set.
// These runs are separate processes on purpose: in one process the account a
// plan read the page as is remembered, and hid the bug. And one stale brand
// fails alone: the plan's other brands are applied.

import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { pageOf } from '../../src/emulator/routes/brand-state.js';
import type { Seed } from '../../src/emulator/seed.js';
import type { PlanFile } from '../../src/plan/types.js';
import { admin, BRAND, emulator, ROOT, TOKEN } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing');
const OTHER = 'BR.other00001';

let dir: string;
let emu: RunningEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-saved-profile-'));
  mkdirSync(join(dir, 'brands', 'demo'), { recursive: true });
  cpSync(join(CASE, 'manifest.yaml'), join(dir, 'brands', 'demo', 'manifest.yaml'));
  cpSync(join(CASE, 'images'), join(dir, 'brands', 'demo', 'images'), { recursive: true });
  mkdirSync(join(dir, 'brands', 'other'), { recursive: true });
  writeFileSync(join(dir, 'brands', 'other', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${OTHER} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello" } }\n`);
  // The case's seed, and a second brand on the same account.
  const seed = parse(readFileSync(join(CASE, 'seed.yaml'), 'utf8')) as Seed & { accounts: { brands: { brandId: string; role: string }[] }[]; brands: { brandId: string; brandKey: string }[] };
  seed.accounts[0]?.brands.push({ brandId: OTHER, role: 'representative' });
  seed.brands.push({ brandId: OTHER, brandKey: 'BK.other0000000001' });
  emu = await emulator(seed);
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** rcsctl as its own process, with no RCSCTL_PERSON_ID. */
function rcsctl(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, NO_COLOR: '1' };
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'rcsctl.js'), ...argv], { cwd: dir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe('plan --out, then apply --plan in another process, without RCSCTL_PERSON_ID', () => {
  it('a plan that changes the brand profile applies: the plan file records the account the page was read as', async () => {
    const planned = await rcsctl('plan', 'brands', '--out', 'plan.json');
    expect(planned.code, planned.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as PlanFile;
    const step = file.brands.find((b) => b.brandId === BRAND)?.steps.find((s) => s.kind === 'brandProfile');
    expect(step?.readAs).toBe('master');
    const applied = await rcsctl('apply', '--plan', 'plan.json', '--yes', '--allow-review');
    expect(applied.stderr).not.toContain('stale');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const brand = emu.store.brands.get(BRAND);
    expect(brand && pageOf(brand)?.name).toBe('Coffee Co');
    expect((await rcsctl('plan', 'brands', '--detailed-exitcode')).code).toBe(0);
  });

  it('a brand whose live objects changed since the plan fails alone, naming them; the plan\'s other brands are applied', async () => {
    writeFileSync(join(dir, 'brands', 'other', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${OTHER} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello again" } }\n`);
    // The first test's modification is approved: the profile takes a change again.
    await admin(emu, 'POST', 'review', { kind: 'brand', brandId: BRAND, id: BRAND, action: 'complete' });
    const manifest = join(dir, 'brands', 'demo', 'manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('keywords: coffee', 'keywords: espresso'));
    expect((await rcsctl('plan', 'brands', '--out', 'plan2.json')).code).toBe(0);
    // Someone changes the other brand's reply in the console meanwhile.
    const reply = [...(emu.store.brands.get(OTHER)?.autoReplies.values() ?? [])][0] as { autoReplyMsgId: string } | undefined;
    await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: OTHER, id: reply?.autoReplyMsgId, approvalResult: '처리중' });
    const applied = await rcsctl('apply', '--plan', 'plan2.json', '--yes');
    expect(applied.code).toBe(1);
    const out = applied.stdout + applied.stderr;
    expect(out).toContain('the saved plan is stale for this brand');
    expect(out).toContain('autoReply.hi: state 등록완료 → 처리중');
    expect(out).toContain('Make a new plan (rcsctl plan --out) and review it again.');
    const brand = emu.store.brands.get(BRAND);
    expect(brand && pageOf(brand)?.categoryOpt).toBe('espresso');
  });
});
