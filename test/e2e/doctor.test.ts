// rcsctl doctor end to end: against the emulator it passes; against an emulator
// set to behave otherwise (media as maapfile://, no postback fill, aliases not
// mapped, unset fields left out) it names each difference and exits 1. It only
// ever reads (and asks for a token).

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
