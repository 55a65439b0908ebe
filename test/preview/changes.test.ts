// Before and after, end to end: `rcsctl plan --preview DIR` against the
// emulator (the example brand as applied), with a manifest that changes a card
// and the room menu. The live and proposed handsets, the changed parts marked
// on each side, the Markdown link, and the same page from a saved plan file.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { PlanFile } from '../../src/plan/types.js';
import { changesPage, changesView, contextFromPlan, writeChangePreviews, type PlanToPreview } from '../../src/preview/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import type { DesiredBrand } from '../../src/manifest/types.js';
import type { LiveBrand } from '../../src/core/live.js';
import { Redaction } from '../../src/util/redaction.js';
import { changedOn } from '../../src/preview/changes.js';
import { cli, clientFor, ROOT } from '../e2e/helpers.js';
import { readLive } from '../../src/plan/read-live.js';
import { useEmulator } from '../emulator/helpers.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'preview');
const CHANGED = join(FIXTURE, 'changed');

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: join(FIXTURE, 'live-seed.yaml') });

let out: string;
let doc: HTMLElement;
let markdown: string;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'rcsctl-plan-preview-'));
  const r = await cli(['plan', CHANGED, '--preview', join(out, 'site'), '--out', join(out, 'plan.json')], { emu });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`\nPreview of BR.demo000001 (2 auto-reply and menu and layout changes): ${join(out, 'site', 'BR.demo000001', 'index.html')}\n`);
  doc = html(readFileSync(join(out, 'site', 'BR.demo000001', 'index.html'), 'utf8'));
  markdown = (await cli(['plan', CHANGED, '--format', 'markdown', '--preview', join(out, 'md'), '--preview-url', 'https://ci.example/run/7/preview (1)'], { emu })).stdout;
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Parse a page; <pre> is parsed as markup (node-html-parser keeps it raw by default). */
const html = (text: string): HTMLElement => parse(text, { blockTextElements: { script: true, style: true } });
const marked = (side: HTMLElement | null): string[] => (side?.querySelectorAll('[data-changed]') ?? []).map((e) => e.getAttribute('data-path') as string);

