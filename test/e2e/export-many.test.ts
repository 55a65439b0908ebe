// `rcsctl export` of several brands in one run (issue 38, "Export many"):
// `--brand` repeated or `--all` (every brand the account's list shows), each
// brand into its own folder under --out, over one connection; the result plans
// with no changes, brand by brand. A brand that fails is named and the others
// are written all the same; the run exits 1.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { loadSeed } from '../../src/emulator/index.js';
import { cli, emulator, ROOT } from './helpers.js';

export const STORES = ['BR.store00001', 'BR.store00002', 'BR.store00003'];

/** The example seed, and three stores the master account can also see, each with two auto-replies (one linking to the other). */
export function storesSeed(): Seed {
  const s = loadSeed(join(ROOT, 'examples', 'emulator-seed.yaml'));
  // A page with a profile image rcsctl uploaded (content-addressed name), as a live brand has one (the manifest requires it).
  const png = readFileSync(join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images', 'profile.png'));
  const profileImage = { fileName: `profile-${createHash('sha256').update(png).digest('hex').slice(0, 12)}.png`, content: png.toString('base64') };
  for (const b of s.brands) (b as { page?: Record<string, unknown> }).page = { ...((b as { page?: Record<string, unknown> }).page ?? {}), profileImage };
  const master = s.accounts.find((a) => a.userId === 'master');
  const agency = s.accounts.find((a) => a.userId === 'agency');
  if (master === undefined || agency === undefined) throw new Error('the example seed has no master or agency account');
  STORES.forEach((brandId, i) => {
    s.brands.push({
      brandId,
      brandKey: `BK.store0000000${i + 1}`,
      page: { name: `Store ${i + 1}`, profileImage },
      autoReplies: [
        { autoReplyMsgId: `ARMS${i}0000001`, autoReplyMsgName: 'Opening hours', messagebaseId: 'SCS00000', body: { description: `Store ${i + 1}: 8:00-20:00` } },
        { autoReplyMsgId: `ARMS${i}0000002`, autoReplyMsgName: 'Welcome', messagebaseId: 'SCS00000', body: { description: 'Hello' }, chipList: [{ reply: { autoReplyMsgId: `ARMS${i}0000001`, displayText: 'Hours' } }] },
      ],
    } as Seed['brands'][number]);
    (master.brands ??= []).push({ brandId, role: 'representative' });
    (agency.brands ??= []).push({ brandId, role: 'operator' });
  });
  return s;
}

let emu: RunningEmulator;
let tmp: string;
const env = { RCSCTL_PERSON_ID: 'master' };

beforeAll(async () => {
  emu = await emulator(storesSeed());
});
afterAll(async () => {
  await emu.close();
});
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-export-many-'));
  return () => rmSync(tmp, { recursive: true, force: true });
});

