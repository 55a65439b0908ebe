// The preview in a real browser: headless Chromium driven by playwright-core
// (one launch for the whole file). Each page is screenshotted and checked: not
// blank, every auto-reply's card drawn where the DOM says, reply chips and menu
// items open the auto-reply they link to, and not one resource loaded from
// anywhere; a brand's layouts are drawn as cards with their components in
// order, inside the handset, the button in its colour. The browser is the one an npm package ships, or CHROMIUM_PATH's
// (test/chromium.ts): nothing is installed by hand.
//
// The `graph` command's Mermaid output is parsed here too, by Mermaid itself
// (it needs a DOM), in the same browser.
//
// UPDATE_SCREENSHOTS=1 writes the screenshots to docs/img/ (shown in docs/preview.md).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { launchChromium } from '../chromium.js';
import { cli, ROOT } from '../e2e/helpers.js';
import { useEmulator } from '../emulator/helpers.js';

// The page.evaluate callbacks run in the browser. The test build has Node's types
// and no DOM (adding the DOM library would change every other file's types), so
// the page globals they use are declared here, loosely, for this file only.
declare const document: any, window: any, mermaid: any, location: any, getComputedStyle: any, scrollX: number, scrollY: number, innerHeight: number;

const FIXTURE = join(ROOT, 'test', 'fixtures', 'preview');
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'img') : undefined;

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: join(FIXTURE, 'live-seed.yaml') });

let dir: string | undefined;
let context: BrowserContext | undefined;
/** Every URL any page asked for, in order, and the pages opened. */
const requested: string[] = [];
const opened: string[] = [];

beforeAll(async () => {
  const tmp = (dir = mkdtempSync(join(tmpdir(), 'rcsctl-browser-')));
  context = await launchChromium(tmp);
  context.on('request', (r) => requested.push(r.url()));
  const brand = await cli(['preview', 'examples/brand', '-o', join(tmp, 'brand')], { env: {} });
  expect(brand.code, brand.stderr).toBe(0);
  const home = await cli(['preview', join(FIXTURE, 'home'), '-o', join(tmp, 'home')], { env: {} });
  expect(home.code, home.stderr).toBe(0);
  const plan = await cli(['plan', join(FIXTURE, 'changed'), '--preview', join(tmp, 'changes')], { emu });
  expect(plan.code, plan.stderr).toBe(0);
}, 60_000);

// Safe after a failed beforeAll: whatever it did not create is not there to close.
afterAll(async () => {
  await context?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The browser and the scratch folder, once beforeAll has made them. */
function ready(): { context: BrowserContext; dir: string } {
  if (context === undefined || dir === undefined) throw new Error('the browser did not start (see the beforeAll error)');
  return { context, dir };
}

async function open(path: string): Promise<{ page: Page; url: string }> {
  const page = await ready().context.newPage();
  const url = pathToFileURL(path).href;
  opened.push(url);
  await page.goto(url);
  return { page, url };
}

/** A decoded screenshot, and how to read it. */
function decode(png: Buffer): PNG {
  return PNG.sync.read(png);
}

/** How many pixels of the box have the colour (±2 per channel). */
function pixelsOf(img: PNG, box: Box, rgb: [number, number, number]): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(img.height, box.y + box.height); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(img.width, box.x + box.width); x++) {
      const i = (y * img.width + x) * 4;
      if (Math.abs((img.data[i] ?? 0) - rgb[0]) <= 2 && Math.abs((img.data[i + 1] ?? 0) - rgb[1]) <= 2 && Math.abs((img.data[i + 2] ?? 0) - rgb[2]) <= 2) n++;
    }
  }
  return n;
}

