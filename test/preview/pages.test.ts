// A brand too big for one page: `rcsctl preview` of 1,001 auto-replies writes an
// index (the rooms, the list of pages, the findings about no one auto-reply) and
// pages of 500 handsets, and every link on every page, across pages too, opens
// an element that exists in the file it names. `plan --preview` of the same
// 1,001 creates pages its changes alike. (Before, one page held every handset,
// and building it was quadratic in the number of auto-replies.)

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli } from '../e2e/helpers.js';
import { useEmulator } from '../emulator/helpers.js';

const N = 1001;
let emu: RunningEmulator;
useEmulator((e) => (emu = e));
let dir: string;
let folder: string;
const pages = new Map<string, HTMLElement>();
const changes = new Map<string, HTMLElement>();

/** Auto-replies 0 to 999 in a ring (each chip opens the next), 1000 on its own, and a room whose menu opens 600. */
function manifest(): string {
  const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${BRAND}`, 'autoReplies:'];
  for (let i = 0; i < N; i++) {
    lines.push(`  ar${i}:`, `    name: "Reply ${i}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Reply number ${i}"`);
    if (i < N - 1) lines.push('    chipList:', `      - reply: { autoReply: ar${(i + 1) % (N - 1)}, displayText: Next }`);
  }
  lines.push(
    'chatbots:',
    '  "0212345678":',
    '    subTitle: Pages',
    '    display: "11"',
    '    inputField: 1',
    '    rcsReply: "1"',
    '    subDescr: A big brand',
    '    saftyStatusYn: "Y"',
    '    persistentMenu:',
    '      - { type: reply, title: Six hundred, autoReply: ar600 }',
  );
  return lines.join('\n') + '\n';
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-pages-'));
  writeFileSync(join(dir, 'brand.yaml'), manifest());
  const r = await cli(['preview', join(dir, 'brand.yaml'), '-o', join(dir, 'out')], { env: {} });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(
    `${BRAND}: ${N} auto-replies, 1 room, 2 findings: ${join(dir, 'out', BRAND, 'index.html')}\n` +
      '  warning: nothing links to “Reply 1000”: no reply, button or menu item opens it\n' +
      '  info: “Reply 1000” has no reply leading on; only the room menu does\n',
  );
  folder = join(dir, 'out', BRAND);
  for (const file of readdirSync(folder)) pages.set(file, parse(readFileSync(join(folder, file), 'utf8')));
  const plan = await cli(['plan', join(dir, 'brand.yaml'), '--preview', join(dir, 'changes')], { emu });
  expect(plan.code, plan.stderr).toBe(0);
  const changed = join(dir, 'changes', BRAND);
  for (const file of readdirSync(changed)) changes.set(file, parse(readFileSync(join(changed, file), 'utf8'), { blockTextElements: { script: true, style: true } }));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const page = (file: string): HTMLElement => {
  const p = pages.get(file);
  if (p === undefined) throw new Error(`no ${file}`);
  return p;
};

describe('a preview of 1,001 auto-replies', () => {
  it('is an index and three pages of at most 500 handsets, in manifest order', () => {
    expect([...pages.keys()].sort()).toEqual(['index.html', 'page-001.html', 'page-002.html', 'page-003.html']);
    const handsets = (file: string): string[] => page(file).querySelectorAll('article.handset').map((h) => h.getAttribute('data-address') ?? '');
    expect(handsets('index.html')).toEqual(['chatbot.0212345678']);
    expect(handsets('page-001.html')).toEqual(Array.from({ length: 500 }, (_, i) => `autoReply.ar${i}`));
    expect(handsets('page-002.html')).toEqual(Array.from({ length: 500 }, (_, i) => `autoReply.ar${500 + i}`));
    expect(handsets('page-003.html')).toEqual(['autoReply.ar1000']);
    expect(page('index.html').querySelectorAll('ol.pages a').map((a) => [a.getAttribute('href'), a.text])).toEqual([
      ['page-001.html', 'Auto-replies 1–500'],
      ['page-002.html', 'Auto-replies 501–1000'],
      ['page-003.html', 'Auto-replies 1001–1001'],
    ]);
  });

  it('links a chip to the auto-reply it opens on another page, and a menu item from the index to its page', () => {
    expect(page('page-001.html').querySelector('#ar-ar498 a.chip')?.getAttribute('href')).toBe('#ar-ar499');
    expect(page('page-001.html').querySelector('#ar-ar499 a.chip')?.getAttribute('href')).toBe('page-002.html#ar-ar500');
    expect(page('page-002.html').querySelector('#ar-ar999 a.chip')?.getAttribute('href')).toBe('page-001.html#ar-ar0');
    expect(page('index.html').querySelectorAll('#room-0212345678 nav.menu a').map((a) => a.getAttribute('href'))).toEqual(['page-002.html#ar-ar600']);
  });

  it('has no link that leads nowhere: every href names a file of the folder and an element in it', () => {
    let checked = 0;
    for (const [file, doc] of pages) {
      for (const a of doc.querySelectorAll('a[href]')) {
        const href = a.getAttribute('href') as string;
        expect(href, `${file}: ${a.outerHTML}`).toMatch(/^(page-\d{3}\.html|index\.html)?(#[\w.-]+)?$/);
        const [target = '', id] = href.split('#');
        const to = target === '' ? doc : page(target);
        if (id !== undefined) expect(to.getElementById(id), `${file}: ${href}`).not.toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2 * N);
  });

  it('lists each finding on the page of its auto-reply, and each page links back and on', () => {
    const findings = (file: string): string[] => page(file).querySelectorAll('aside.findings li').map((li) => li.text);
    expect(findings('page-003.html')).toEqual([
      'warningnothing links to “Reply 1000”: no reply, button or menu item opens it show',
      'info“Reply 1000” has no reply leading on; only the room menu does show',
    ]);
    expect(findings('page-001.html')).toEqual([]);
    expect(findings('index.html')).toEqual([]);
    expect(page('page-003.html').querySelectorAll('aside.findings a').map((a) => a.getAttribute('href'))).toEqual(['#ar-ar1000', '#ar-ar1000']);
    expect(page('page-002.html').querySelectorAll('nav.pager a').map((a) => a.getAttribute('href'))).toEqual(['index.html', 'page-001.html', 'page-003.html']);
  });
});

describe('plan --preview of the same 1,001 auto-replies, all to be created', () => {
  const change = (file: string): HTMLElement => {
    const p = changes.get(file);
    if (p === undefined) throw new Error(`no ${file}`);
    return p;
  };

  it('pages the changes: an index, then 500 a page, in plan order', () => {
    expect([...changes.keys()].sort()).toEqual(['index.html', 'page-001.html', 'page-002.html', 'page-003.html']);
    const sections = (file: string): number => change(file).querySelectorAll('section.change').length;
    expect([sections('page-001.html'), sections('page-002.html')]).toEqual([500, 500]);
    expect(sections('index.html')).toBe(0);
    expect(change('index.html').querySelectorAll('ol.pages a').map((a) => a.getAttribute('href'))).toEqual(['page-001.html', 'page-002.html', 'page-003.html']);
  });

  it('links a reply to the changed auto-reply it opens, on whichever page draws it, and every link lands', () => {
    const pageOf = new Map<string, string>();
    for (const [file, doc] of changes) for (const s of doc.querySelectorAll('section.change')) pageOf.set(s.id, file);
    const target = pageOf.get('chg-autoReply.ar500') as string;
    const from = pageOf.get('chg-autoReply.ar499') as string;
    expect(target).not.toBe(from);
    // A create in a reply cycle (a create, then a link step) is drawn as created, with its link, not as deleted.
    expect(change(from).querySelector('[id="chg-autoReply.ar499"] .side.after .absent')).toBeNull();
    expect(change(from).querySelector('[id="chg-autoReply.ar499"] .side.after a.chip')?.getAttribute('href')).toBe(`${target}#chg-autoReply.ar500`);
    let checked = 0;
    for (const [file, doc] of changes) {
      for (const a of doc.querySelectorAll('a[href]')) {
        const href = a.getAttribute('href') as string;
        const [to = '', id] = href.split('#');
        expect(to === '' || changes.has(to), `${file}: ${href}`).toBe(true);
        if (id !== undefined) expect((to === '' ? doc : change(to)).getElementById(id), `${file}: ${href}`).not.toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(N);
  });
});
