// rcsctl doctor end to end: against the emulator it passes; against an emulator
// set to behave otherwise (media as maapfile://, no postback fill, aliases not
// mapped, unset fields left out) it names each difference and exits 1. It only
// ever reads (and asks for a token).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { contractOf } from '../contract-recorder.js';
import { admin, BRAND, cli, clientFor, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await emulator();
  expect((await cli(['apply', EXAMPLE, '--yes', '--allow-review'], { emu })).code).toBe(0);
  await admin(emu, 'DELETE', 'requests');
});
afterEach(async () => {
  await emu.close();
});

interface Check {
  id: string;
  status: string;
  assumed: string;
  said: string;
  doc: string;
}

async function doctor(env: Record<string, string> = {}): Promise<{ code: number; checks: Check[]; text: string }> {
  const json = await cli(['doctor', '--brand', BRAND, '--format', 'json'], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token', ...env } });
  const text = await cli(['doctor', '--brand', BRAND], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token', ...env } });
  expect(text.code).toBe(json.code);
  return { code: json.code, checks: (JSON.parse(json.stdout) as { checks: Check[] }).checks, text: text.stdout };
}

const status = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.status]));

describe('rcsctl doctor', () => {
  it('passes against the emulator, and never writes', async () => {
    const r = await doctor();
    expect(status(r.checks)).toEqual({
      credentials: 'skipped',
      brand: 'ok',
      'list-envelope': 'ok',
      'links-prev': 'ok',
      timestamps: 'ok',
      'messagebase-aliases': 'ok',
      'postback-fill': 'ok',
      'media-form': 'ok',
      states: 'ok',
      'unset-fields': 'ok',
      // The brand profile's own checks: the page needs RCSCTL_PERSON_ID to name the account.
      'brand-categories': 'ok',
      'brand-detail': 'skipped',
      // The layout kind's: its routes are for agency accounts, and this is a master's token.
      'layout-components': 'skipped',
      'layout-rules': 'skipped',
      'layout-samples': 'skipped',
      'layout-list': 'skipped',
      'layout-detail': 'skipped',
      // The bidirectional room kind's: its list, and no room of it in the sender-number list.
      'bidirectional-list': 'ok',
      // The privilege kind's: the list is read as RCSCTL_PERSON_ID, not set here.
      privileges: 'skipped',
    });
    expect(r.code).toBe(0);
    expect(r.text).toContain('Every assumption checked holds.');
    const log = (await admin(emu, 'GET', 'requests')) as { requests: { method: string }[] };
    expect(new Set(log.requests.map((q) => q.method))).toEqual(new Set(['GET']));
  });

  it('with a client id and secret, checks token issuance; an agency brings the brand key', async () => {
    const env = { RCSCTL_TOKEN: '', RCSCTL_CLIENT_ID: 'emulator-agency', RCSCTL_CLIENT_SECRET: 'emulator-secret' };
    const noKey = await doctor(env);
    expect(status(noKey.checks).credentials).toBe('ok');
    expect(noKey.checks.find((c) => c.id === 'brand')).toMatchObject({ status: 'differs', said: expect.stringContaining('64001') });
    expect(noKey.code).toBe(1);
    const withKey = await doctor({ ...env, RCSCTL_BRAND_KEY_BR_demo000001: 'BK.demo0000000001' });
    expect(withKey.code).toBe(0);
    expect(withKey.text).not.toContain('emulator-secret');
  });

  it('names every difference of an emulator that behaves otherwise, and exits 1', async () => {
    await admin(emu, 'POST', 'options', { mediaForm: 'maapfile', fillPostbacks: false, storeAliases: false, unsetFields: 'absent' });
    const client = clientFor(emu);
    await client.autoReplies.create({ id: BRAND, key: 'BK.demo0000000001' }, { autoReplyMsgName: 'Long', messagebaseId: 'SCL00000', body: { description: 'x' }, chipList: [{ action: { displayText: 'Call', postback: { data: '' }, dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } }] });
    await client.close();
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(status(r.checks)).toMatchObject({ 'media-form': 'differs', 'postback-fill': 'differs', 'messagebase-aliases': 'differs', 'unset-fields': 'differs', 'list-envelope': 'ok', brand: 'ok' });
    const media = r.checks.find((c) => c.id === 'media-form');
    expect(media?.said).toMatch(/maapfile:\/\/ARF\d+/);
    expect(media?.doc).toContain('AutoReplyMsgInfo.body');
    expect(r.checks.find((c) => c.id === 'messagebase-aliases')?.said).toContain('SCL00000');
    expect(r.text).toMatch(/differs +media-form[\s\S]*assumed: [\s\S]*said: +media fields come back as maapfile[\s\S]*see: +service reference/);
    expect(r.text).toContain('4 assumptions differ from what the service said.');
    // This emulator breaks the contract on purpose (fields left out).
    await contractOf(emu).clear();
  });
});

