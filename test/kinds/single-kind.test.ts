// The generic hooks a singleton kind needs (one object per brand, update
// only, as a brand's home page is), exercised now with a small kind defined
// here and registered at run time: its section is one object
// (`manifest.single`), its image is checked by its own file use, only some
// fields go to review and the plan names them, a state blocks changes, the
// preview draws it as the brand's home (`preview: homePreview(…)`) and the graph draws
// its buttons' links. Nothing in src/ knows about it but the registry.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSection } from '../../src/core/live.js';
import { NO_GATE, type FieldChange } from '../../src/core/step.js';
import { registerKind, unregisterKind, type ResourceKind } from '../../src/kinds/index.js';
import type { Drawn, Previewable } from '../../src/kinds/resource-kind.js';
import type { FileUse } from '../../src/manifest/local-files.js';
import { loadManifests } from '../../src/manifest/load-manifests.js';
import type { DesiredBrand, LocalFile, SourceLocation } from '../../src/manifest/types.js';
import { brandGraph, renderMermaid } from '../../src/graph/graph.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { brandView, handsetsIn } from '../../src/preview/brand.js';
import { homePreview } from '../../src/kinds/brand-profile/preview.js';
import type { HomeView } from '../../src/kinds/handset-model.js';
import { brandPage } from '../../src/preview/site.js';
import { renderPlan } from '../../src/render/plan-text.js';
import { makeStyle } from '../../src/render/style.js';
import { cli } from '../e2e/helpers.js';
import { liveBrand } from './helpers.js';
import { png as wholePng } from '../emulator/helpers.js';

const BRAND = 'BR.demo000001';

interface DesiredHome {
  name: string;
  description?: string;
  picture?: LocalFile;
  buttons: { action?: object; reply?: { autoReply: string } }[];
  source: SourceLocation;
}
interface LiveHome {
  name: string;
  description: string;
  pictureName: string;
  state: string;
}

/** The test's image rule: png, square. */
const PICTURE: FileUse = { label: 'home picture', extensions: ['png'], maxBytes: 10_000, image: true, dimensions: (w, h) => (w === h ? undefined : 'it must be square') };

const REVIEWED = ['name', 'picture'];
const normal = (h: { name: string; description?: string; picture?: string }): Record<string, unknown> => ({ name: h.name, description: h.description ?? '', picture: h.picture ?? '' });

const homeKind: ResourceKind<DesiredHome, LiveHome, 'home'> & Previewable<DesiredHome> & Drawn<DesiredHome> = {
  name: 'home',
  label: 'brand home',
  // Drawn as the brand's home, with the drawing the brand profile brings (src/kinds/brand-profile/preview.ts).
  preview: homePreview<DesiredHome>((d) => ({ name: d.name, ...(d.description !== undefined ? { description: d.description } : {}), ...(d.picture !== undefined ? { profileImage: d.picture } : {}), buttons: d.buttons, source: d.source })),
  drawing: { links: (d) => d.buttons.flatMap((b) => (b.reply !== undefined ? [{ to: `autoReply.${b.reply.autoReply}`, label: 'button' }] : [])) },
  manifest: {
    section: 'home',
    single: true,
    order: 5,
    schema: {
      property: {
        description: 'The brand home.',
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { description: 'Its name.', type: 'string' },
          description: { description: 'What it says.', type: 'string' },
          picture: { description: 'A square png.', type: 'string' },
          buttons: { description: 'Buttons.', type: 'array', items: { type: 'object' } },
        },
      },
    },
    async build(raw, ctx) {
      const h = raw as { name: string; description?: string; picture?: string; buttons?: DesiredHome['buttons'] };
      const picture = h.picture === undefined ? undefined : await ctx.file(['home', 'picture'], h.picture, PICTURE);
      const d: DesiredHome = { name: h.name, buttons: h.buttons ?? [], source: ctx.locationOf(['home']), ...(h.description !== undefined ? { description: h.description } : {}), ...(picture !== undefined ? { picture } : {}) };
      (ctx.brand as unknown as Record<string, unknown>).home = d;
    },
  },
  desired: (brand) => {
    const d = (brand as unknown as Record<string, unknown>).home as DesiredHome | undefined;
    return d === undefined ? [] : [d];
  },
  live: (live) => {
    const l = liveSection(live, 'home') as LiveHome | undefined;
    return l === undefined ? [] : [l];
  },
  identity: {
    key: () => 'page',
    desiredName: (d) => d.name,
    liveId: () => BRAND,
    liveName: (l) => l.name,
    liveState: (l) => l.state,
  },

  diff: {
    match: (desired, live) => ({ pairs: desired[0] !== undefined && live[0] !== undefined ? [[desired[0], live[0]]] : [], missing: [], extra: [], problems: [] }),
    normaliseLive: (l) => normal({ name: l.name, description: l.description, picture: l.pictureName }),
    normaliseDesired: (d) => normal({ name: d.name, ...(d.description !== undefined ? { description: d.description } : {}), ...(d.picture !== undefined ? { picture: d.picture.uploadName } : {}) }),
    createStep: () => undefined,
    updateStep: (d, _l, _ctx, seed) => ({ ...seed, op: 'update', liveId: BRAND, request: { name: d.name } }),
  },

  gates: {
    create: () => NO_GATE,
    update: (l: LiveHome, changes: FieldChange[]) => {
      if (l.state === 'under review') return { type: 'blocked', state: l.state, reason: 'the home waits for review' };
      const fields = changes.map((c) => c.path).filter((p) => REVIEWED.includes(p));
      return fields.length === 0 ? NO_GATE : { type: 'review', review: 'a new name or picture goes to operator review', fields };
    },
    delete: () => ({ type: 'destructive' }),
  },
  // Never read from the service: the tests give its live section themselves.
  read: { reread: async () => undefined },
  handlers: {},
};

