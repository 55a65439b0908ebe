// What a handset shows is open to kinds (issue 40): a test-only kind brings a
// drawing none of the built-in kinds has (a stamp card: a section of its own
// on the brand's page with its own handset and style rules, an offer drawn into
// the room it is given in, and its changes drawn before and after), and the
// preview shows it without a line of src/preview knowing it.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_GATE } from '../../src/core/step.js';
import { esc, phone } from '../../src/kinds/handset-draw.js';
import type { KindPreview } from '../../src/kinds/handset.js';
import { registerKind, unregisterKind, type ResourceKind } from '../../src/kinds/index.js';
import type { Previewable } from '../../src/kinds/resource-kind.js';
import { loadManifests } from '../../src/manifest/index.js';
import { desiredSection, type DesiredBrand, type SourceLocation } from '../../src/manifest/types.js';
import type { BrandPlan } from '../../src/plan/types.js';
import { brandPage, brandView, changesPage, changesView, contextFromPlan, handsetsIn } from '../../src/preview/index.js';
import { cli, EXAMPLE, ROOT } from '../e2e/helpers.js';

const BRAND = 'BR.demo000001';
const ROOM = '0212345678';

/** A stamp card as the manifest declares it: so many stamps for a reward, offered in a room. */
interface DesiredStampCard {
  handle: string;
  name: string;
  stamps: number;
  reward: string;
  room: string;
  source: SourceLocation;
}

/** The card on a handset: a row of stamps and the reward. */
const card = (name: string, stamps: number, reward: string): string => `<ol class="stamps" aria-label="${esc(name)}">${'<li class="stamp"></li>'.repeat(stamps)}</ol><p class="reward">${esc(reward)}</p>`;

const stampPreview: KindPreview<DesiredStampCard> = {
  page: {
    id: 'stamp-cards',
    heading: 'Stamp cards',
    toc: 'Stamp cards',
    order: 25,
    anchor: 'stamp',
    counted: true,
    name: (d) => d.name,
    handset(d, ctx) {
      return {
        key: ctx.anchor,
        address: ctx.address,
        name: d.name,
        links: [],
        view: d,
        html: (o) =>
          `<article class="handset stamp-card" id="${esc(ctx.anchor)}" data-address="${esc(ctx.address)}"><h3 class="caption">${esc(d.name)}</h3><p class="meta">${esc(ctx.where(d.source))}</p>` +
          phone(o.barName, o.avatar, card(d.name, d.stamps, d.reward)) +
          `</article>`,
      };
    },
  },
  partOf: {
    of: (d) => ({ kind: 'chatbot', key: d.room }),
    part: (d) => ({ links: [], html: (_o, host) => `<p class="stamp-offer">${esc(host.name)} offers ${esc(d.name)}: ${d.stamps} stamps for ${esc(d.reward)}</p>` }),
  },
  change: {
    noun: 'stamp card',
    handset(value, ctx) {
      const v = value as { name: string; stamps: number; reward: string };
      return { key: ctx.anchor, address: ctx.step.address, name: v.name, links: [], view: v, html: (o) => `<article class="handset stamp-card">${phone(o.barName, o.avatar, card(v.name, v.stamps, v.reward))}</article>` };
    },
  },
  css: '.stamps{display:grid;grid-template-columns:repeat(5,1fr);gap:.3rem;list-style:none;padding:0}.stamp{aspect-ratio:1;border:2px dashed var(--accent);border-radius:50%}',
};

const stampKind: ResourceKind<DesiredStampCard, never, 'stampCard'> & Previewable<DesiredStampCard> = {
  name: 'stampCard',
  label: 'stamp card',
  preview: stampPreview,
  manifest: {
    section: 'stampCards',
    order: 70,
    schema: {
      property: { description: 'Stamp cards, by handle.', type: 'object', propertyNames: { $ref: '#/definitions/handle' }, additionalProperties: { $ref: '#/definitions/stampCard' } },
      definitions: {
        stampCard: {
          description: 'A stamp card.',
          type: 'object',
          additionalProperties: false,
          required: ['name', 'stamps', 'reward', 'room'],
          properties: {
            name: { description: 'Its name.', type: 'string', minLength: 1 },
            stamps: { description: 'Stamps to collect.', type: 'integer', minimum: 1, maximum: 20 },
            reward: { description: 'What they earn.', type: 'string' },
            room: { description: 'The room that offers it.', type: 'string' },
          },
        },
      },
    },
    async build(raw, ctx) {
      for (const [handle, s] of Object.entries(raw as Record<string, Omit<DesiredStampCard, 'handle' | 'source'>>)) {
        if (!ctx.once(handle, 'RCS403', 'stamp card handle')) continue;
        ctx.add(handle, { handle, ...s, source: ctx.locationOf(['stampCards', handle]) });
      }
    },
  },
  desired: (brand) => [...((desiredSection(brand, 'stampCards') ?? new Map()) as Map<string, DesiredStampCard>).values()],
  live: () => [],
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.name,
    liveId: (l) => l,
    liveName: (l) => l,
    liveState: () => undefined,
  },

  diff: {
    match: (desired) => ({ pairs: [], missing: desired, extra: [], problems: [] }),
    normaliseLive: (l) => l,
    normaliseDesired: (d) => ({ name: d.name, stamps: d.stamps, reward: d.reward }),
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'create', request: { name: d.name } }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l, request: { name: d.name } }),
  },

  gates: { create: () => NO_GATE, update: () => NO_GATE, delete: () => ({ type: 'destructive' }) },
  read: { reread: async () => undefined },
  handlers: {},
};

