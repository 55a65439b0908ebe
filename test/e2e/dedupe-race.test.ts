// Two or three applies from different machines (one lock directory each) racing
// on brands whose auto-replies link to each other in cycles, share an image,
// and are the target of a room's persistent menu: whatever they leave, the
// documented repair (`apply --dedupe --allow-delete`) must clear, so that the
// next plan is empty and no managed name is held twice. Several seeds vary who
// starts first; every trial must converge.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/emulator/faults.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { loadSeed, type Seed, type SeedChatbot } from '../../src/emulator/seed.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { withContract } from '../contract-recorder.js';
import { admin, cli, EXAMPLE, TOKEN, type CliRun } from './helpers.js';

const BRANDS = Array.from({ length: 4 }, (_, i) => `BR.race0000${String(i + 1).padStart(2, '0')}`);
const room = (i: number): string => `02000000${String(i + 1).padStart(2, '0')}`;
const ROOM_FIELDS = { subTitle: 'Race room', display: '11', inputField: 1, rcsReply: '1', subDescr: 'Racing', saftyStatusYn: 'Y' };

let emu: RunningEmulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-dedupe-race-'));
  const base = withDeclaredBrands(loadSeed(join(EXAMPLE, '..', 'emulator-seed.yaml')), BRANDS.map((brandId) => ({ brandId })), TOKEN).seed;
  // Each race brand gets one approved room, so its manifest can hold a menu that links to the ring.
  const roomOf = (i: number): SeedChatbot => ({ chatbotId: room(i), service: 'a2p', approvalResult: '승인', ...ROOM_FIELDS });
  const seed: Seed = { ...base, brands: base.brands.map((b) => (BRANDS.includes(b.brandId) ? { ...b, chatbots: [roomOf(BRANDS.indexOf(b.brandId))] } : b)) };
  const { opts, adopt } = withContract({ port: 0, seed, latencyMs: 5 });
  emu = adopt(await startEmulator(opts));
  copyFileSync(join(EXAMPLE, 'images', 'hero.png'), join(dir, 'hero.png'));
  BRANDS.forEach((brandId, i) => writeFileSync(join(dir, `${brandId}.yaml`), manifest(brandId, i)));
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A ring of three (A → B → C → A) and a pair (X ⇄ Y); A, C, X and Y show one
 * image (uploaded once per run, so copies may name different uploads of it);
 * the room's menu opens A and X.
 */