/** A whole png of `w`×`h` (the shared emulator helper: every chunk with its CRC). */
function png(w: number, h: number): Buffer {
  return wholePng(w, h);
}

const MANIFEST = (picture: string): string => `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${BRAND} }
home:
  name: Acme
  description: We sell beans
  picture: ${picture}
  buttons:
    - { reply: { autoReply: hours } }
    - { action: { displayText: Call us, dialerAction: { dialPhoneNumber: { phoneNumber: "0212345678" } } } }
autoReplies:
  hours: { name: Hours, messagebaseId: SCS00000, body: { description: Open 9-18 } }
`;

describe('a singleton kind registered at run time', () => {
  let dir: string;
  let brand: DesiredBrand;

  beforeAll(async () => {
    registerKind(homeKind);
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-home-'));
    writeFileSync(join(dir, 'square.png'), png(400, 400));
    writeFileSync(join(dir, 'wide.png'), png(400, 300));
    writeFileSync(join(dir, 'brand.yaml'), MANIFEST('square.png'));
    const loaded = await loadManifests([join(dir, 'brand.yaml')], { env: {}, cwd: dir });
    expect(loaded.diagnostics).toEqual([]);
    brand = loaded.brands[0] as DesiredBrand;
  });
  afterAll(() => {
    unregisterKind('home');
    rmSync(dir, { recursive: true, force: true });
  });

  it('validate counts its one object and checks its image by its own rule', async () => {
    const ok = await cli(['validate', join(dir, 'brand.yaml')]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^BR\.demo000001: valid \(1 brand home, 0 auto-reply files, 1 auto-reply, /);
    writeFileSync(join(dir, 'wide.yaml'), MANIFEST('wide.png'));
    const wide = await cli(['validate', join(dir, 'wide.yaml')]);
    expect(wide.code).toBe(1);
    expect(wide.stderr).toContain('error RCS307: home picture "wide.png" is 400x300; it must be square');
  });

  const live = (over: Partial<LiveHome> = {}) => ({ ...liveBrand(), home: { name: 'Acme', description: 'We sell beans', pictureName: homeKind.desired(brand)[0]?.picture?.uploadName ?? '', state: 'approved', ...over } });
  const withHours = (l: ReturnType<typeof live>) => ({ ...l, autoReplies: [{ autoReplyMsgId: 'ARM1', autoReplyMsgName: 'Hours', messagebaseId: 'SCS00000', copyAllowed: true, body: { description: 'Open 9-18' }, approvalResult: '승인', brandId: BRAND, registerDate: '', updateDate: '', registerId: '', updateId: '' }] });

  it('plans a review only for the reviewed fields, and says which changed fields send it there', () => {
    const plain = buildPlan(brand, withHours(live({ description: 'Old words' })) as never);
    expect(plain.steps.map((s) => [s.address, s.gate])).toEqual([['home.page', NO_GATE]]);
    const renamed = buildPlan(brand, withHours(live({ name: 'Acme Old', description: 'Old words' })) as never);
    expect(renamed.steps[0]?.gate).toEqual({ type: 'review', review: 'a new name or picture goes to operator review', fields: ['name'] });
    const text = renderPlan(renamed, makeStyle(false));
    expect(text).toContain('needs review: a new name or picture goes to operator review (reviewed: name)');
  });

  it('blocks a change while the object is under review, naming the state', () => {
    const plan = buildPlan(brand, withHours(live({ name: 'Acme Old', state: 'under review' })) as never);
    expect(plan.steps[0]?.gate).toEqual({ type: 'blocked', state: 'under review', reason: 'the home waits for review' });
    expect(renderPlan(plan, makeStyle(false))).toContain('blocked (under review): the home waits for review');
  });

  it('preview draws it as the brand home: header, profile image, buttons and the rooms', () => {
    const view = brandView(brand, [], dir);
    expect(view.title).toBe('Acme');
    const home = handsetsIn(view, 'home')[0]?.view as HomeView | undefined;
    expect(home).toMatchObject({ key: 'home-page', address: 'home.page', name: 'Acme', description: 'We sell beans', profileImage: { alt: 'Acme (profile image)' } });
    expect(home?.profileImage?.src).toMatch(/^data:image\/png;base64,/);
    expect(home?.buttons.map((b) => [b.kind, b.label, b.target?.key ?? b.detail])).toEqual([
      ['reply', 'Hours', 'ar-hours'],
      ['dial', 'Call us', '0212345678'],
    ]);
    const html = brandPage(view, 'test');
    expect(html).toContain('<h2 id="home-h">Brand home</h2>');
    expect(html).toMatch(/<article class="handset home" id="home-page" data-address="home.page"/);
    expect(html).toContain('<a class="sg btn kind-reply" href="#ar-hours"');
  });

  it('graph draws its buttons\' links', () => {
    const text = renderMermaid([brandGraph(brand)]);
    expect(text).toContain('n0["Acme<br/>home.page"]:::home');
    expect(text).toContain('n1["Hours<br/>autoReply.hours<br/>SCS00000"]:::autoReply');
    expect(text).toContain('n0 -->|"button"| n1');
  });
});