const STAMPS = `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${BRAND} }
stampCards:
  coffee: { name: Coffee card, stamps: 8, reward: A free latte, room: "${ROOM}" }
`;

const html = (text: string): HTMLElement => parse(text, { blockTextElements: { script: true, style: true } });

describe('a kind that brings a drawing of its own', () => {
  let dir: string;
  let brand: DesiredBrand;
  let page: HTMLElement;
  let text: string;

  beforeAll(async () => {
    registerKind(stampKind);
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-stamps-'));
    writeFileSync(join(dir, 'stamps.yaml'), STAMPS);
    const loaded = await loadManifests([EXAMPLE, join(dir, 'stamps.yaml')], { env: {}, cwd: ROOT });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    brand = loaded.brands[0] as DesiredBrand;
    text = brandPage(brandView(brand, [], ROOT), 'test');
    page = html(text);
  });
  afterAll(() => {
    unregisterKind('stampCard');
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets a section of its own on the brand page, in the order it asks for, listed in the contents and counted by its label', () => {
    expect(page.querySelectorAll('main > section h2').map((h) => h.text)).toEqual(['Rooms and their menus', 'Stamp cards', 'Auto-replies']);
    const stamp = page.querySelector('#stamp-coffee');
    expect(stamp?.getAttribute('data-address')).toBe('stampCard.coffee');
    expect(stamp?.querySelectorAll('.stamp').length).toBe(8);
    expect(stamp?.querySelector('.reward')?.text).toBe('A free latte');
    expect(stamp?.querySelector('.room-name')?.text).toBe('Coffee Co');
    expect(page.querySelectorAll('nav.toc h2').map((h) => h.text)).toEqual(['Rooms', 'Stamp cards', 'Auto-replies']);
    expect(page.querySelector('nav.toc a[href="#stamp-coffee"]')?.text).toBe('Coffee card');
    expect(page.querySelector('header.top p')?.text).toMatch(/ · 2 rooms · 1 stamp card · \d+ findings?$/);
    expect(handsetsIn(brandView(brand, [], ROOT), 'stamp-cards').map((h) => h.view)).toEqual([expect.objectContaining({ handle: 'coffee', stamps: 8 })]);
  });

  it('brings its style rules to the page', () => {
    expect(page.querySelector('style')?.text).toContain('.stamps{display:grid;');
  });

  it('is drawn into the room it names, after the room\'s menu', () => {
    const room = page.querySelector(`#room-${ROOM}`);
    expect(room?.querySelector('nav.menu')).not.toBeNull();
    expect(room?.querySelector('.stamp-offer')?.text).toBe('Coffee Co offers Coffee card: 8 stamps for A free latte');
    expect(room?.querySelector('.phone')?.innerHTML).toMatch(/<\/nav><p class="stamp-offer">.*<\/p><div class="input/);
    // The other room does not offer it.
    expect(page.querySelectorAll('.stamp-offer').length).toBe(1);
  });

  it('is counted in the preview command\'s summary', async () => {
    const out = join(dir, 'site');
    const r = await cli(['preview', EXAMPLE, join(dir, 'stamps.yaml'), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/auto-replies, 2 rooms, 1 stamp card, \d+ findings?/);
    expect(readFileSync(join(out, BRAND, 'index.html'), 'utf8')).toContain('id="stamp-coffee"');
  });

  it('draws a changed stamp card before and after on a plan\'s page, and names its changes in the page\'s words', () => {
    const plan: BrandPlan = {
      brandId: BRAND,
      steps: [
        {
          id: 'stampCard.coffee:update',
          kind: 'stampCard',
          op: 'update',
          address: 'stampCard.coffee',
          name: 'Coffee card',
          liveId: 'SC1',
          request: {},
          expected: { name: 'Coffee card', stamps: 10, reward: 'A free latte' },
          gate: NO_GATE,
          dependsOn: [],
          changes: [{ path: 'stamps', type: 'change', before: 8, after: 10 }],
        },
      ],
      snapshots: { 'stampCard.coffee': { state: 'live', value: { name: 'Coffee card', stamps: 8, reward: 'A free latte' } } },
      problems: [],
    } as unknown as BrandPlan;
    const changes = changesView(plan, contextFromPlan(plan));
    const doc = html(changesPage(BRAND, changes, { title: 'Coffee Co', version: '0' }));
    const section = doc.querySelector('#chg-stampCard\\.coffee') ?? doc.querySelectorAll('section.change')[0];
    expect(section?.querySelector('.side.before')?.querySelectorAll('.stamp').length).toBe(8);
    expect(section?.querySelector('.side.after')?.querySelectorAll('.stamp').length).toBe(10);
    expect(doc.querySelector('header.top p')?.text).toContain('1 auto-reply or menu or layout or stamp card change');
    expect(doc.querySelector('style')?.text).toContain('.stamps{display:grid;');
  });

  it('leaves a brand that declares none without its section or count', async () => {
    const loaded = await loadManifests([EXAMPLE], { env: {}, cwd: ROOT });
    const without = html(brandPage(brandView(loaded.brands[0] as DesiredBrand, [], ROOT), 'test'));
    expect(without.querySelectorAll('main > section h2').map((h) => h.text)).toEqual(['Rooms and their menus', 'Auto-replies']);
    expect(without.querySelector('header.top p')?.text).not.toContain('stamp');
  });
});