function manifest(brandId: string, i: number): string {
  const reply = (handle: string, name: string, to: string, media: boolean): string =>
    `  ${handle}:\n    name: "${name}"\n    messagebaseId: ${media ? 'SCwThM00' : 'SCS00000'}\n    body:\n${media ? `      title: ${name}\n` : ''}      description: "${name} of ${brandId}"\n${media ? '      media: { file: pic }\n' : ''}    chipList:\n      - reply: { autoReply: ${to}, displayText: Next }\n`;
  const menu = ['      - { type: reply, title: Ring, autoReply: a }', '      - { type: reply, title: Pair, autoReply: x }'].join('\n');
  return [
    'apiVersion: rcsctl/v1',
    'kind: Brand',
    'brand:',
    `  id: ${brandId}`,
    'files:',
    '  pic: { path: hero.png }',
    'autoReplies:',
    reply('a', 'Ring A', 'b', true) + reply('b', 'Ring B', 'c', false) + reply('c', 'Ring C', 'a', true) + reply('x', 'Pair X', 'y', true) + reply('y', 'Pair Y', 'x', true),
    'chatbots:',
    `  "${room(i)}":`,
    ...Object.entries(ROOM_FIELDS).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`),
    '    persistentMenu:',
    menu,
    '',
  ].join('\n');
}

const apply = (locks: string, extra: string[] = []): Promise<CliRun> => cli(['apply', dir, '--yes', ...extra], { emu, env: { RCSCTL_LOCK_DIR: join(dir, locks) } });

/** Names held more than once, per brand. */
function duplicateNames(): string[] {
  return BRANDS.flatMap((brandId) => {
    const names = [...(emu.store.brands.get(brandId)?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName);
    return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].map((n) => `${brandId} "${n}"`);
  });
}

/** Every reply link and menu item that names an auto-reply the brand no longer has. */
function danglingLinks(): string[] {
  return BRANDS.flatMap((brandId) => {
    const b = emu.store.brands.get(brandId);
    if (b === undefined) return [`${brandId}: no such brand`];
    const out: string[] = [];
    for (const a of b.autoReplies.values()) {
      for (const s of [...(a.chipList ?? []), ...(a.buttons ?? []).flatMap((g) => g.suggestions ?? [])]) {
        const to = s.reply?.autoReplyMsgId;
        if (to !== undefined && !b.autoReplies.has(to)) out.push(`${brandId} ${a.autoReplyMsgName} → ${to}`);
      }
    }
    for (const c of b.chatbots.values()) for (const item of c.menu ?? []) if (item.autoReplyMsgId !== undefined && !b.autoReplies.has(item.autoReplyMsgId)) out.push(`${brandId} menu ${item.title} → ${item.autoReplyMsgId}`);
    return out;
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('apply --dedupe re-points a room menu and keeps the copy its image is shown by', () => {
  it('keeps the copy closest to the manifest, moves the menu item from the other to it, and deletes the other', async () => {
    await admin(emu, 'POST', 'reset');
    expect((await apply('locks-menu')).code).toBe(0);
    const brandId = BRANDS[0] as string;
    const b = emu.store.brands.get(brandId);
    const named = (name: string) => [...(b?.autoReplies.values() ?? [])].find((a) => a.autoReplyMsgName === name);
    const ringA = named('Ring A');
    const pairX = named('Pair X');
    const menu = b?.chatbots.get(room(0))?.menu;
    if (b === undefined || ringA === undefined || pairX === undefined || menu == null) throw new Error('the clean apply left no ring, pair or menu');
    // An older copy of Ring A that lost its chip, which the menu now opens; a newer copy of Pair X showing the same uploaded image.
    const lost = { ...structuredClone(ringA), autoReplyMsgId: 'ARM900000000001', registerDate: '2000-01-01T00:00:00.000+09' };
    delete lost.chipList;
    delete lost.filledChipList;
    b.autoReplies.set(lost.autoReplyMsgId, lost);
    b.autoReplies.set('ARM900000000002', { ...structuredClone(pairX), autoReplyMsgId: 'ARM900000000002', registerDate: '2099-01-01T00:00:00.000+09' });
    const item = menu.find((i) => i.autoReplyMsgId === ringA.autoReplyMsgId);
    if (item === undefined) throw new Error('the menu does not open Ring A');
    item.autoReplyMsgId = 'ARM900000000001';

    const r = await apply('locks-menu', ['--dedupe', '--allow-delete']);
    expect(r.stdout).toContain(`= autoReply "Ring A" ${ringA.autoReplyMsgId}: kept: closest to the manifest (0 differences; ARM900000000001: 2)`);
    expect(r.stdout).toContain(`~ persistentMenu "Race room menu" ${room(0)}: re-point ARM900000000001 → ${ringA.autoReplyMsgId}`);
    expect(r.stdout).toContain(`= autoReply "Pair X" ${pairX.autoReplyMsgId}: kept: other resources link to it (2; ARM900000000002: 0)`);
    expect(r.stdout).toContain(`✓ ${brandId}: re-pointed links of ${room(0)}; deleted ARM900000000001, ARM900000000002`);
    expect(r.code).toBe(0);
    expect(b.chatbots.get(room(0))?.menu?.map((i) => [i.title, i.autoReplyMsgId])).toEqual([['Ring', ringA.autoReplyMsgId], ['Pair', pairX.autoReplyMsgId]]);
    expect(b.autoReplies.get(pairX.autoReplyMsgId)?.body.media).toBe(pairX.body.media);
    expect(duplicateNames()).toEqual([]);
    expect(danglingLinks()).toEqual([]);
    expect((await cli(['plan', dir, '--detailed-exitcode'], { emu })).code).toBe(0);
  }, 60_000);
});

describe('apply --dedupe clears what racing applies leave on cycle brands', () => {
  const seeds = [1, 2, 3, 4, 5, 6];
  let raced = 0;

  it.each(seeds)('seed %i: the race leaves duplicates or not; dedupe then leaves an empty plan and no duplicate', async (seed) => {
    await admin(emu, 'POST', 'reset');
    const rand = mulberry32(seed);
    const runners = seed % 2 === 0 ? 3 : 2;
    // Seeded starts within a few milliseconds of each other: the runs interleave differently per seed.
    const runs = await Promise.all(Array.from({ length: runners }, async (_, r) => {
      await sleep(Math.floor(rand() * 12));
      return apply(`locks-${seed}-${r}`);
    }));
    expect(runs.filter((r) => r.code === 0).length, 'at most one racing apply reports success').toBeLessThanOrEqual(1);
    if (duplicateNames().length > 0) raced++;

    const repair = await apply(`locks-${seed}-0`, ['--dedupe', '--allow-delete']);
    expect(repair.stderr).toBe('');
    expect(repair.code).toBe(0);
    expect(duplicateNames()).toEqual([]);
    expect(danglingLinks()).toEqual([]);
    const plan = await cli(['plan', dir, '--detailed-exitcode'], { emu });
    expect(plan.stdout).not.toContain('error[');
    expect(plan.code).toBe(0);
  }, 60_000);

  it('the races above did leave duplicates to clear (the test exercises dedupe)', () => {
    expect(raced).toBeGreaterThan(0);
  });
});
