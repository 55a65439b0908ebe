// `rcsctl export` end to end: export a live brand from the emulator, then
// validate and plan the result: the plan must be empty (the round trip), on
// the example brand after it is applied and on a seeded brand of 200 auto-replies.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import type { SeedAutoReply } from '../../src/emulator/seed.js';
import { loadSeed } from '../../src/emulator/index.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { BRAND, cli, clientFor, converge, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator | undefined;
let client: RcsClient | undefined;
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-export-'));
});
afterEach(async () => {
  await client?.close();
  await emu?.close();
  client = undefined;
  emu = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

async function roundTrip(out: string): Promise<{ manifest: any; yaml: string }> {
  const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu });
  // Nothing on stderr but, on a long read without a terminal, its counter lines.
  expect(exp.stderr.split('\n').filter((l) => l !== '' && !/^Reading BR\.demo000001: \d+\/\d+$/.test(l))).toEqual([]);
  expect(exp.code).toBe(0);
  expect(exp.stdout).toContain('note: Agency files are not exported: the service cannot list them.');
  // Clean under --strict: an exported room declares no certificate (it exists), which is a note (RCS514) and never fails.
  const validate = await cli(['validate', out, '--strict'], { emu });
  expect(validate.stderr.match(/^\S+: (error|warning) /gm), validate.stderr).toBeNull();
  expect(validate.stderr).toContain(': note RCS514: room ');
  expect(validate.code).toBe(0);
  const plan = await cli(['plan', out, '--detailed-exitcode'], { emu });
  expect(plan.stdout).toContain('No changes. The live brand matches the manifests.');
  expect(plan.code).toBe(0);
  const yaml = readFileSync(join(out, 'brand.yaml'), 'utf8');
  return { manifest: parse(yaml), yaml };
}