describe('rcsctl doctor: which brand', () => {
  const env = (extra: Record<string, string> = {}) => ({ RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token', ...extra });
  const header = (stdout: string): string | undefined => stdout.split('\n')[0];
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-doctor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the brand from the manifests given, or from those in the current directory', async () => {
    const given = await cli(['doctor', EXAMPLE], { emu, env: env(), cwd: dir });
    expect(given.code, given.stderr).toBe(0);
    expect(header(given.stdout)).toBe(`rcsctl doctor: ${emu.url}, brand ${BRAND}`);
    const here = await cli(['doctor', '--json'], { emu, env: env(), cwd: EXAMPLE });
    expect(here.code, here.stderr).toBe(0);
    expect(JSON.parse(here.stdout)).toMatchObject({ brandId: BRAND, ok: true });
  });

  it("an agency account takes the brand key from the manifest, as plan does", async () => {
    writeFileSync(join(dir, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\n  key: "\${env:BRAND_KEY}"\n`);
    const r = await cli(['doctor', '--json'], { emu, env: env({ RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.demo0000000001' }), cwd: dir });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).checks.find((c: Check) => c.id === 'brand')).toMatchObject({ status: 'ok' });
    expect(r.stdout + r.stderr).not.toContain('BK.demo0000000001');
  });

  it('asks for --brand when the manifests declare several, and checks the one named', async () => {
    for (const id of [BRAND, 'BR.other00001']) writeFileSync(join(dir, `${id}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\n`);
    const r = await cli(['doctor', dir], { emu, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the manifests declare 2 brands (${BRAND}, BR.other00001); doctor checks one: pick it with --brand ID`);
    expect(r.stdout).toBe('');
    const named = await cli(['doctor', dir, '--brand', BRAND], { emu, env: env() });
    expect(named.code, named.stderr).toBe(0);
    expect(header(named.stdout)).toBe(`rcsctl doctor: ${emu.url}, brand ${BRAND}`);
  });

  it('with no manifest, takes the one brand the account of RCSCTL_PERSON_ID operates; without it, says how to name one', async () => {
    const listed = await cli(['doctor'], { emu, env: env({ RCSCTL_PERSON_ID: 'master' }), cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(header(listed.stdout)).toBe(`rcsctl doctor: ${emu.url}, brand ${BRAND}`);
    const none = await cli(['doctor'], { emu, env: env(), cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('doctor needs a brand: pass --brand ID, run doctor on manifests that declare one brand');
    expect(none.stderr).toContain('or set RCSCTL_PERSON_ID');
  });

  it('marks --brand in its help as the grammar marks a conditional requirement elsewhere', async () => {
    const help = await cli(['doctor', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--brand <id> the brand to look at (required unless the manifests declare one brand, or RCSCTL_PERSON_ID names an account that operates one)');
  });

  it('says what to do about a token the service does not know (401), as plan does', async () => {
    const r = await cli(['doctor', '--brand', BRAND], { emu, env: env({ RCSCTL_TOKEN: 'not-a-real-token-42' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('said:    HTTP 401 61003 Invalid token');
    expect(r.stdout).toMatch(/\n {11}hint: {4}the service did not accept the token.*: check RCSCTL_TOKEN or the --token-file contents/);
    const json = await cli(['doctor', '--brand', BRAND, '--json'], { emu, env: env({ RCSCTL_TOKEN: 'not-a-real-token-42' }) });
    expect((JSON.parse(json.stdout) as { checks: (Check & { hint?: string })[] }).checks.find((c) => c.id === 'brand')?.hint).toContain('check RCSCTL_TOKEN');
    expect(r.stdout + r.stderr + json.stdout).not.toContain('not-a-real-token-42');
  });
});
