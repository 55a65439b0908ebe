// The done-when proof of "a kind is one folder": a kind defined only here (a
// "widget", with its own emulator route registered by this test) goes through
// validate, plan, apply, drift and export by the generic stages, through the
// CLI, with nothing in src/ knowing about it but the registry it is added to;
// `graph` draws it and `preview` shows it (as a message) by what it declares.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finding } from '../../src/core/finding.js';
import { liveSection } from '../../src/core/live.js';
import { NO_GATE } from '../../src/core/step.js';
import { authorizeBrand, ok, paged, startEmulator, type RequestContext, type Route, type RunningEmulator } from '../../src/emulator/index.js';
import { messagePreview } from '../../src/kinds/auto-reply/preview.js';
import { assignHandles } from '../../src/kinds/handles.js';
import { registerKind, unregisterKind, type ResourceKind } from '../../src/kinds/index.js';
import type { Doctored, Drawn, Exportable, Previewable, Prunable, ReportsUnmanaged, Stateful } from '../../src/kinds/resource-kind.js';
import { matchById } from '../../src/kinds/match.js';
import { desiredSection, type SourceLocation } from '../../src/manifest/types.js';
import { cli } from '../e2e/helpers.js';

const BRAND = 'BR.widget0001';
const TOKEN = 'emulator-master-token';

/** A widget as the (test's) service holds it. */
interface Widget {
  widgetId: string;
  name: string;
  color: string;
  state: string;
}

/** A widget as the manifest declares it. */
interface DesiredWidget {
  handle: string;
  name: string;
  color?: string;
  source: SourceLocation;
}

