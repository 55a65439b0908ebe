// `rcsctl export --base PATH` (issue 37): live brands written against a base
// they should use. Against the emulator over HTTP: the example agency is
// applied, its brand files are thrown away, and export writes them again from
// the live brands: the base's resources left out where live matches, the
// variables read off the live values, what differs as overrides, a resource
// the base sets that a brand lacks removed with `null`, a live entry with a
// field the base does not set replaced. Every written file validates and plans
// with no changes.

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { loadSeed } from '../../src/emulator/index.js';
import { cli, clientFor, converge, emulator, ROOT } from './helpers.js';

const PROFILE_PNG = readFileSync(join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images', 'profile.png'));
const BEANS = ['BR.beanbusan1', 'BR.beandaegu1', 'BR.beanichn01', 'BR.beanseoul1'];

function seed(): Seed {
  const s = loadSeed(join(ROOT, 'examples', 'emulator-seed.yaml'));
  const master = s.accounts.find((a) => a.userId === 'master');
  if (master === undefined) throw new Error('the example seed has no master account');
  // Pages with a profile image rcsctl uploaded, as a live brand has (export --all reads them as the account).
  const png = PROFILE_PNG;
  const profileImage = { fileName: `profile-${createHash('sha256').update(png).digest('hex').slice(0, 12)}.png`, content: png.toString('base64') };
  BEANS.forEach((brandId, i) => {
    s.brands.push({ brandId, brandKey: `BK.bean00000000${i + 1}`, page: { name: `Bean Street ${i + 1}`, profileImage } } as Seed['brands'][number]);
    (master.brands ??= []).push({ brandId, role: 'representative' });
  });
  return s;
}

async function listed(c: RcsClient, id: string): Promise<{ autoReplyMsgId: string; autoReplyMsgName: string }[]> {
  const out = [];
  for await (const a of c.autoReplies.list({ id })) out.push(a);
  return out;
}

let emu: RunningEmulator;
let client: RcsClient;
let repo: string;

beforeAll(async () => {
  emu = await emulator(seed());
  client = clientFor(emu);
  // A repository holding the example agency; applied, then its brands are what export must write again.
  repo = join(mkdtempSync(join(tmpdir(), 'rcsctl-export-base-')), 'agency');
  cpSync(join(ROOT, 'examples', 'agency'), repo, { recursive: true });
  mkdirSync(join(repo, '.git'));
  await converge(client, repo);
  // A second base that sets the brand page (a section that is one object per brand), with the profile image live already has.
  mkdirSync(join(repo, 'bases', 'paged', 'images'), { recursive: true });
  writeFileSync(join(repo, 'bases', 'paged', 'images', 'profile.png'), PROFILE_PNG);
  writeFileSync(
    join(repo, 'bases', 'paged', 'base.yaml'),
    ['apiVersion: rcsctl/v1', 'kind: Base', 'variables:', '  store: { type: string }', 'brandProfile:', '  account: master', '  name: "Bean Street ${var:store}"', '  description: A Bean Street store', '  tel: "15880000"', '  categoryId: ETC', '  subCategoryId: ETC001', '  profileImage: images/profile.png', ''].join('\n'),
  );
  // Busan lost the legal notice the base sets; Daegu's opening hours got a field the base does not set.
  const busan = (await listed(client, 'BR.beanbusan1')).find((a) => a.autoReplyMsgName === 'Legal notice');
  await client.autoReplies.delete({ id: 'BR.beanbusan1' }, busan!.autoReplyMsgId);
  const daegu = (await listed(client, 'BR.beandaegu1')).find((a) => a.autoReplyMsgName === 'Opening hours');
  const detail = await client.autoReplies.get({ id: 'BR.beandaegu1' }, daegu!.autoReplyMsgId);
  await client.autoReplies.update({ id: 'BR.beandaegu1' }, daegu!.autoReplyMsgId, {
    autoReplyMsgName: detail.autoReplyMsgName,
    messagebaseId: detail.messagebaseId,
    body: detail.body,
    ...(detail.buttons !== undefined ? { buttons: detail.buttons } : {}),
    copyAllowed: false,
  });
}, 60_000);
afterAll(async () => {
  await client.close();
  await emu.close();
  rmSync(join(repo, '..'), { recursive: true, force: true });
});

describe('rcsctl export --base', () => {
  it('writes each brand as the base, its variables, overrides and its own resources; validate passes and plan shows no changes', async () => {
    const out = join(repo, 'adopted');
    const r = await cli(['export', ...BEANS.flatMap((b) => ['--brand', b]), '--base', 'bases/franchise', '--out', 'adopted'], { emu, cwd: repo });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const seoul = parse(readFileSync(join(out, 'BR.beanseoul1', 'brand.yaml'), 'utf8'));
    // The variables are read off the live brand. Seats is not: the only text using it is overridden, so its default serves.
    expect(seoul.bases).toEqual([{ base: '../../bases/franchise', variables: { city: 'Seoul', phone: '0212340001' } }]);
    expect(seoul.overrides).toEqual({ autoReplies: { hours: { body: { description: 'Mon-Sun 7:00-23:00: the flagship opens late.' } } } });
    expect(Object.keys(seoul.autoReplies)).toEqual(['rooftop']);
    expect(seoul.files).toBeUndefined();
    expect(existsSync(join(out, 'BR.beanseoul1', 'images'))).toBe(false);
    expect(r.stdout).toContain('variable city = "Seoul" (read off the live brand)');

    // A generated brand at the base's default: the variables it needs, nothing else.
    const incheon = parse(readFileSync(join(out, 'BR.beanichn01', 'brand.yaml'), 'utf8'));
    expect(incheon).toEqual({ apiVersion: 'rcsctl/v1', kind: 'Brand', brand: { id: 'BR.beanichn01' }, bases: [{ base: '../../bases/franchise', variables: { city: 'Incheon', phone: '0322340004', seats: 18 } }] });

    // What the base sets and the live brand lacks is removed.
    const busan = parse(readFileSync(join(out, 'BR.beanbusan1', 'brand.yaml'), 'utf8'));
    expect(busan.overrides.autoReplies.legal).toBeNull();
    expect(r.stdout).toContain('against the base ../../bases/franchise: 2 of its 4 resources as it gives them, 1 overridden, 1 removed (the brand lacks them live), 0 replaced\n');
    // Its welcome's chip still names the deleted auto-reply live: an override of that list says so (by id, as export writes a link it cannot name).
    expect(busan.overrides.autoReplies.welcome).toEqual({ chipList: [{ reply: { autoReply: 'hours', displayText: 'Opening hours' } }, { reply: { autoReplyMsgId: expect.stringMatching(/^ARM/), displayText: 'Legal' } }] });
    // A live entry with a field the base does not set: replaced whole, under the base's key (links to it still resolve).
    const daegu = parse(readFileSync(join(out, 'BR.beandaegu1', 'brand.yaml'), 'utf8'));
    expect(daegu.overrides).toEqual({ autoReplies: { hours: null } });
    expect(daegu.autoReplies.hours.copyAllowed).toBe(false);
    expect(daegu.autoReplies.hours.body.media).toEqual({ file: 'storefront' });
    expect(r.stdout).toContain('1 replaced (autoReplies.hours: the live entry has fields the base does not set)');

    const validate = await cli(['validate', 'adopted'], { emu, cwd: repo });
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await cli(['plan', 'adopted', '--detailed-exitcode'], { emu, cwd: repo });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout.match(/No changes\./g)).toHaveLength(4);
    // Nothing is left of the candidates export loaded on the way.
    expect(readdirSync(out).sort()).toEqual(BEANS);
  }, 60_000);

  it('--all adopts the franchise in one command; a brand the base does not fit is named, with what to give, and the others are written', async () => {
    const r = await cli(['export', '--all', '--base', 'bases/franchise', '--out', 'all'], { emu, cwd: repo, env: { RCSCTL_PERSON_ID: 'master' } });
    expect(r.code).toBe(1);
    // The example coffee brand shows no city anywhere.
    expect(r.stderr).toBe('Error: BR.demo000001: variable city of the base: no live value shows it; give it with --var city=VALUE\n');
    expect(r.stdout).toContain('Exported 4 of 5 brands into all, one folder each; 1 failed: BR.demo000001\n');
    expect(readdirSync(join(repo, 'all')).sort()).toEqual(BEANS);
    const plan = await cli(['plan', 'all', '--detailed-exitcode', '--unmanaged-brand', 'BR.demo000001'], { emu, cwd: repo, env: { RCSCTL_PERSON_ID: 'master' } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout.match(/No changes\./g), plan.stdout + plan.stderr).toHaveLength(4);
  }, 60_000);

  it('--var gives a value for every brand, over what live shows; mistakes are refused, writing nothing', async () => {
    const r = await cli(['export', '--brand', 'BR.beanichn01', '--base', 'bases/franchise', '--var', 'seats=99', '--out', 'vars/incheon'], { emu, cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('variable seats = 99 (given)');
    const incheon = parse(readFileSync(join(repo, 'vars', 'incheon', 'brand.yaml'), 'utf8'));
    expect(incheon.bases[0].variables).toEqual({ city: 'Incheon', phone: '0322340004', seats: 99 });
    // Live says 18 seats: the override keeps the text live has.
    expect(incheon.overrides).toEqual({ autoReplies: { hours: { body: { description: 'Mon-Sun 8:00-20:00, 18 seats.' } } } });
    const plan = await cli(['plan', 'vars/incheon', '--detailed-exitcode'], { emu, cwd: repo });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);

    const unknown = await cli(['export', '--brand', 'BR.beanichn01', '--base', 'bases/franchise', '--var', 'town=X', '--out', 'vars/x'], { emu, cwd: repo });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--var town: the base declares no such variable (it declares city, phone, seats)');
    const typed = await cli(['export', '--brand', 'BR.beanichn01', '--base', 'bases/franchise', '--var', 'seats=many', '--out', 'vars/x'], { emu, cwd: repo });
    expect(typed.stderr).toContain('--var seats=many: the variable is a number');
    const alone = await cli(['export', '--brand', 'BR.beanichn01', '--var', 'seats=1'], { emu, cwd: repo });
    expect(alone.stderr).toContain('--var gives a value to a variable of --base; name the base with --base PATH');
    const missing = await cli(['export', '--brand', 'BR.beanichn01', '--base', 'bases/nope', '--out', 'vars/x'], { emu, cwd: repo });
    expect(missing.stderr).toContain('--base bases/nope: no such file or directory');
    const notBase = await cli(['export', '--brand', 'BR.beanichn01', '--base', 'brands/seoul', '--out', 'vars/x'], { emu, cwd: repo });
    expect(notBase.stderr).toContain('--base brands/seoul holds no `kind: Base` document');
    expect(existsSync(join(repo, 'vars', 'x'))).toBe(false);
  }, 60_000);

  it('a base that sets the brand page: the page compared as one object, its variable read off the live name, what differs an override; without the account, kept unchecked and said so', async () => {
    const env = { RCSCTL_PERSON_ID: 'master' };
    const r = await cli(['export', '--brand', 'BR.beanbusan1', '--base', 'bases/paged', '--out', 'paged/busan'], { emu, cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    const busan = parse(readFileSync(join(repo, 'paged', 'busan', 'brand.yaml'), 'utf8'));
    expect(busan.bases).toEqual([{ base: '../../bases/paged', variables: { store: '1' } }]);
    // The emulator's page description defaults to the brand id; the image is the base's (same content), so it is neither written nor downloaded.
    expect(busan.overrides).toEqual({ brandProfile: { description: 'BR.beanbusan1' } });
    expect(busan.brandProfile).toBeUndefined();
    expect(existsSync(join(repo, 'paged', 'busan', 'images', 'profile'))).toBe(false);
    expect(r.stdout).toContain('against the base ../../bases/paged: 0 of its 1 resources as it gives them, 1 overridden, 0 removed (the brand lacks them live), 0 replaced\n');
    // The base names the page's account; without RCSCTL_PERSON_ID the account's other brands are not listed as unmanaged.
    const plan = await cli(['plan', 'paged/busan', '--detailed-exitcode'], { emu, cwd: repo });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);

    const blind = await cli(['export', '--brand', 'BR.beanbusan1', '--base', 'bases/paged', '--var', 'store=1', '--out', 'paged/blind'], { emu, cwd: repo, env: { RCSCTL_PERSON_ID: undefined } });
    expect(blind.code, blind.stderr).toBe(0);
    expect(blind.stdout).toContain("the base's brandProfile is kept as the base gives it, unchecked: export did not read it live");
    expect(parse(readFileSync(join(repo, 'paged', 'blind', 'brand.yaml'), 'utf8')).overrides).toBeUndefined();
  }, 60_000);
});
