// The preview model and its HTML, without a browser: what each messagebase is
// drawn as, the action kinds, where links go, the findings, escaping, and the
// page's structure (landmarks, alt text, in-page links only, no network).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import type { DesiredBrand, Diagnostic } from '../../src/manifest/types.js';
import { brandPage, brandView, handsetsIn, type BrandView } from '../../src/preview/index.js';
import { describeAction, linkFindings, messageView, outgoing, shownIn, type MessageView, type Resolvers, type RoomView } from '../../src/kinds/handset-model.js';
import { cli, EXAMPLE, ROOT } from '../e2e/helpers.js';

let brand: DesiredBrand;
let diagnostics: Diagnostic[];
beforeAll(async () => {
  const result = await loadManifests([EXAMPLE], { env: {}, cwd: ROOT });
  brand = result.brands[0] as DesiredBrand;
  diagnostics = result.diagnostics;
});

/** The messages and rooms of a brand's page, as their kinds model them. */
const messagesOf = (view: BrandView): MessageView[] => handsetsIn(view, 'replies').map((h) => h.view as MessageView);
const roomsOf = (view: BrandView): RoomView[] => handsetsIn(view, 'rooms').map((h) => h.view as RoomView);

const plain: Resolvers = { image: (value, alt) => ({ name: String(value), alt }), link: (r) => ({ name: r.autoReply ?? r.autoReplyMsgId ?? '?' }) };

describe('the example brand as a handset shows it', () => {
  it('draws each messagebase its own way: bubble, card with image, slides', () => {
    const view = brandView(brand, diagnostics, ROOT);
    const layouts = Object.fromEntries(messagesOf(view).map((m) => [m.address, [m.layout, m.cards.length]]));
    expect(layouts).toEqual({
      'autoReply.welcome': ['bubble', 1],
      'autoReply.hours': ['card', 1],
      'autoReply.location': ['card', 1],
      'autoReply.menu': ['slides', 2],
      'autoReply.events': ['card', 1],
      'autoReply.loyalty': ['bubble', 1],
    });
  });

  it('inlines the manifest images as data URIs, with alt text naming the card', () => {
    const hours = byAddress(messagesOf(brandView(brand, diagnostics, ROOT)), 'autoReply.hours');
    const media = hours.cards[0]?.media;
    expect(media?.src).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from((media?.src ?? '').split(',')[1] ?? '', 'base64').equals(brand.files.get('hero')?.file.bytes as Buffer)).toBe(true);
    expect(media?.alt).toBe('Image for “Opening hours” (hero-ff7131fa55b5.png)');
  });

  it('puts slide buttons on their own card and names every action kind', () => {
    const menu = byAddress(messagesOf(brandView(brand, diagnostics, ROOT)), 'autoReply.menu');
    expect(menu.cards.map((c) => c.buttons.map((b) => [b.path, b.kind, b.label, b.detail ?? b.target?.name]))).toEqual([
      [['buttons[0].suggestions[0]', 'link', 'Order ahead', 'https://example.com/coffee-co/order']],
      [['buttons[1].suggestions[0]', 'reply', 'Loyalty card', 'Loyalty card']],
    ]);
    const loyalty = byAddress(messagesOf(brandView(brand, diagnostics, ROOT)), 'autoReply.loyalty');
    expect(loyalty.chips.map((c) => [c.kind, c.target?.key ?? c.detail])).toEqual([
      ['reply', 'ar-welcome'],
      ['dial', '0212345678'],
    ]);
  });

  it('shows each room with its display flags and its menu linking to auto-replies', () => {
    const [main, events] = roomsOf(brandView(brand, diagnostics, ROOT));
    expect(main).toMatchObject({ name: 'Coffee Co', shownIn: 'channel, search, home', inputEnabled: true, rcsReply: '1', safetyMark: true, description: 'Fresh coffee daily' });
    expect(main?.menu?.map((i) => [i.kind, i.label, i.target?.key ?? i.detail])).toEqual([
      ['reply', 'Opening hours', 'ar-hours'],
      ['reply', "Today's menu", 'ar-menu'],
      ['reply', 'Find us', 'ar-location'],
      ['dial', 'Call us', '0212345678'],
    ]);
    expect(main?.logo?.src).toMatch(/^data:image\/png;base64,/);
    // The events room leaves its menu out: not managed, which is not the same as none.
    expect(events).toMatchObject({ shownIn: 'channel, search', inputEnabled: false, rcsReply: '0' });
    expect(events?.menu).toBeUndefined();
  });

  it('finds the auto-reply nothing links to, and the dead end', () => {
    const findings = brandView(brand, diagnostics, ROOT).findings.map((f) => [f.code, f.severity, f.key]);
    expect(findings).toEqual([
      ['unreachable', 'warning', 'ar-events'],
      ['dead-end', 'info', 'ar-events'],
    ]);
  });
});