/** The share of the image taken by its most common colour. */
function dominantShare(img: PNG): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < img.data.length; i += 4) {
    const key = ((img.data[i] ?? 0) << 16) | ((img.data[i + 1] ?? 0) << 8) | (img.data[i + 2] ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(...counts.values()) / (img.width * img.height);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Each card (bubble or card) on the page: its handset, its box in page coordinates, and the colour that outlines it. */
async function cards(page: Page): Promise<{ address: string; box: Box; rgb: [number, number, number] }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('article.handset')].flatMap((h) => {
      const card = h.querySelector('.msg .bubble, .msg .card');
      if (card === null) return [];
      const r = card.getBoundingClientRect();
      const style = getComputedStyle(card);
      const colour = card.classList.contains('bubble') ? style.backgroundColor : style.borderTopColor;
      const rgb = (colour.match(/\d+/g) ?? []).slice(0, 3).map(Number) as [number, number, number];
      return [{ address: h.getAttribute('data-address') ?? '', box: { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }, rgb }];
    }),
  );
}

async function checkPage(page: Page, name: string): Promise<PNG> {
  const png = await page.screenshot({ fullPage: true });
  if (SHOTS !== undefined) {
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, name), png);
  }
  const img = decode(png);
  expect(img.width).toBe(1280);
  // Not blank: no colour covers most of the page.
  expect(dominantShare(img)).toBeLessThan(0.8);
  return img;
}

describe('the example brand in Chromium', () => {
  let page: Page;
  let url: string;
  beforeAll(async () => {
    ({ page, url } = await open(join(ready().dir, 'brand', 'BR.demo000001', 'index.html')));
  });

  it('is drawn, and each auto-reply card is where the DOM says', async () => {
    const img = await checkPage(page, 'preview-brand.png');
    const found = await cards(page);
    expect(found.map((c) => c.address)).toEqual(['autoReply.welcome', 'autoReply.hours', 'autoReply.location', 'autoReply.menu', 'autoReply.events', 'autoReply.loyalty']);
    for (const c of found) {
      expect(c.box.width, c.address).toBeGreaterThan(100);
      // The card's own colour (a bubble's fill, a card's border) is in the screenshot inside its box…
      const inside = pixelsOf(img, c.box, c.rgb);
      expect(inside, `${c.address}: ${JSON.stringify(c)}`).toBeGreaterThan(100);
      // …and nothing covers it: the element at its centre belongs to it.
      const top = await page.evaluate((address) => {
        const box = document.querySelector(`article[data-address="${address}"] .msg`);
        box?.scrollIntoView({ block: 'center' });
        const r = box?.getBoundingClientRect();
        const hit = r === undefined ? null : document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return box !== null && hit !== null && box.contains(hit);
      }, c.address);
      expect(top, c.address).toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('opens the linked auto-reply when a reply chip is clicked', async () => {
    const visible = (id: string): Promise<boolean> =>
      page.evaluate((target) => {
        const r = document.getElementById(target)?.getBoundingClientRect();
        return r !== undefined && r.top >= 0 && r.top < innerHeight;
      }, id);
    expect(await visible('ar-location')).toBe(false);
    await page.click('#ar-welcome a.chip[href="#ar-location"]');
    await page.waitForFunction(() => location.hash === '#ar-location');
    expect(await page.evaluate(() => document.querySelector(':target')?.getAttribute('data-address'))).toBe('autoReply.location');
    expect(await visible('ar-location')).toBe(true);
    // A menu item does the same from the room.
    await page.click('#room-0212345678 nav.menu a[href="#ar-menu"]');
    await page.waitForFunction(() => location.hash === '#ar-menu');
    expect(await visible('ar-menu')).toBe(true);
    // The button on the second slide of the menu leads on to the loyalty card.
    await page.click('#ar-menu a.btn[href="#ar-loyalty"]');
    await page.waitForFunction(() => location.hash === '#ar-loyalty');
    expect(await visible('ar-loyalty')).toBe(true);
    if (SHOTS !== undefined) writeFileSync(join(SHOTS, 'preview-after-click.png'), await page.screenshot());
  });

  it('loads no network resource: the page is its only request', async () => {
    expect(requested).toEqual([url]);
    expect(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))).toEqual([]);
  });
});

describe('the brand home in Chromium', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await open(join(ready().dir, 'home', 'BR.home000001', 'index.html')));
  });

  it('draws the header, the profile image and every home button, and its room list leads to the room', async () => {
    const img = await checkPage(page, 'preview-home.png');
    const drawn = await page.evaluate(() => {
      const home = document.querySelector('article.handset.home');
      const text = (sel: string): string | undefined => home?.querySelector(sel)?.textContent;
      const r = home?.querySelector('.screen img.home-profile')?.getBoundingClientRect();
      return {
        address: home?.getAttribute('data-address'),
        bar: text('.bar .room-name'),
        name: text('.home-name'),
        intro: text('.home-head .intro'),
        profile: r === undefined ? undefined : { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height },
        buttons: [...(home?.querySelectorAll('.buttons .sg.btn') ?? [])].map((b) => ({
          tag: b.tagName,
          kind: b.querySelector('.kind')?.textContent,
          label: b.querySelector('.label')?.textContent,
          detail: b.querySelector('.detail')?.textContent,
        })),
        rooms: [...(home?.querySelectorAll('nav.menu a.sg.item') ?? [])].map((a) => ({ text: a.textContent, href: a.getAttribute('href') })),
      };
    });
    expect(drawn).toMatchObject({ address: 'brandProfile.home', bar: '커피 코 Coffee Co', name: '커피 코 Coffee Co', intro: '매일 아침 볶는 원두, 역 앞 작은 카페' });
    // The manifest's two link buttons, then the call button the service adds below three,
    // dialling the brand's tel. URLs are text, never live links (docs/preview.md).
    expect(drawn.buttons).toEqual([
      { tag: 'SPAN', kind: 'link', label: 'web', detail: 'https://coffee.example' },
      { tag: 'SPAN', kind: 'link', label: 'order', detail: 'https://coffee.example/order' },
      { tag: 'SPAN', kind: 'dial', label: 'call', detail: '0212345678' },
    ]);
    // The profile image is drawn: the fixture's terracotta disc fills most of the box
    // (a missing or blank image has none of it).
    const box = drawn.profile;
    if (box === undefined) throw new Error('no profile image on the home');
    expect(box.width).toBeGreaterThan(40);
    expect(pixelsOf(img, box, [0xc8, 0x4b, 0x1e]), JSON.stringify(box)).toBeGreaterThan(0.4 * box.width * box.height);
    // The room list links to the room's handset, and clicking it opens that room.
    expect(drawn.rooms).toEqual([{ text: '커피 코', href: '#room-0212345678' }]);
    await page.click('article.handset.home nav.menu a[href="#room-0212345678"]');
    await page.waitForFunction(() => location.hash === '#room-0212345678');
    expect(await page.evaluate(() => document.querySelector(':target')?.getAttribute('data-address'))).toBe('chatbot.0212345678');
  });
});