const widgetKind: ResourceKind<DesiredWidget, Widget, 'widget'> & Previewable<DesiredWidget> & Stateful<Widget> & Exportable<Widget> & Drawn<DesiredWidget> & Doctored & Prunable & ReportsUnmanaged = {
  name: 'widget',
  label: 'widget',
  prune: 'widgets',
  reportsUnmanaged: true,
  // Drawn as a message, with the drawing auto-replies bring (src/kinds/auto-reply/preview.ts).
  preview: messagePreview<DesiredWidget>({ name: (d) => d.name, shown: (d) => ({ name: d.name, messagebaseId: 'SS000000', body: { description: `A ${d.color ?? 'red'} widget` }, source: d.source }) }),
  drawing: { colour: ['#123456', '#654321'], details: (d) => [d.color ?? 'red'] },
  manifest: {
    section: 'widgets',
    order: 60,
    schema: {
      property: { description: 'Widgets, by handle.', type: 'object', propertyNames: { $ref: '#/definitions/handle' }, additionalProperties: { $ref: '#/definitions/widget' } },
      definitions: {
        widget: {
          description: 'A widget.',
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: { description: 'Its name.', type: 'string', minLength: 1 }, color: { description: 'Its color.', enum: ['red', 'blue'] } },
        },
      },
    },
    async build(raw, ctx) {
      for (const [handle, w] of Object.entries(raw as Record<string, { name: string; color?: string }>)) {
        if (!ctx.once(handle, 'RCS403', 'widget handle')) continue;
        ctx.add(handle, { handle, name: w.name, ...(w.color !== undefined ? { color: w.color } : {}), source: ctx.locationOf(['widgets', handle]) });
      }
    },
  },
  desired: (brand) => [...((desiredSection(brand, 'widgets') ?? new Map()) as Map<string, DesiredWidget>).values()],
  live: (live) => (liveSection(live, 'widgets') as Widget[] | undefined) ?? [],
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.name,
    liveId: (l) => l.widgetId,
    liveName: (l) => l.name,
    liveState: (l) => l.state,
  },

  diff: {
    match: (desired, live) => matchById(desired, live, (d) => d.name, (l) => l.name),
    normaliseLive: (l) => ({ name: l.name, color: l.color }),
    normaliseDesired: (d) => ({ name: d.name, color: d.color ?? 'red' }),
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'create', request: { name: d.name, color: d.color ?? 'red' } }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l.widgetId, request: { name: d.name, color: d.color ?? 'red' } }),
  },

  gates: { create: () => NO_GATE, update: () => NO_GATE, delete: () => ({ type: 'destructive' }) },
  read: {
    section: 'widgets',
    reader: { list: (env) => collect(env.client.list<Widget>(env.brand, '/widget', 'list widgets')) },
    async reread(client, brand, id) {
      const [w] = await client.call<Widget>(brand, { method: 'GET', path: `/widget/${id}`, operation: 'get widget' });
      return w === undefined ? undefined : { live: w, ctx: { liveName: () => undefined } };
    },
  },
  handlers: {
    create: async (step, env) => {
      const [made] = await env.client.call<{ widgetId: string }>(env.brand, { method: 'POST', path: '/widget', json: 'request' in step ? step.request : undefined, operation: 'create widget' });
      return made === undefined ? {} : { id: made.widgetId };
    },
    update: async (step, env) => {
      await env.client.call(env.brand, { method: 'PUT', path: `/widget/${step.liveId}`, json: 'request' in step ? step.request : undefined, operation: 'update widget' });
      return {};
    },
    delete: async (step, env) => {
      await env.client.call(env.brand, { method: 'DELETE', path: `/widget/${step.liveId}`, operation: 'delete widget' });
      return {};
    },
  },
  async doctor({ inspect, brand, base }) {
    const a = await inspect.get(`${base}/widget`, { query: { offset: 0, limit: 1000 }, brand });
    const n = Array.isArray((a.body as { result?: unknown } | undefined)?.result) ? (a.body as { result: unknown[] }).result.length : 0;
    return [{ id: 'widget-list', title: 'the widget list', status: a.error === undefined ? 'ok' : 'differs', assumed: 'GET widget answers a list', said: `HTTP ${a.status}, ${n} widgets`, doc: 'this test' }];
  },
  findingCodes: ['WIDGET_BROKEN'],
  findings: (address, l) => (l.state === 'broken' ? [finding('WIDGET_BROKEN', 'warning', address, `widget "${l.name}" is broken`, 'Fix it.')] : []),
  exporter: {
    section: 'widgets',
    handles: (list) => assignHandles(list, (w) => w.widgetId, (w) => w.name, 'widget'),
    entries(list, ctx) {
      const out: Record<string, unknown> = {};
      for (const w of list) out[ctx.handle('widget', w.widgetId) as string] = { name: w.name, color: w.color };
      return out;
    },
  },
};

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The test's own service side: widgets in a map, behind the emulator's auth. */
const widgets = new Map<string, Widget>();
let next = 1;
const BASE = '/api/1.1/brand/:brandId/widget';
const brandOf = (ctx: RequestContext): void => void authorizeBrand(ctx, ctx.params.brandId as string);
const routes: Route[] = [
  { method: 'GET', pattern: BASE, handler: (ctx) => (brandOf(ctx), paged(ctx, [...widgets.values()])) },
  { method: 'GET', pattern: `${BASE}/:id`, handler: (ctx) => (brandOf(ctx), ok(widgets.has(ctx.params.id as string) ? [widgets.get(ctx.params.id as string)] : [])) },
  {
    method: 'POST',
    pattern: BASE,
    handler: async (ctx) => {
      brandOf(ctx);
      const body = (await ctx.json()) as { name: string; color: string };
      const w: Widget = { widgetId: `W-${next++}`, name: body.name, color: body.color, state: 'ok' };
      widgets.set(w.widgetId, w);
      return ok([{ widgetId: w.widgetId }]);
    },
  },
  {
    method: 'PUT',
    pattern: `${BASE}/:id`,
    handler: async (ctx) => {
      brandOf(ctx);
      const w = widgets.get(ctx.params.id as string);
      if (w !== undefined) Object.assign(w, (await ctx.json()) as object);
      return ok([{ widgetId: ctx.params.id }]);
    },
  },
  { method: 'DELETE', pattern: `${BASE}/:id`, handler: (ctx) => (brandOf(ctx), widgets.delete(ctx.params.id as string), ok([{ widgetId: ctx.params.id }])) },
];

const SEED = `accounts:
  - { userId: master, role: master, token: ${TOKEN}, brands: [{ brandId: ${BRAND}, role: representative }] }
brands:
  - { brandId: ${BRAND}, brandKey: BK.widget00000001 }
`;

const MANIFEST = `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${BRAND} }
prune: [widgets]
widgets:
  blue: { name: Blue, color: blue }
`;