describe('the model on hand-made messages', () => {
  it('draws an unknown messagebase as a generic card, keeping every field', () => {
    const m = messageView({ key: 'k', address: 'autoReply.k', name: 'K', messagebaseId: 'XYZ00000', body: { title: 'T', extra: 'E', subTitle2: 'S' } }, plain);
    expect(m.layout).toBe('generic');
    expect(m.template).toBeUndefined();
    expect(m.cards.map((c) => [c.title?.text, c.other.map((o) => o.field)])).toEqual([
      ['T', ['extra']],
      [undefined, ['subTitle2']],
    ]);
  });

  it('knows the aliases the service stores (CCwMhM0600 is slides, SCL00000 a bubble)', () => {
    for (const [id, layout] of [['CCwMhM0600', 'slides'], ['SCL00000', 'bubble'], ['SCwThT00', 'card']] as const) {
      expect(messageView({ key: 'k', address: 'a', name: 'n', messagebaseId: id, body: {} }, plain).layout).toBe(layout);
    }
  });

  it('names every action kind the service defines, and says "action" for one it does not', () => {
    expect(describeAction({ displayText: 'x', urlAction: { openUrl: { url: 'https://a' } } })).toEqual({ kind: 'link', detail: 'https://a' });
    expect(describeAction({ dialerAction: { dialPhoneNumber: { phoneNumber: '02' } } })).toEqual({ kind: 'dial', detail: '02' });
    expect(describeAction({ mapAction: { showLocation: { location: { query: 'Seoul' } } } })).toEqual({ kind: 'map', detail: 'Seoul' });
    expect(describeAction({ calendarAction: { createCalendarEvent: { title: 'T' } } }).kind).toBe('calendar');
    expect(describeAction({ clipboardAction: { copyToClipboard: { text: 'c' } } }).kind).toBe('copy');
    expect(describeAction({ composeAction: { composeTextMessage: { text: 'hi' } } }).kind).toBe('compose');
    expect(describeAction({ localBrowserAction: { openUrl: { url: 'https://b' } } })).toEqual({ kind: 'link', detail: 'https://b' });
    expect(describeAction({ postback: { data: 'x' }, fooAction: {} })).toEqual({ kind: 'action' });
  });

  it('reports a dead end as a warning when no room has a menu, and links that leave the manifests', () => {
    const views = [
      messageView({ key: 'a', address: 'autoReply.a', name: 'A', messagebaseId: 'SCS00000', body: { description: 'a' }, chipList: [{ reply: { autoReply: 'b' } }, { reply: { autoReplyMsgId: 'ARM-X' } }] }, {
        ...plain,
        link: (r) => (r.autoReply !== undefined ? { key: r.autoReply, name: r.autoReply.toUpperCase() } : { name: r.autoReplyMsgId ?? '' }),
      }),
      messageView({ key: 'b', address: 'autoReply.b', name: 'B', messagebaseId: 'SCS00000', body: { description: 'b' } }, plain),
    ];
    expect(linkFindings(views.map((v) => ({ key: v.key, name: v.name, links: outgoing(v), opened: true }))).map((f) => [f.code, f.severity, f.key])).toEqual([
      ['unreachable', 'warning', 'a'],
      ['dead-end', 'warning', 'b'],
      ['external-link', 'info', 'a'],
    ]);
  });

  it('reads display flags', () => {
    expect([shownIn('11'), shownIn('10'), shownIn('01'), shownIn('00'), shownIn(undefined)]).toEqual(['channel, search, home', 'channel, search', 'channel, home', 'channel', undefined]);
  });
});