describe('rcsctl plan --preview', () => {
  it('draws each changed auto-reply and menu, live against proposed', () => {
    const sections = doc.querySelectorAll('section.change');
    expect(sections.map((s) => s.id)).toEqual(['chg-autoReply.hours', 'chg-persistentMenu.0212345678']);
    expect(sections.map((s) => s.querySelector('h2')?.text)).toEqual(['autoReply.hours “Opening hours” will be updated', 'persistentMenu.0212345678 “Coffee Co menu” menu will be replaced']);
    const hours = sections[0] as HTMLElement;
    // A changed part says so in words too (visually hidden), for a screen reader.
    expect(hours.querySelector('.side.before .title')?.text).toBe('Opening hours (changed)');
    expect(hours.querySelector('.side.after .title')?.text).toBe('영업시간 Opening hours (changed)');
    expect(hours.querySelector('.side.after [data-path="chipList[0]"] .label')?.text).toBe('How to get there');
  });

  it('marks what changed on each side: removed and changed parts live, added and changed parts proposed', () => {
    const hours = byId(doc, 'chg-autoReply.hours');
    expect(marked(hours.querySelector('.side.before'))).toEqual(['body.media', 'body.title', 'body.description']);
    expect(marked(hours.querySelector('.side.after'))).toEqual(['body.media', 'body.title', 'body.description', 'buttons[0].suggestions[1]']);
    // The unchanged button and chip are drawn on both sides, unmarked.
    expect(hours.querySelectorAll('[data-path="buttons[0].suggestions[0]"]:not([data-changed])')).toHaveLength(2);
    expect(hours.querySelectorAll('[data-path="chipList[0]"]:not([data-changed])')).toHaveLength(2);
    const menu = byId(doc, 'chg-persistentMenu.0212345678');
    // Menu items are matched by title: "Find us" renamed is one item gone and one new, "Events" is new,
    // and "Call us", only moved down, is unchanged on both sides.
    expect(marked(menu.querySelector('.side.before'))).toEqual(['items[2]']);
    expect(marked(menu.querySelector('.side.after'))).toEqual(['items[2]', 'items[3]']);
    expect(menu.querySelectorAll('.side.after nav.menu .label').map((l) => l.text)).toEqual(['Opening hours', "Today's menu", '오시는 길 Find us', 'Events', 'Call us']);
  });

  it('inlines both images: the live one and the proposed one, by content', () => {
    const images = byId(doc, 'chg-autoReply.hours').querySelectorAll('img.media');
    expect(images.map((i) => i.getAttribute('alt'))).toEqual(['Image for “Opening hours” (hero-ff7131fa55b5.png)', 'Image for “영업시간 Opening hours” (beans-6fb28bf87c06.png)']);
    for (const img of images) expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  });

  it('names menu targets by the auto-reply they open, and lists every field change', () => {
    const menu = byId(doc, 'chg-persistentMenu.0212345678');
    expect(menu.querySelector('.side.after [data-path="items[3]"] .detail')?.text).toBe('opens Events');
    // A renamed item is a change of that item (issue 38), not one removed and another added.
    expect(menu.querySelector('pre.changes')?.text).toContain('~ items[2].title: "Find us" → "오시는 길 Find us"');
  });

  it('is linked from the Markdown plan', () => {
    expect(markdown).toContain('🖼 **[See the changed messages and menus, live against proposed](https://ci.example/run/7/preview%20%281%29)**');
  });

  it('names the preview path in the Markdown plan when no URL is given', async () => {
    const r = await cli(['plan', CHANGED, '--format', 'markdown', '--preview', 'build/preview'], { emu, cwd: out });
    expect(r.stdout).toContain("🖼 **The changed messages and menus, live against proposed:** `build/preview/index.html` (in this job's artifacts)");
    expect(r.stderr).toBe(`Preview of BR.demo000001 (2 auto-reply and menu and layout changes): build/preview/BR.demo000001/index.html\n`);
  });

  it('takes --preview without a folder, writing to preview/ as rcsctl preview does', async () => {
    const r = await cli(['plan', CHANGED, '--preview'], { emu, cwd: out });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\nPreview of BR.demo000001 (2 auto-reply and menu and layout changes): preview/BR.demo000001/index.html\n');
    // It says that the folder is in the working directory, and to keep it out of git.
    expect(r.stdout).toContain(`\nThe preview was written to preview/ in the working directory (${join(out, 'preview')}); keep it out of git: add preview/ to .gitignore.\n`);
    expect(readFileSync(join(out, 'preview', 'index.html'), 'utf8')).toContain('BR.demo000001');
    // A folder given is where the user asked: no such note.
    const named = await cli(['plan', CHANGED, '--preview', 'elsewhere'], { emu, cwd: out });
    expect(named.stdout).not.toContain('working directory');
  });

  it('refuses a --preview folder that holds manifests (plan --preview shop reads shop as the folder), before reading anything', async () => {
    const r = await cli(['plan', '--preview', CHANGED], { emu, cwd: out });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`--preview ${CHANGED}: ${CHANGED} holds manifests`);
    expect(r.stderr).toContain(`rcsctl plan ${CHANGED} --preview`);
    // `=` binds the folder, so the word after it is a path again.
    const bound = await cli(['plan', `--preview=${join(out, 'bound')}`, CHANGED], { emu, cwd: out });
    expect(bound.code, bound.stderr).toBe(0);
    expect(bound.stdout).toContain(': bound/BR.demo000001/index.html\n');
  });

  it('draws the same changes from the saved plan file alone (rcsctl show --preview), with placeholders for images it cannot read', async () => {
    const r = await cli(['show', join(out, 'plan.json'), '--preview', join(out, 'shown')], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Preview of BR.demo000001 (2 auto-reply and menu and layout changes): ${join(out, 'shown', 'BR.demo000001', 'index.html')}\n`);
    const saved = html(readFileSync(join(out, 'shown', 'BR.demo000001', 'index.html'), 'utf8'));
    expect(marked(saved.querySelector('.side.after'))).toEqual(marked(doc.querySelector('.side.after')));
    expect(saved.querySelectorAll('.media.missing').map((m) => m.getAttribute('aria-label'))).toEqual([
      'Image for “Opening hours” (hero-ff7131fa55b5.png)',
      'Image for “영업시간 Opening hours” (beans-6fb28bf87c06.png)',
    ]);
    const md = await cli(['show', join(out, 'plan.json'), '--format', 'markdown', '--preview', join(out, 'shown'), '--preview-url', 'https://ci.example/p'], { env: {} });
    expect(md.stdout).toContain('(https://ci.example/p)');
  });
});

describe('the page title', () => {
  it('names the brand, never a room: its declared name, else its live name, else its id; the handsets keep the room name', async () => {
    // The fixture declares no brand profile, and the live brand has no page: the id, not the room's name.
    expect(doc.querySelector('title')?.text).toBe('BR.demo000001: proposed changes');
    expect(doc.querySelector('h1')?.text).toBe('BR.demo000001: proposed changes');
    const roomName = doc.querySelector('.side.after .room-name')?.text;
    expect(roomName).toBeDefined();
    expect(doc.querySelector('title')?.text).not.toContain(roomName as string);

    const r = await cli(['plan', CHANGED, '--json'], { emu, env: {} });
    const plan = (JSON.parse(r.stdout) as PlanFile).brands[0];
    if (plan === undefined) throw new Error('no brand');
    const loaded = await loadManifests([CHANGED], { env: {}, cwd: ROOT });
    const desired = loaded.brands[0];
    if (desired === undefined) throw new Error('no desired brand');
    const home = (await loadManifests([join(FIXTURE, 'home')], { env: {}, cwd: ROOT })).brands[0];
    const titles = (plans: PlanToPreview[]): string[] => {
      const dir = join(out, `titles-${Math.random().toString(36).slice(2)}`);
      writeChangePreviews(dir, plans, { version: '0', redaction: new Redaction() });
      return plans.map((p) => html(readFileSync(join(dir, p.plan.brandId, 'index.html'), 'utf8')).querySelector('title')?.text ?? '');
    };
    const read = await readLive(clientFor(emu), { id: plan.brandId }, { concurrency: 2 });
    const live = { ...read, brandProfile: { page: { brandId: plan.brandId, name: 'Coffee Co Live', status: '승인' } } } as unknown as LiveBrand;
    // Neither: the id (the live brand here has rooms, whose names the title must not take).
    expect(titles([{ plan, desired, live: read }])).toEqual(['BR.demo000001: proposed changes']);
    // Declared: the manifest's brandProfile.name.
    expect(titles([{ plan, desired: { ...desired, brandProfile: home?.brandProfile } as DesiredBrand, live }])).toEqual(['커피 코 Coffee Co (BR.demo000001): proposed changes']);
    // Not declared: the live page's name.
    expect(titles([{ plan, desired, live }])).toEqual(['Coffee Co Live (BR.demo000001): proposed changes']);
  });
});

describe('a create and a delete', () => {
  it('shows the side where the object does not exist', async () => {
    const r = await cli(['plan', join(ROOT, 'examples', 'brand'), '--json'], { emu, env: {} });
    const plan = (JSON.parse(r.stdout) as PlanFile).brands[0];
    if (plan === undefined) throw new Error('no brand');
    // The live brand equals the example: fake a create and a delete from its snapshots.
    const base = { kind: 'autoReply' as const, gate: { type: 'none' as const }, dependsOn: [], changes: [{ path: 'name', type: 'add' as const, after: 'New' }] };
    plan.steps = [
      { ...base, id: 'autoReply.new:create', op: 'create', address: 'autoReply.new', name: 'New', request: {}, expected: { name: 'New', messagebaseId: 'SCS00000', body: { description: 'hi' } } },
      { ...base, id: 'autoReply.old:delete', op: 'delete', address: 'autoReply.old', name: 'Old', liveId: 'ARM-OLD', gate: { type: 'destructive' }, changes: [] },
    ];
    plan.snapshots = { 'autoReply.old': { state: '등록완료', value: { name: 'Old', messagebaseId: 'SCS00000', body: { description: 'bye' } } } };
    const page = html(changesPage(plan.brandId, changesView(plan, contextFromPlan(plan)), { title: 'T', version: '0' }));
    expect(page.querySelectorAll('section.change').map((s) => [s.querySelector('.side.before')?.text.includes('Does not exist yet'), s.querySelector('.side.after')?.text.includes('Will be deleted')])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(byId(page, 'chg-autoReply.old').querySelector('.gate')?.text).toBe('deletes a live object');
  });

  it('matches a part to the changes below it, not to a sibling that shares a prefix', () => {
    const changed = changedOn([{ path: 'items[1].title', type: 'change', before: 'a', after: 'b' }], 'after');
    expect([changed('items[1]'), changed('items[10]'), changed('items'), changed('items[1].title')]).toEqual([true, false, true, true]);
  });
});

function byId(root: HTMLElement, id: string): HTMLElement {
  const found = root.getElementById(id);
  if (found === null) throw new Error(`no #${id}`);
  return found;
}