describe('a kind defined only in a test', () => {
  let emu: RunningEmulator;
  let dir: string;

  beforeAll(async () => {
    registerKind(widgetKind);
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-widget-'));
    writeFileSync(join(dir, 'seed.yaml'), SEED);
    writeFileSync(join(dir, 'brand.yaml'), MANIFEST);
    widgets.set('W-OLD', { widgetId: 'W-OLD', name: 'Old', color: 'red', state: 'ok' });
    emu = await startEmulator({ seed: join(dir, 'seed.yaml'), port: 0, routes });
  });
  afterAll(async () => {
    await emu.close();
    unregisterKind('widget');
    rmSync(dir, { recursive: true, force: true });
  });

  it('validates its section against its schema fragment, and is counted by its label', async () => {
    const good = await cli(['validate', join(dir, 'brand.yaml')]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^BR\.widget0001: valid \(.*, 0 agency files, 0 brand profiles, 1 widget, 0 privileges\)\n$/);
    writeFileSync(join(dir, 'bad.yaml'), MANIFEST.replace('color: blue', 'color: green'));
    const bad = await cli(['validate', join(dir, 'bad.yaml')]);
    rmSync(join(dir, 'bad.yaml'));
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/bad\.yaml:6:.*color/);
  });

  it('is drawn by graph as it declares: its node, details and colours', async () => {
    const r = await cli(['graph', join(dir, 'brand.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\["Blue<br\/>widget\.blue<br\/>blue"\]:::widget\n/);
    expect(r.stdout).toContain('classDef widget fill:#123456,stroke:#654321');
  });

  it('is shown by preview as the message it declares', async () => {
    const out = join(dir, 'preview');
    const r = await cli(['preview', join(dir, 'brand.yaml'), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 auto-reply');
    const html = readFileSync(join(out, BRAND, 'index.html'), 'utf8');
    expect(html).toContain('id="ar-blue"');
    expect(html).toContain('A blue widget');
  });

  it('plans, applies (create and prune), and plans nothing after', async () => {
    const plan = await cli(['plan', join(dir, 'brand.yaml')], { emu });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('widget.blue');
    expect(plan.stdout).toContain('widget.W-OLD');
    const apply = await cli(['apply', join(dir, 'brand.yaml'), '--yes', '--allow-delete'], { emu });
    expect(apply.code).toBe(0);
    expect([...widgets.values()].map((w) => [w.name, w.color])).toEqual([['Blue', 'blue']]);
    expect((await cli(['plan', join(dir, 'brand.yaml'), '--detailed-exitcode'], { emu })).code).toBe(0);
  });

  it('reports its drift and its own state finding', async () => {
    const live = [...widgets.values()][0] as Widget;
    live.color = 'red';
    live.state = 'broken';
    const drift = await cli(['drift', join(dir, 'brand.yaml'), '--format', 'json'], { emu });
    expect(drift.code).toBe(2);
    const codes = (JSON.parse(drift.stdout) as { brands: { resources: { address: string; findings: { code: string }[] }[] }[] }).brands[0]?.resources
      .filter((r) => r.address === 'widget.blue')
      .flatMap((r) => r.findings.map((f) => f.code));
    expect(codes?.sort()).toEqual(['DRIFT_CHANGED', 'WIDGET_BROKEN']);
  });

  it('brings its own doctor check, run after the service-wide ones', async () => {
    const r = await cli(['doctor', '--brand', BRAND, '--format', 'json'], { emu, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN } });
    const checks = (JSON.parse(r.stdout) as { checks: { id: string; status: string; said: string }[] }).checks;
    expect(checks.at(-1)).toEqual(expect.objectContaining({ id: 'widget-list', status: 'ok', said: expect.stringMatching(/^HTTP 200, \d+ widgets$/) }));
    expect(checks.map((c) => c.id)).toContain('brand');
  });

  it('exports its section, and the export plans empty', async () => {
    const out = join(dir, 'export');
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(exp.code).toBe(0);
    expect(exp.stdout).toContain(", 0 rooms, 0 bidirectional rooms, brand profile not read, 1 widget, privilege not read\n");
    expect(readFileSync(join(out, 'brand.yaml'), 'utf8')).toMatch(/widgets:\n {2}blue: \{ name: Blue, color: red \}/);
    expect((await cli(['plan', out, '--detailed-exitcode'], { emu })).code).toBe(0);
  });
});
