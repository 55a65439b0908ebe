// Usage beside the change (issue 38): plan says, for each menu item, button
// and chip a step removes or changes, how often users pressed it in the last
// 30 days, from the service's statistics (GET /statQuery/persistentMenu),
// read once per room and run. The emulator serves the statistics routes with
// the public document's shapes and counts presses from its own user events.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { PlanFile } from '../../src/plan/types.js';
import { admin, BRAND, cli, emulator, EXAMPLE, TOKEN } from './helpers.js';

let emu: RunningEmulator;
let dir: string;

beforeEach(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-usage-'));
  cpSync(EXAMPLE, join(dir, 'brand'), { recursive: true });
});
afterEach(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const brandYaml = (): string => join(dir, 'brand', 'brand.yaml');
function edit(from: string, to: string): void {
  const text = readFileSync(brandYaml(), 'utf8');
  if (!text.includes(from)) throw new Error(`example does not contain ${from}`);
  writeFileSync(brandYaml(), text.replace(from, to));
}

/** The example's room with the menu. */
function menuRoom(): string {
  const room = [...(emu.store.brands.get(BRAND)?.chatbots.values() ?? [])].find((c) => (c.menu ?? []).length > 0);
  if (room === undefined) throw new Error('no room with a menu');
  return room.chatbotId;
}

/** Apply the example, then record presses: inside the 30 days and one outside. */
async function appliedAndPressed(): Promise<string> {
  const applied = await cli(['apply', join(dir, 'brand'), '--yes', '--allow-review'], { emu });
  expect(applied.code, applied.stderr).toBe(0);
  const chatbotId = menuRoom();
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: 'Opening hours', count: 4000, daysAgo: 3 });
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: 'Opening hours', count: 210, daysAgo: 29 });
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: 'Opening hours', count: 999, daysAgo: 40 });
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: 'Call us', count: 12 });
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: "Today's menu", count: 55 });
  await admin(emu, 'POST', 'stats/press', { chatbotId, title: 'Opening hours', suggestion: 'Call the shop', count: 37, daysAgo: 1 });
  return chatbotId;
}

/** Remove the "Opening hours" menu item, rename "Today's menu", change "Call us", and remove the "Call the shop" button of the hours auto-reply. */
function change(): void {
  edit('      - { type: reply, title: Opening hours, autoReply: hours }\n', '');
  edit('title: "Today\'s menu", autoReply: menu }', 'title: "Menu of the day", autoReply: menu }');
  edit('action: { dialerAction: { dialPhoneNumber: { phoneNumber: "0212345678" } } }\n  # Under review', 'action: { dialerAction: { dialPhoneNumber: { phoneNumber: "0298765432" } } }\n  # Under review');
  edit(`    buttons:
      - suggestions:
          - action:
              displayText: Call the shop
              dialerAction: { dialPhoneNumber: { phoneNumber: "0212345678" } }
    chipList:
      # hours and location`, `    chipList:
      # hours and location`);
}

async function statLog(): Promise<{ method: string; path: string }[]> {
  const log = (await admin(emu, 'GET', 'requests')).requests as { method: string; path: string }[];
  return log.filter((r) => r.path.includes('/statQuery/'));
}

