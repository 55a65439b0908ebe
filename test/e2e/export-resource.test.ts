// `rcsctl export --resource ADDRESS --into FILE` end to end: one live resource,
// made outside rcsctl, is adopted into an existing manifest over real HTTP;
// the rest of the file keeps its comments and order, the images land beside
// it, and `plan` right after shows no change for it. Refusals leave the file
// as it was.

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, clientFor, converge, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
let tmp: string;
let dir: string;
let file: string;

beforeEach(async () => {
  emu = await emulator();
  client = clientFor(emu);
  await converge(client, EXAMPLE);
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-adopt-'));
  dir = join(tmp, 'coffee');
  cpSync(EXAMPLE, dir, { recursive: true });
  file = join(dir, 'brand.yaml');
});
afterEach(async () => {
  await client.close();
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** True when every line of `before` appears in `after`, in the same order. */
function keepsLines(before: string, after: string): boolean {
  const rest = after.split('\n');
  let i = 0;
  for (const line of before.split('\n')) {
    while (i < rest.length && rest[i] !== line) i++;
    if (i === rest.length) return false;
    i++;
  }
  return true;
}

async function idOf(name: string): Promise<string> {
  for await (const a of client.autoReplies.list({ id: BRAND })) if (a.autoReplyMsgName === name) return a.autoReplyMsgId;
  throw new Error(`no auto-reply ${name}`);
}

async function planJson(...paths: string[]): Promise<{ code: number; steps: { address: string }[]; unmanaged: { kind: string; id: string }[]; stderr: string }> {
  const r = await cli(['plan', ...paths, '--json', '--detailed-exitcode'], { emu });
  const out = JSON.parse(r.stdout) as { brands: { steps: { address: string }[]; unmanaged: { kind: string; id: string }[] }[] };
  return { code: r.code, steps: out.brands[0]!.steps, unmanaged: out.brands[0]!.unmanaged, stderr: r.stderr };
}

describe('rcsctl export --resource --into', () => {
  it('adopts an auto-reply made in the console with its new image; links to declared resources use their handles; plan is then empty', async () => {
    const bytes = readFileSync(join(EXAMPLE, 'images', 'spring.png'));
    const sha12 = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const upload = await client.autoReplies.uploadFile({ id: BRAND }, { fileName: `autumn-${sha12}.png`, bytes, contentType: 'image/png' });
    const hoursId = await idOf('Opening hours');
    await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Outside only', messagebaseId: 'SCS00000', body: { description: 'Not in any manifest' } });
    const outsideId = await idOf('Outside only');
    const heroId = (await client.autoReplies.get({ id: BRAND }, hoursId)).body?.media as string;
    await client.autoReplies.create({ id: BRAND }, {
      autoReplyMsgName: 'Autumn blend',
      messagebaseId: 'CCwMhM0200',
      body: { title1: 'Autumn blend', description1: 'Spiced and dark.', media1: upload.fileId, title2: 'Also', description2: 'Hero again.', media2: heroId },
      // Every suggestion carries a postback, as the service's contract asks (the console sends empty data).
      buttons: [{ suggestions: [{ action: { displayText: 'Order', urlAction: { openUrl: { url: 'https://example.com/autumn' } }, postback: { data: '' } } }] }, {}],
      chipList: [
        { reply: { autoReplyMsgId: hoursId, displayText: 'Opening hours', postback: { data: '' } } },
        { reply: { autoReplyMsgId: outsideId, displayText: 'Elsewhere', postback: { data: '' } } },
      ],
    });
    // The example prunes auto-replies: before adopting, plan would delete both.
    expect((await planJson(dir)).steps.map((s) => s.address).sort()).toEqual([`autoReply.${(await idOf('Autumn blend'))}`, `autoReply.${outsideId}`].sort());
    const before = readFileSync(file, 'utf8');

    const r = await cli(['export', '--resource', 'autoReply.Autumn blend', '--into', file], { emu });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Adopted autoReply.Autumn blend into ${file} as autoReply.autumn-blend\n`);
    expect(r.stdout).toContain('  with file.autumn (images/autumn.png), which it uses\n');
    expect(r.stdout).toContain(`  note: it links to auto-reply ${outsideId} "Outside only", which the manifests do not declare: the link keeps its id`);

    const after = readFileSync(file, 'utf8');
    expect(keepsLines(before, after), after).toBe(true);
    const m = parse(after);
    expect(m.files.autumn).toEqual({ path: 'images/autumn.png' });
    expect(readFileSync(join(dir, 'images', 'autumn.png')).equals(bytes)).toBe(true);
    expect(m.autoReplies['autumn-blend']).toEqual({
      name: 'Autumn blend',
      messagebaseId: 'CCwMhM0200',
      body: { title1: 'Autumn blend', description1: 'Spiced and dark.', media1: { file: 'autumn' }, title2: 'Also', description2: 'Hero again.', media2: { file: 'hero' } },
      buttons: [{ suggestions: [{ action: { displayText: 'Order', urlAction: { openUrl: { url: 'https://example.com/autumn' } } } }] }, {}],
      // A declared auto-reply by its handle; one the manifests do not declare by its id.
      chipList: [{ reply: { autoReply: 'hours', displayText: 'Opening hours' } }, { reply: { autoReplyMsgId: outsideId, displayText: 'Elsewhere' } }],
    });
    // Appended to the sections, which keep their places.
    expect(Object.keys(m.autoReplies).at(-1)).toBe('autumn-blend');
    expect(Object.keys(m)).toEqual(Object.keys(parse(before)));
    expect(after).toContain('  # adopted from BR.demo000001 by rcsctl export --resource\n  autumn-blend:\n');

    expect((await cli(['validate', dir], { emu })).code).toBe(0);
    // The round trip: only the auto-reply nobody adopted is still planned for deletion.
    const plan = await planJson(dir);
    expect(plan.steps.map((s) => s.address)).toEqual([`autoReply.${outsideId}`]);
    expect(plan.stderr).toContain(`warning RCS506: reply links to auto-reply ${outsideId}, which these manifests do not manage`);

    // Adopting it again is refused, and the file is left alone.
    const again = await cli(['export', '--resource', 'autoReply.Autumn blend', '--into', file], { emu });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/auto-reply ARM\d+ "Autumn blend" is already declared as autoReply\.autumn-blend in .*brand\.yaml:\d+; nothing was changed/);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('adopts a room with its menu into a manifest without a chatbots section: placed in section order, menu items by handle, plan empty', async () => {
    const full = readFileSync(join(EXAMPLE, 'brand.yaml'), 'utf8');
    // The same manifest without its rooms.
    const withoutRooms = full.slice(0, full.indexOf('chatbots:\n')) + full.slice(full.indexOf('agencyFiles:\n'));
    writeFileSync(file, withoutRooms);
    expect((await planJson(dir)).unmanaged.map((u) => `${u.kind}.${u.id}`)).toEqual(['chatbot.0212345678', 'chatbot.0298765432']);

    const r = await cli(['export', '--resource', 'chatbot.0212345678', '--into', 'coffee/brand.yaml'], { emu, cwd: tmp });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Adopted chatbot\.0212345678 into coffee\/brand\.yaml as chatbot\.0212345678\n/);
    const after = readFileSync(file, 'utf8');
    expect(keepsLines(withoutRooms, after)).toBe(true);
    const m = parse(after);
    expect(Object.keys(m)).toEqual(['apiVersion', 'kind', 'brand', 'prune', 'files', 'autoReplies', 'logos', 'chatbots', 'agencyFiles']);
    expect(after).toContain('chatbots:\n  # adopted from BR.demo000001 by rcsctl export --resource\n  "0212345678":\n');
    expect(m.chatbots['0212345678'].persistentMenu.slice(0, 3)).toEqual([
      { type: 'reply', title: 'Opening hours', autoReply: 'hours' },
      { type: 'reply', title: "Today's menu", autoReply: 'menu' },
      { type: 'reply', title: 'Find us', autoReply: 'location' },
    ]);
    const plan = await planJson(dir);
    expect(plan.steps).toEqual([]);
    expect(plan.code).toBe(0);
    expect(plan.unmanaged.map((u) => `${u.kind}.${u.id}`)).toEqual(['chatbot.0298765432']);
  });

  it('adopts a logo by name, with its image under images/logos/', async () => {
    const png = readFileSync(join(EXAMPLE, 'images', 'logo.png'));
    const sha12 = createHash('sha256').update(png).digest('hex').slice(0, 12);
    const made = await client.logos.create({ id: BRAND }, { name: 'Winter logo', description: 'Snow on the sign', file: { fileName: `logo-${sha12}.png`, bytes: png, contentType: 'image/png' } });
    const r = await cli(['export', '--resource', 'logo.Winter logo', '--into', file], { emu });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`as logo.winter-logo\n`);
    const m = parse(readFileSync(file, 'utf8'));
    expect(m.logos['winter-logo']).toEqual({ name: 'Winter logo', description: 'Snow on the sign', path: 'images/logos/logo.png' });
    expect(readFileSync(join(dir, 'images', 'logos', 'logo.png')).equals(png)).toBe(true);
    const plan = await planJson(dir);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged.map((u) => u.id)).not.toContain(made.fileId);
  });

  it('refuses, changing nothing: a taken handle, an unknown address, a kind not adopted on its own, a missing --into', async () => {
    await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Hours again', messagebaseId: 'SCS00000', body: { description: 'x' } });
    const before = readFileSync(file, 'utf8');
    const cases: [string[], RegExp][] = [
      [['--resource', 'autoReply.Hours again', '--handle', 'hours'], /the handle hours is already declared in .*brand\.yaml:\d+ for another auto-reply; choose one with --handle NAME/],
      [['--resource', 'autoReply.Hours again', '--handle', '9lives'], /--handle must start with a letter/],
      [['--resource', 'autoReply.Nothing like it'], /autoReply\.Nothing like it: brand BR\.demo000001 has no live auto-reply with that id or name/],
      [['--resource', 'file.hero'], /auto-reply files are not adopted on their own \(adoptable: [^)]*\bautoReply\b[^)]*\); it comes along with what uses it/],
      [['--resource', 'menu'], /--resource must be an address like/],
      [['--resource', 'chatbot.0212345678'], /room 0212345678 "Coffee Co" is already declared as chatbot\.0212345678 in .*brand\.yaml:\d+/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['export', ...args, '--into', file], { emu });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(readFileSync(file, 'utf8')).toBe(before);
    }
    const missing = await cli(['export', '--resource', 'autoReply.Hours again', '--into', join(dir, 'nope.yaml')], { emu });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such manifest file');
    const half = await cli(['export', '--resource', 'autoReply.Hours again'], { emu });
    expect(half.code).toBe(1);
    expect(half.stderr).toContain('--resource and --into go together');
    expect(existsSync(join(dir, 'images', 'hours-again.png'))).toBe(false);
  });
});