describe('rcsctl export', () => {
  it('round trip on the example brand after apply: validate is clean and plan is empty', async () => {
    emu = await emulator();
    client = clientFor(emu);
    await converge(client, EXAMPLE);
    const out = join(tmp, 'coffee');
    const { manifest, yaml } = await roundTrip(out);

    expect(yaml.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*schemas\/manifest\.schema\.json$/);
    expect(Object.keys(manifest.autoReplies).sort()).toEqual(['events', 'location', 'loyalty-card', 'opening-hours', 'todays-menu', 'welcome']);
    expect(manifest.autoReplies.welcome.chipList[0]).toEqual({ reply: { autoReply: 'opening-hours', displayText: 'Opening hours' } });
    expect(manifest.autoReplies['opening-hours'].body.media).toEqual({ file: 'hero' });
    // Server-filled postback data is dropped; copyAllowed (true) is left out.
    expect(yaml).not.toContain('postback');
    expect(yaml).not.toContain('copyAllowed');
    expect(manifest.files).toEqual({ beans: { path: 'images/beans.png' }, hero: { path: 'images/hero.png' } });
    expect(manifest.logos).toEqual({ 'coffee-co-logo': { name: 'Coffee Co logo', description: 'Cream bean on espresso, the shop sign', path: 'images/logos/logo.png' } });
    expect(manifest.chatbots['0212345678'].persistentMenu[0]).toEqual({ type: 'reply', title: 'Opening hours', autoReply: 'opening-hours' });
    expect(manifest.prune).toBeUndefined();
    for (const [exported, original] of [
      ['images/hero.png', 'images/hero.png'],
      ['images/beans.png', 'images/beans.png'],
      ['images/logos/logo.png', 'images/logo.png'],
    ] as const) {
      expect(readFileSync(join(out, exported)).equals(readFileSync(join(EXAMPLE, original))), exported).toBe(true);
    }
    // Drift on the adopted manifest is clean too (infos only).
    const drift = await cli(['drift', out], { emu });
    expect(drift.code).toBe(0);
  });

  it('round trip on a brand seeded with 200 auto-replies, reply links, copyAllowed false and shared images; handles are stable', async () => {
    const seed = bigSeed();
    emu = await emulator(seed);
    const out = join(tmp, 'big');
    const { manifest, yaml } = await roundTrip(out);
    const handles = Object.keys(manifest.autoReplies);
    expect(handles).toHaveLength(200);
    expect(new Set(handles).size).toBe(200);
    for (const h of handles) expect(h).toMatch(/^[A-Za-z][A-Za-z0-9_-]*$/);
    // Names that slug alike get numbered; Korean names are romanised (they were reply-<id>); a name with no usable letters falls back to the id.
    expect(handles).toContain('promo-1');
    expect(handles).toContain('promo-1-2');
    expect(handles).toContain('annae');
    expect(handles).toContain('yeongeopsigan');
    expect(handles.filter((h) => h.startsWith('reply-'))).toHaveLength(1);
    expect(Object.values(manifest.autoReplies).filter((a: any) => a.id !== undefined)).toHaveLength(0);
    expect(Object.values(manifest.autoReplies).filter((a: any) => a.copyAllowed === false).length).toBe(seed.brands[0]!.autoReplies!.filter((a) => a.copyAllowed === false).length);
    expect(Object.values(manifest.autoReplies).filter((a: any) => a.copyAllowed === false).length).toBeGreaterThan(10);

    // A second export of the same live brand is byte-for-byte the same.
    const again = join(tmp, 'again');
    expect((await cli(['export', '--brand', BRAND, '--out', again], { emu })).code).toBe(0);
    expect(readFileSync(join(again, 'brand.yaml'), 'utf8').split('\n').slice(1)).toEqual(yaml.split('\n').slice(1));
  }, 30_000);

  it('two live auto-replies with one name: both pinned by id, and the output says to rename one', async () => {
    emu = await emulator();
    client = clientFor(emu);
    const a = await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Twice', messagebaseId: 'SCS00000', body: { description: 'one' } });
    const b = await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Twice', messagebaseId: 'SCS00000', body: { description: 'two' } });
    const out = join(tmp, 'twice');
    const r = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auto-reply name "Twice" is used more than once live');
    const manifest = parse(readFileSync(join(out, 'brand.yaml'), 'utf8'));
    expect([manifest.autoReplies.twice.id, manifest.autoReplies['twice-2'].id].sort()).toEqual([a.autoReplyMsgId, b.autoReplyMsgId].sort());
    // The manifest format wants unique names, so validate says which one to rename.
    const v = await cli(['validate', out], { emu });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('RCS503');
  });

  it('refuses to overwrite brand.yaml without --force', async () => {
    emu = await emulator();
    const out = join(tmp, 'x');
    expect((await cli(['export', '--brand', BRAND, '--out', out], { emu })).code).toBe(0);
    const second = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('exists; choose another --out directory or pass --force');
    expect((await cli(['export', '--brand', BRAND, '--out', out, '--force'], { emu })).code).toBe(0);
  });

  it('--brand-key-env reads the key from the environment and writes ${env:NAME}, never the key', async () => {
    emu = await emulator();
    const out = join(tmp, 'agency');
    const r = await cli(['export', '--brand', BRAND, '--out', out, '--brand-key-env', 'COFFEE_KEY'], {
      emu,
      env: { RCSCTL_TOKEN: 'emulator-agency-token', COFFEE_KEY: 'BK.demo0000000001' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const yaml = readFileSync(join(out, 'brand.yaml'), 'utf8');
    expect(parse(yaml).brand).toEqual({ id: BRAND, key: '${env:COFFEE_KEY}' });
    expect(yaml + r.stdout).not.toContain('BK.demo0000000001');
    expect(yaml + r.stdout).not.toContain('emulator-agency-token');
    const missing = await cli(['export', '--brand', BRAND, '--out', join(tmp, 'no'), '--brand-key-env', 'NOPE'], { emu });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--brand-key-env NOPE: the variable is not set');
  });

  it('--sandbox works without credentials', async () => {
    const out = join(tmp, 'sandbox');
    const r = await cli(['--sandbox', 'export', '--brand', BRAND, '--out', out], { env: {} });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'brand.yaml'))).toBe(true);
    expect(Object.keys(parse(readFileSync(join(out, 'brand.yaml'), 'utf8')).chatbots)).toEqual(['0212345678', '0298765432']);
  });

  it('rejects a malformed brand id before connecting', async () => {
    const r = await cli(['export', '--brand', 'coffee'], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--brand must be a brand id like BR.1234567890');
  });
});

/** The example seed plus 200 auto-replies of every shape export has to handle. */
function bigSeed(): Seed {
  const seed = loadSeed(defaultSeedPath());
  const hero = readFileSync(join(EXAMPLE, 'images', 'hero.png'));
  const sha12 = createHash('sha256').update(hero).digest('hex').slice(0, 12);
  const brand = seed.brands[0]!;
  brand.files = [{ fileId: 'ARFHERO0001', fileName: `hero-${sha12}.png`, content: hero.toString('base64') }];
  // Names that slug alike, Korean names, and a name with no letters a handle can take.
  const names = (i: number): string => (i < 11 ? ['Promo #1', 'promo 1', '안내', '영업시간', 'Hours', 'hours!', 'Ünïcödé', '2024 sale', 'Menu', 'menu', '漢字'][i]! : `Message ${i}`);
  brand.autoReplies = Array.from({ length: 200 }, (_, i): SeedAutoReply => {
    const id = `ARM${String(i).padStart(7, '0')}`;
    const next = `ARM${String((i + 1) % 200).padStart(7, '0')}`;
    if (i % 3 === 0) {
      return {
        autoReplyMsgId: id,
        autoReplyMsgName: names(i),
        messagebaseId: 'SCwThM00',
        body: { title: `Card ${i}`, description: `Card number ${i}`, media: 'ARFHERO0001' },
        buttons: [{ suggestions: [{ action: { displayText: 'Open', urlAction: { openUrl: { url: `https://example.com/${i}` } } } }] }],
        chipList: [{ reply: { autoReplyMsgId: next, displayText: 'Next' } }],
      };
    }
    return {
      autoReplyMsgId: id,
      autoReplyMsgName: names(i),
      messagebaseId: i % 5 === 0 ? 'SCL00000' : 'SCS00000',
      ...(i % 10 === 1 ? { copyAllowed: false } : {}),
      // Flow-map hazards: commas, colons, braces, comment marks and quotes.
      body: { description: i % 7 === 0 ? `a, b: {c} [d] #e 'f' "g" ${i}` : `Reply number ${i}` },
      chipList: [
        { reply: { autoReplyMsgId: next, displayText: 'Next' } },
        { action: { displayText: 'Call', dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } },
      ],
    };
  });
  return seed;
}