describe('a before/after preview of a changed card in Chromium', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await open(join(ready().dir, 'changes', 'BR.demo000001', 'index.html')));
  });

  it('draws live and proposed side by side, with the changed parts outlined', async () => {
    const img = await checkPage(page, 'preview-changes.png');
    const found = await cards(page);
    expect(found.map((c) => c.address)).toEqual(['autoReply.hours', 'autoReply.hours']);
    const [live, proposed] = found as [(typeof found)[0], (typeof found)[0]];
    expect(proposed.box.x).toBeGreaterThan(live.box.x + live.box.width);
    expect(proposed.box.y).toBe(live.box.y);
    // The outline colours of removed (live) and added (proposed) parts are drawn inside each card.
    expect(pixelsOf(img, live.box, [0xc0, 0x26, 0x2d])).toBeGreaterThan(100);
    expect(pixelsOf(img, proposed.box, [0x1a, 0x7f, 0x37])).toBeGreaterThan(100);
    expect(pixelsOf(img, live.box, [0x1a, 0x7f, 0x37])).toBe(0);
  });

  it('loads no network resource', async () => {
    expect(requested).toEqual(opened);
    expect(await page.evaluate(() => performance.getEntriesByType('resource').length)).toBe(0);
  });
});

describe("a brand's layouts in Chromium", () => {
  let page: Page;
  beforeAll(async () => {
    const out = join(ready().dir, 'layouts');
    const r = await cli(['preview', join(ROOT, 'test', 'plan-cases', '110-layout-from-nothing', 'manifest.yaml'), '-o', out], { env: { BRAND_KEY: 'BK.demo0000000001' } });
    expect(r.code, r.stderr).toBe(0);
    ({ page } = await open(join(out, 'BR.demo000001', 'index.html')));
  });

  it('draws each layout as a card on its handset: its components in order, the table with its rows inside the card, the button in its colour, nothing covering them', async () => {
    const img = await checkPage(page, 'preview-layouts.png');
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll('article.handset.lo-handset')].map((h) => {
        const box = (el: any) => {
          const r = el.getBoundingClientRect();
          return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
        };
        const card = h.querySelector('.msg .lo-card');
        const screen = h.querySelector('.screen') ?? h;
        const button = h.querySelector('.lo-btn');
        return {
          address: h.getAttribute('data-address'),
          card: box(card),
          screen: box(screen),
          parts: [...h.querySelectorAll('.lo-part')].map((p) => ({ component: p.getAttribute('data-component'), box: box(p) })),
          rows: [...h.querySelectorAll('.lo-table tr')].map((tr) => box(tr)),
          button: button === null ? null : { box: box(button), colour: getComputedStyle(button).color, border: getComputedStyle(button).borderTopColor },
        };
      }),
    );
    expect(drawn.map((d) => d.address)).toEqual(['layout.receipt', 'layout.notice']);
    const receipt = drawn[0];
    if (receipt === undefined) throw new Error('no receipt');
    expect(receipt.parts.map((p) => p.component)).toEqual(['CP_TITLE_01', 'CP_TEXT_01', 'CP_TABLE_01', 'CP_BUTTON_01']);
    // Top to bottom in the order the areas give them, each inside the card, none overlapping the next.
    for (const [i, p] of receipt.parts.entries()) {
      expect(p.box.height, String(p.component)).toBeGreaterThan(5);
      expect(p.box.x).toBeGreaterThanOrEqual(receipt.card.x - 0.5);
      expect(p.box.x + p.box.width).toBeLessThanOrEqual(receipt.card.x + receipt.card.width + 0.5);
      const next = receipt.parts[i + 1];
      if (next !== undefined) expect(next.box.y).toBeGreaterThanOrEqual(p.box.y + p.box.height - 0.5);
    }
    // The card fits the handset's screen: nothing drawn outside the phone.
    expect(receipt.card.x).toBeGreaterThanOrEqual(receipt.screen.x - 0.5);
    expect(receipt.card.x + receipt.card.width).toBeLessThanOrEqual(receipt.screen.x + receipt.screen.width + 0.5);
    // The table's ten rows, each with a height, inside the card.
    expect(receipt.rows.length).toBe(10);
    for (const r of receipt.rows) {
      expect(r.height).toBeGreaterThan(5);
      expect(r.y + r.height).toBeLessThanOrEqual(receipt.card.y + receipt.card.height + 0.5);
    }
    // The button's text and border are the colour its options give (#3B2A1A), and that colour is on the screenshot inside it.
    expect(receipt.button?.colour).toBe('rgb(59, 42, 26)');
    expect(receipt.button?.border).toBe('rgb(59, 42, 26)');
    const button = receipt.button?.box;
    if (button === undefined) throw new Error('no button');
    expect(pixelsOf(img, button, [59, 42, 26]), JSON.stringify(button)).toBeGreaterThan(20);
    // Nothing covers the card: the element at its centre belongs to it.
    const top = await page.evaluate(() => {
      const card = document.querySelector('article[data-address="layout.receipt"] .lo-card');
      card?.scrollIntoView({ block: 'center' });
      const r = card?.getBoundingClientRect();
      const hit = r === undefined ? null : document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return card !== null && hit !== null && card.contains(hit);
    });
    expect(top).toBe(true);
    expect(requested).toEqual(opened);
  });
});