describe('the page', () => {
  let doc: HTMLElement;
  beforeAll(() => {
    doc = parse(brandPage(brandView(brand, diagnostics, ROOT), '0.0.0'));
  });

  it('has landmarks, a title, a language and a heading per handset', () => {
    expect(doc.querySelector('html')?.getAttribute('lang')).toBe('en');
    // The example brand declares no profile: the folder that declares it, never a room's name.
    expect(doc.querySelector('title')?.text).toBe('examples/brand (BR.demo000001): preview');
    for (const sel of ['header', 'nav[aria-label="Contents"]', 'main#main', 'aside[aria-labelledby="findings-h"]', 'footer']) expect(doc.querySelector(sel), sel).not.toBeNull();
    const handsets = doc.querySelectorAll('article.handset');
    expect(handsets).toHaveLength(8);
    for (const h of handsets) expect(doc.getElementById(h.getAttribute('aria-labelledby') as string)?.tagName, h.id).toBe('H3');
  });

  it('gives every image alt text, and loads nothing: images are data URIs, links stay on the page', () => {
    const images = doc.querySelectorAll('img');
    expect(images.length).toBeGreaterThanOrEqual(8);
    for (const img of images) {
      expect(img.getAttribute('alt')?.length ?? 0).toBeGreaterThan(0);
      expect(img.getAttribute('src')).toMatch(/^data:image\//);
    }
    const links = doc.querySelectorAll('a[href]');
    expect(links.length).toBeGreaterThan(0);
    for (const a of links) {
      const href = a.getAttribute('href') as string;
      expect(href, a.outerHTML).toMatch(/^#/);
      expect(doc.getElementById(href.slice(1)), href).not.toBeNull();
    }
    expect(doc.querySelectorAll('script, link, iframe, object, embed')).toHaveLength(0);
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toContain("default-src 'none'");
  });

  it('makes each reply chip a link to the auto-reply it opens, and shows URLs as text only', () => {
    const chip = doc.querySelectorAll('#ar-welcome .chip');
    expect(chip.map((c) => [c.getAttribute('href'), c.querySelector('.label')?.text])).toEqual([
      ['#ar-hours', 'Opening hours'],
      ['#ar-menu', "Today's menu"],
      ['#ar-location', 'Find us'],
    ]);
    const map = doc.querySelector('#ar-location .btn');
    expect(map?.tagName).toBe('SPAN');
    expect(map?.querySelector('.kind')?.text).toBe('link');
    expect(map?.querySelector('.detail')?.text).toBe('https://example.com/coffee-co/map');
    expect(doc.querySelectorAll('#room-0212345678 nav.menu a').map((a) => a.getAttribute('href'))).toEqual(['#ar-hours', '#ar-menu', '#ar-location']);
  });

  it('titles a brand without a profile by its folder, never by a room; the handsets keep the room name', () => {
    const bare = { ...brand, brandProfile: new Map() } as DesiredBrand;
    const view = brandView(bare, [], ROOT);
    expect(view.title).toBe('examples/brand');
    const page = parse(brandPage(view, '0'));
    expect(page.querySelector('title')?.text).toBe('examples/brand (BR.demo000001): preview');
    const room = [...bare.chatbots.values()][0]?.subTitle as string;
    expect(page.querySelector('title')?.text).not.toContain(room);
    expect(page.querySelectorAll('.room-name').map((n) => n.text)).toContain(room);
    // Declared in the working folder: the id alone.
    const here = brandPage(brandView({ ...bare, source: { ...bare.source, file: 'brand.yaml' } }, [], ROOT), '0');
    expect(parse(here).querySelector('title')?.text).toBe('BR.demo000001: preview');
  });

  it("shows the brand's logo on every message handset, with rooms or without", () => {
    const avatars = (b: DesiredBrand): (string | undefined)[] =>
      parse(brandPage(brandView(b, [], ROOT), '0'))
        .querySelectorAll('article.handset:not(.room):not(.home) .bar .avatar')
        .map((a) => a.getAttribute('alt'));
    const logo = `${[...brand.logos.values()][0]?.name} (logo)`;
    expect(new Set(avatars(brand))).toEqual(new Set([logo]));
    // Without a room the logo is still the brand's picture (it was drawn only when a room took it).
    expect(new Set(avatars({ ...brand, chatbots: new Map() } as DesiredBrand))).toEqual(new Set([logo]));
  });

  it('escapes manifest text', () => {
    const hostile = { ...brand, autoReplies: new Map(brand.autoReplies) };
    const welcome = brand.autoReplies.get('welcome');
    if (welcome === undefined) throw new Error('example brand changed');
    hostile.autoReplies.set('welcome', { ...welcome, name: '<script>alert(1)</script>', body: { description: '"><img src=x onerror=alert(1)>' } });
    const html = brandPage(brandView(hostile, [], ROOT), '0');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(parse(html).querySelector('#ar-welcome .desc')?.text).toBe('"><img src=x onerror=alert(1)>');
  });
});

describe('rcsctl preview', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'rcsctl-preview-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes one page per brand and an index, offline', async () => {
    const r = await cli(['preview', 'examples/brand', '-o', out], { env: {} });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `BR.demo000001: 6 auto-replies, 2 rooms, 2 findings: ${join(out, 'BR.demo000001', 'index.html')}\n` +
        '  warning: nothing links to “Events”: no reply, button or menu item opens it\n' +
        '  info: “Events” has no reply leading on; only the room menu does\n',
    );
    const index = parse(readFileSync(join(out, 'index.html'), 'utf8'));
    expect(index.querySelector('a')?.getAttribute('href')).toBe('BR.demo000001/index.html');
    expect(readFileSync(join(out, 'BR.demo000001', 'index.html'), 'utf8')).toContain('id="ar-welcome"');
  });

  it('refuses invalid manifests, naming the error, and writes nothing', async () => {
    const r = await cli(['preview', 'test/fixtures/manifests/202-autoreply-missing-name.yaml', '-o', join(out, 'bad')], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/202-autoreply-missing-name\.yaml:\d+:\d+/);
    expect(() => readFileSync(join(out, 'bad', 'index.html'))).toThrow();
  });
});

function byAddress(messages: MessageView[], address: string): MessageView {
  const m = messages.find((x) => x.address === address);
  if (m === undefined) throw new Error(`no ${address}`);
  return m;
}