describe('rcsctl export of many brands', () => {
  it('--all writes every brand the account can see into its own folder, and the whole folder plans with no changes', async () => {
    const out = join(tmp, 'brands');
    const r = await cli(['export', '--all', '--out', out], { emu, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['BR.demo000001', ...STORES]);
    for (const id of STORES) {
      const m = parse(readFileSync(join(out, id, 'brand.yaml'), 'utf8'));
      expect(m.brand).toEqual({ id });
      expect(m.autoReplies.welcome.chipList[0]).toEqual({ reply: { autoReply: 'opening-hours', displayText: 'Hours' } });
      expect(r.stdout).toContain(`Exported ${id}: 0 auto-reply files, 2 auto-replies, `);
    }
    expect(r.stdout).toContain(`Exported 4 of 4 brands into ${out}, one folder each\n`);
    // What the run cost the account's rate limit, as every summary says it.
    expect(r.stdout).toMatch(/\nRequests: \d+ requests, 0 answered 429\.\nExported 4 of 4 brands/);
    // The note every brand shares is said once.
    expect(r.stdout.match(/Agency files are not exported/g)).toHaveLength(1);
    const plan = await cli(['plan', out, '--detailed-exitcode'], { emu, env });
    expect(plan.code, plan.stderr + plan.stdout).toBe(0);
    expect(plan.stdout).not.toContain('BRAND_UNMANAGED');
  });

  it('--brand repeated exports those brands; one that fails is named, the others are written, and the run exits 1', async () => {
    const r = await cli(['export', '--brand', STORES[0]!, '--brand', 'BR.nosuch0001', '--brand', STORES[2]!], { emu, env, cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: BR\.nosuch0001: .+/m);
    expect(r.stderr).not.toContain(STORES[0]!);
    expect(existsSync(join(tmp, STORES[0]!, 'brand.yaml'))).toBe(true);
    expect(existsSync(join(tmp, STORES[2]!, 'brand.yaml'))).toBe(true);
    expect(existsSync(join(tmp, 'BR.nosuch0001'))).toBe(false);
    expect(r.stdout).toContain('Exported 2 of 3 brands into ., one folder each; 1 failed: BR.nosuch0001\n');
  });

  it('a brand whose folder already holds a brand.yaml fails alone, and keeps its file; --force overwrites', async () => {
    const out = join(tmp, 'brands');
    mkdirSync(join(out, STORES[1]!), { recursive: true });
    writeFileSync(join(out, STORES[1]!, 'brand.yaml'), '# mine\n');
    const r = await cli(['export', '--all', '--out', out], { emu, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: ${STORES[1]}: ${join(out, STORES[1]!, 'brand.yaml')} exists; choose another --out directory or pass --force to overwrite it`);
    expect(readFileSync(join(out, STORES[1]!, 'brand.yaml'), 'utf8')).toBe('# mine\n');
    for (const id of [STORES[0]!, STORES[2]!, 'BR.demo000001']) expect(existsSync(join(out, id, 'brand.yaml')), id).toBe(true);
    const forced = await cli(['export', '--all', '--out', out, '--force'], { emu, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(out, STORES[1]!, 'brand.yaml'), 'utf8')).toContain(`id: ${STORES[1]}`);
  });

  it('refuses what it cannot do before reading anything', async () => {
    const noAccount = await cli(['export', '--all'], { emu, env: { RCSCTL_PERSON_ID: undefined }, cwd: tmp });
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toContain('--all exports every brand the account can see: name the account with --account ID or RCSCTL_PERSON_ID');
    const both = await cli(['export', '--all', '--brand', STORES[0]!], { emu, env, cwd: tmp });
    expect(both.stderr).toContain('--all exports every brand the account can see; leave out --brand');
    const keyEnv = await cli(['export', '--brand', STORES[0]!, '--brand', STORES[1]!, '--brand-key-env', 'K'], { emu, env, cwd: tmp });
    expect(keyEnv.stderr).toContain('--brand-key-env names one brand\'s key; with several brands each key is read from RCSCTL_BRAND_KEY_BR__id_');
    const twice = await cli(['export', '--brand', STORES[0]!, '--brand', STORES[0]!], { emu, env, cwd: tmp });
    expect(twice.stderr).toContain(`--brand ${STORES[0]} is given twice`);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('an agency account: each brand\'s key from RCSCTL_BRAND_KEY_<brand>, written as ${env:...}, never the key; a brand without one fails alone', async () => {
    const keys = { RCSCTL_BRAND_KEY_BR_store00001: 'BK.store00000001', RCSCTL_BRAND_KEY_BR_store00002: 'BK.store00000002' };
    const agency = { RCSCTL_TOKEN: 'emulator-agency-token', ...keys };
    const r = await cli(['export', '--brand', STORES[0]!, '--brand', STORES[1]!, '--brand', STORES[2]!, '--out', tmp], { emu, env: agency });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error: ${STORES[2]!.replace('.', '\\.')}: .+`, 'm'));
    for (const [i, id] of [STORES[0]!, STORES[1]!].entries()) {
      const yaml = readFileSync(join(tmp, id, 'brand.yaml'), 'utf8');
      expect(parse(yaml).brand).toEqual({ id, key: `\${env:RCSCTL_BRAND_KEY_BR_store0000${i + 1}}` });
      expect(yaml).not.toContain('BK.store');
    }
    expect(r.stdout + r.stderr).not.toContain('BK.store');
    // The written manifests plan with no changes, the keys read from the same variables.
    const plan = await cli(['plan', join(tmp, STORES[0]!), join(tmp, STORES[1]!), '--detailed-exitcode'], { emu, env: agency });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