describe('graph output parsed by Mermaid', () => {
  let page: Page;
  const texts: Record<string, string> = {};
  beforeAll(async () => {
    texts.brand = (await cli(['graph', 'examples/brand'], { env: {} })).stdout;
    const planFile = join(ready().dir, 'scratch.json');
    expect((await cli(['--sandbox', 'plan', 'examples/brand', '-o', planFile], { env: {} })).code).toBe(0);
    texts.plan = (await cli(['graph', '--plan', planFile], { env: {} })).stdout;
    const markdown = (await cli(['show', planFile, '--format', 'markdown', '--graph'], { env: {} })).stdout;
    texts.markdown = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    page = await ready().context.newPage();
    await page.setContent('<!doctype html><html lang="en"><body><main id="out"></main></body></html>');
    await page.addScriptTag({ path: join(ROOT, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js') });
    await page.evaluate(() => mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  });

  const parses = (text: string): Promise<string> =>
    page.evaluate(async (t) => {
      try {
        await mermaid.parse(t);
        return 'ok';
      } catch (err) {
        return String(err);
      }
    }, text);

  it('parses the brand graph, the plan graph and the graph in the Markdown plan', async () => {
    for (const [name, text] of Object.entries(texts)) {
      expect(text, name).toMatch(/^flowchart LR\n/);
      expect(await parses(text), name).toBe('ok');
    }
  });

  it('rejects a broken graph (the check can fail)', async () => {
    expect(await parses(`${texts.brand}  n0 -->|"unclosed n1\n`)).not.toBe('ok');
  });

  it('renders the brand graph, with every node and edge, loading nothing', async () => {
    const drawn = await page.evaluate(async (t) => {
      const { svg } = await mermaid.render('brand-graph', t);
      document.getElementById('out').innerHTML = svg;
      return { nodes: document.querySelectorAll('#out g.node').length, edges: document.querySelectorAll('#out path.flowchart-link').length };
    }, texts.brand);
    expect(drawn).toEqual({ nodes: 13, edges: 16 });
    if (SHOTS !== undefined) writeFileSync(join(SHOTS, 'graph-brand.png'), await page.locator('#out svg').screenshot());
    expect(requested).toEqual(opened);
  });
});

describe('a brand of 501 auto-replies, drawn on two pages, in Chromium', () => {
  it('opens the auto-reply a chip links to on the other page, loading only that page', async () => {
    const { dir: tmp } = ready();
    const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', '  id: BR.big0000001', 'autoReplies:'];
    for (let i = 0; i < 501; i++) {
      lines.push(`  ar${i}:`, `    name: "Reply ${i}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Reply number ${i}"`, '    chipList:', `      - reply: { autoReply: ar${(i + 1) % 501}, displayText: Next }`);
    }
    writeFileSync(join(tmp, 'big.yaml'), lines.join('\n') + '\n');
    const r = await cli(['preview', join(tmp, 'big.yaml'), '-o', join(tmp, 'big')], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const folder = join(tmp, 'big', 'BR.big0000001');
    const { page } = await open(join(folder, 'page-001.html'));
    const second = pathToFileURL(join(folder, 'page-002.html')).href;
    opened.push(second);
    await page.click('#ar-ar499 a.chip[href="page-002.html#ar-ar500"]');
    await page.waitForURL(`${second}#ar-ar500`);
    expect(await page.evaluate(() => document.querySelector(':target')?.getAttribute('data-address'))).toBe('autoReply.ar500');
    expect(await page.evaluate(() => {
      const box = document.getElementById('ar-ar500')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < innerHeight;
    })).toBe(true);
    expect(requested.map((u) => u.split('#')[0])).toEqual(opened);
  });
});