describe('plan shows how often users pressed what a step removes or changes', () => {
  it('the text, Markdown and JSON plans give the presses of the last 30 days beside the steps; one statistics read per room', async () => {
    await appliedAndPressed();
    change();
    const before = (await statLog()).length;
    const text = await cli(['plan', join(dir, 'brand')], { emu });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('"Opening hours" (removed): pressed 4,210 times in the last 30 days');
    expect(text.stdout).toContain('"Call us" (changed): pressed 12 times in the last 30 days');
    expect(text.stdout).toContain('"Call the shop" (removed): pressed 37 times in the last 30 days');
    // A renamed item is a change of that item, with its presses; the 999 presses of 40 days ago are outside the window.
    expect(text.stdout).toContain('"Today\'s menu" (changed): pressed 55 times in the last 30 days');
    expect(text.stdout).not.toContain('"Find us" (');
    expect(text.stdout).not.toMatch(/5,209|999/);
    // The menu's and the auto-reply's figures come from one read of the room's statistics.
    expect((await statLog()).length - before).toBe(1);

    const md = await cli(['plan', join(dir, 'brand'), '--format', 'markdown'], { emu });
    expect(md.stdout).toContain('**What users press, and this change removes or changes:**');
    expect(md.stdout).toMatch(/- `persistentMenu\.[^`]+` "Opening hours" \(removed\): pressed 4,210 times in the last 30 days/);

    const json = await cli(['plan', join(dir, 'brand'), '--json'], { emu });
    const file = JSON.parse(json.stdout) as PlanFile;
    const steps = file.brands.flatMap((b) => b.steps);
    const menu = steps.find((s) => s.kind === 'persistentMenu');
    expect(menu?.usage).toEqual({ days: 30, entries: expect.arrayContaining([{ entry: 'Opening hours', change: 'removed', pressed: 4210 }, { entry: 'Call us', change: 'changed', pressed: 12 }, { entry: "Today's menu", change: 'changed', pressed: 55 }]) });
    expect(menu?.usage?.entries).toHaveLength(3);
    expect(steps.find((s) => s.address === 'autoReply.hours')?.usage).toEqual({ days: 30, entries: [{ entry: 'Call the shop', change: 'removed', pressed: 37 }] });

    // The comment every recipe posts (report merge of the JSON plan and the drift report) gives them too, and show of the saved plan.
    writeFileSync(join(dir, 'plan.json'), json.stdout);
    await cli(['drift', join(dir, 'brand'), '--format', 'json', '--output', join(dir, 'drift.json')], { emu });
    const comment = await cli(['report', 'merge', join(dir, 'plan.json'), join(dir, 'drift.json'), '--format', 'markdown']);
    expect(comment.stdout).toContain('**What users press, and this change removes or changes:**');
    expect(comment.stdout).toMatch(/- `persistentMenu\.[^`]+` "Opening hours" \(removed\): pressed 4,210 times in the last 30 days/);
    const shown = await cli(['show', join(dir, 'plan.json')]);
    expect(shown.stdout).toContain('"Opening hours" (removed): pressed 4,210 times in the last 30 days');
  });

  it('--no-usage reads no statistics; a failed statistics read warns once and leaves the plan as it is', async () => {
    await appliedAndPressed();
    change();
    const before = (await statLog()).length;
    const off = await cli(['plan', join(dir, 'brand'), '--no-usage', '--detailed-exitcode'], { emu });
    expect(off.code).toBe(2);
    expect(off.stdout).not.toContain('pressed');
    expect((await statLog()).length).toBe(before);

    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ method: 'GET', path: '/statQuery/persistentMenu/', kind: 'error', rate: 1, status: 403 }] });
    const failed = await cli(['plan', join(dir, 'brand'), '--detailed-exitcode'], { emu });
    expect(failed.code, failed.stderr).toBe(2);
    expect(failed.stdout).not.toContain('pressed');
    expect(failed.stdout).toContain('persistentMenu.');
    expect(failed.stderr.match(/warning: BR\.demo000001: usage statistics of menu:\S+ could not be read/g)).toHaveLength(1);
  });

  it('a plan with no menu, button or chip removed or changed reads no statistics', async () => {
    await appliedAndPressed();
    edit('description: "Mon-Fri 7:00-20:00,', 'description: "Mon-Fri 7:30-20:00,');
    const before = (await statLog()).length;
    const r = await cli(['plan', join(dir, 'brand'), '--detailed-exitcode'], { emu });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).not.toContain('pressed');
    expect((await statLog()).length).toBe(before);
  });
});

describe('the emulator serves the statistics routes', () => {
  const get = async (path: string): Promise<{ status: number; body: { code?: string; result?: unknown[]; error?: { code: string } } }> => {
    const res = await request(`${emu.url}/api/1.1/statQuery/${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return { status: res.statusCode, body: (await res.body.json()) as { code?: string; result?: unknown[]; error?: { code: string } } };
  };

  it('a day a row, a menu item an entry with its clicks and its auto-reply buttons in subList; bad periods refused', async () => {
    const chatbotId = await appliedAndPressed();
    const today = new Date(emu.store.now() + 9 * 3_600_000);
    const day = (back: number): string => new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const ok = await get(`persistentMenu/${BRAND}?startDate=${day(30)}&endDate=${day(0)}&chatbotId=${chatbotId}`);
    expect(ok.status).toBe(200);
    const rows = ok.body.result as { statDate: string; chatbotId: string; menuList: { title: string; menuType: string; clickCount: number; subList?: { title: string; reactionType: string; cardNum: number; buttonNum: number; clickCount: number }[] }[] }[];
    expect(rows.map((r) => r.statDate)).toEqual([day(29), day(3), day(1), day(0)]);
    const oneDay = rows.find((r) => r.statDate === day(1));
    expect(oneDay?.menuList).toEqual([expect.objectContaining({ title: 'Opening hours', menuType: 'autoreply', clickCount: 0, subList: [expect.objectContaining({ title: 'Call the shop', reactionType: 'button', cardNum: 1, buttonNum: 1, clickCount: 37 })] })]);
    expect(rows.find((r) => r.statDate === day(0))?.menuList.find((m) => m.title === 'Call us')).toMatchObject({ menuType: 'action', actionType: 'dialerAction', clickCount: 12 });

    expect((await get(`persistentMenu/${BRAND}?startDate=${day(40)}&endDate=${day(0)}&chatbotId=${chatbotId}`)).body.error?.code).toBe('64202');
    expect((await get(`persistentMenu/${BRAND}?startDate=${day(0)}&endDate=${day(3)}&chatbotId=${chatbotId}`)).body.error?.code).toBe('64202');
    expect((await get(`persistentMenu/${BRAND}?startDate=${day(3)}&endDate=${day(0)}`)).body.error?.code).toBe('64336');
    expect((await get(`message/${BRAND}?startDate=${day(3)}&endDate=${day(0)}&groupId=g1`)).body.result).toEqual([]);
    expect((await get(`messageButton/${BRAND}?startDate=${day(3)}&endDate=${day(0)}`)).body.error?.code).toBe('64336');
  });
});
