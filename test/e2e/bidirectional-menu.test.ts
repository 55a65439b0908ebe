// A bidirectional room's persistent menu end to end, through the CLI against
// the emulator over HTTP: validate checks its items at their line; apply
// creates the menus of a room with a bidirectional ID (a new room's right after
// the room) and a plan after is empty; a menu changed in the console is a drift
// finding and the next apply sets it back; export writes the menu under the
// room's `bidirectionalRooms:` entry and a plan of the export is empty; the
// preview draws the menu at the room's bottom, and the graph links the room to it.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { DriftReport } from '../../src/report/types.js';
import { admin, BRAND, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '053-bidirectional-menu-from-nothing');

let emu: RunningEmulator;
let tmp: string;

beforeEach(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bidi-menu-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterEach(async () => {
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');
const menuOf = (id: string) => emu.store.brands.get(BRAND)?.chatbots.get(id)?.menu?.map(({ postbackId: _p, ...item }) => item);
const api = async (method: string, path: string, json?: unknown): Promise<number> => {
  const res = await fetch(`${emu.url}/api/1.1/brand/${BRAND}${path}`, {
    method,
    headers: { authorization: 'Bearer emulator-master-token', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  await res.arrayBuffer();
  return res.status;
};
const CALL = { type: 'action', title: 'Call us', ordNo: 2, actionType: 'dialerAction', action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } };

describe("a bidirectional room's persistent menu end to end", () => {
  it('apply creates the menus, then nothing to plan; a console change is drift and set back; export round trip', async () => {
    const applied = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('✓ persistentMenu.bot-coffee: menu created');
    expect(applied.stdout).toContain('✓ persistentMenu.bot-orders: menu created');
    const hours = [...(emu.store.brands.get(BRAND)?.autoReplies.keys() ?? [])][0];
    expect(menuOf('bot-coffee')).toEqual([{ type: 'reply', title: 'Opening hours', ordNo: 1, autoReplyMsgId: hours }, CALL]);
    expect(menuOf('bot-orders')).toEqual([{ type: 'feed', title: 'News', ordNo: 1, feedId: 'FEED-1' }]);
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);

    // The console: the number to call changed, and an item added.
    expect(await api('PUT', '/bidirectional/chatbot/bot-coffee/persistentmenu', { persistentMenu: { menu: [{ type: 'reply', title: 'Opening hours', ordNo: 1, autoReplyMsgId: hours }, { ...CALL, action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0299999999' } } } }, { type: 'feed', title: 'News', ordNo: 3, feedId: 'FEED-2' }] } })).toBe(200);
    const drift = await cli(['drift', manifest(), '--format', 'json'], { emu });
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as DriftReport;
    const found = report.brands[0]?.resources.find((r) => r.address === 'persistentMenu.bot-coffee')?.findings;
    expect(found?.map((f) => f.code)).toEqual(['DRIFT_CHANGED']);
    expect(found?.[0]?.changes).toEqual([
      { path: 'items[1].action.dialerAction.dialPhoneNumber.phoneNumber', type: 'change', before: '0299999999', after: '0212345678' },
      { path: 'items[2].type', type: 'remove', before: 'feed' },
      { path: 'items[2].title', type: 'remove', before: 'News' },
      { path: 'items[2].feedId', type: 'remove', before: 'FEED-2' },
    ]);

    // Export writes each room's menu under its entry (auto-replies by handle); the export plans nothing.
    const out = join(tmp, 'export');
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(exp.code, exp.stderr).toBe(0);
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8')) as { bidirectionalRooms: Record<string, { persistentMenu?: unknown }>; autoReplies: Record<string, unknown> };
    const handle = Object.keys(written.autoReplies)[0];
    expect(written.bidirectionalRooms['bot-coffee']?.persistentMenu).toEqual([
      { type: 'reply', title: 'Opening hours', autoReply: handle },
      { type: 'action', title: 'Call us', actionType: 'dialerAction', action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0299999999' } } } },
      { type: 'feed', title: 'News', feedId: 'FEED-2' },
    ]);
    expect(written.bidirectionalRooms['bot-orders']?.persistentMenu).toEqual([{ type: 'feed', title: 'News', feedId: 'FEED-1' }]);
    const again = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    // The manifest's menu is set back: one replacement, no review.
    const back = await cli(['apply', manifest(), '--yes'], { emu });
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toContain('persistentMenu.bot-coffee "Coffee chat menu"  menu will be replaced');
    expect(menuOf('bot-coffee')).toEqual([{ type: 'reply', title: 'Opening hours', ordNo: 1, autoReplyMsgId: hours }, CALL]);

    // An empty menu removes it.
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('    persistentMenu:\n      - { type: feed, title: News, feedId: FEED-1 }\n', '    persistentMenu: []\n'));
    const removed = await cli(['apply', manifest(), '--yes'], { emu });
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    expect(removed.stdout).toContain('persistentMenu.bot-orders "Coffee orders menu"  menu will be removed');
    expect(emu.store.brands.get(BRAND)?.chatbots.get('bot-orders')?.menu).toBeNull();
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);
  });

  it('a warm plan takes the menus from the live cache, and still sees a menu changed in the console', async () => {
    const env = { XDG_CACHE_HOME: join(tmp, 'cache') };
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu, env })).code).toBe(0);
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    await admin(emu, 'DELETE', 'requests');
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    const reads = async (): Promise<string[]> => {
      const log = (await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
      await admin(emu, 'DELETE', 'requests');
      return log.requests.filter((r) => r.method === 'GET' && /\/bidirectional\/chatbot\/[^/]+$/.test(r.path)).map((r) => r.path.slice(r.path.lastIndexOf('/') + 1));
    };
    expect(await reads()).toEqual([]);
    expect(await api('DELETE', '/bidirectional/chatbot/bot-orders/persistentmenu')).toBe(200);
    await reads();
    const plan = await cli(['plan', manifest()], { emu, env });
    expect(plan.stdout).toContain('+ persistentMenu.bot-orders "Coffee orders menu"  menu will be created');
    expect(await reads()).toEqual(['bot-orders']);
  });

  it('validate checks the items of a bot- room at their line, and refuses a menu on a converted room', async () => {
    writeFileSync(
      manifest(),
      readFileSync(manifest(), 'utf8')
        .replace('      - { type: feed, title: News, feedId: FEED-1 }', '      - { type: feed, title: News, feedId: FEED-1, autoReply: hours }')
        .replace('  bot-coffee:\n', '  "0212345678":\n    botAgencyId: relay-one\n    persistentMenu: []\n  bot-coffee:\n'),
    );
    const r = await cli(['validate', manifest()], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${manifest()}:18:5: error RCS201: persistentMenu of sender-number room 0212345678 is the room's own: declare it under chatbots.0212345678; converting the room takes only botAgencyId [/bidirectionalRooms/0212345678/persistentMenu]`);
    expect(r.stderr).toContain(`${manifest()}:33:52: error RCS511: "autoReply" does not belong on a menu item of type feed; it takes feedId [/bidirectionalRooms/bot-orders/persistentMenu/0/autoReply]`);
  });

  it('the preview draws each menu at its room, and the graph links the room to its menu', async () => {
    const site = join(tmp, 'site');
    const r = await cli(['preview', manifest(), '-o', site], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(site, BRAND, 'index.html'), 'utf8');
    const room = html.slice(html.indexOf('id="biroom-bot-coffee"'), html.indexOf('id="biroom-bot-orders"'));
    expect(room).toContain('<nav class="menu" aria-label="Coffee chat menu">');
    expect(room).toContain('<span class="label">Opening hours</span><span class="detail">opens Opening hours</span>');
    expect(room).toContain('<span class="label">Call us</span><span class="detail">0212345678</span>');
    const graph = await cli(['graph', manifest()], { env: {} });
    expect(graph.code, graph.stderr).toBe(0);
    const node = (address: string): string => (graph.stdout.match(new RegExp(`(n\\d+)\\["[^"]*<br/>${address.replace('.', '\\.')}`)) as RegExpMatchArray)[1] as string;
    expect(graph.stdout).toContain(`${node('bidirectionalRoom.bot-coffee')} --> ${node('persistentMenu.bot-coffee')}`);
  });
});
