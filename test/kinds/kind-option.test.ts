// A kind's own command-line option and the gate it lifts (`Optioned`), shown
// with a kind defined only here: a "dial" whose every change of `level` is
// refused unless the run sets --allow-turn. The CLI registers the flag on
// plan and apply by the registry alone, the plan marks the gate lifted when
// it is set, and apply's executor refuses the step otherwise, fresh or from
// a saved plan made without it. Nothing in src/ knows the kind or its flag.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveSection } from '../../src/core/live.js';
import { NO_GATE } from '../../src/core/step.js';
import { authorizeBrand, ok, paged, startEmulator, type RequestContext, type Route, type RunningEmulator } from '../../src/emulator/index.js';
import { kindOptions, registerKind, unregisterKind, type ResourceKind } from '../../src/kinds/index.js';
import type { Optioned } from '../../src/kinds/resource-kind.js';
import { matchById } from '../../src/kinds/match.js';
import { desiredSection, type SourceLocation } from '../../src/manifest/types.js';
import { cli } from '../e2e/helpers.js';

const BRAND = 'BR.dial000001';
const TOKEN = 'emulator-master-token';

interface Dial {
  dialId: string;
  name: string;
  level: number;
}
interface DesiredDial {
  handle: string;
  name: string;
  level: number;
  source: SourceLocation;
}

const dialKind: ResourceKind<DesiredDial, Dial, 'dial'> & Optioned = {
  name: 'dial',
  label: 'dial',
  options: [{ flag: 'allow-turn', description: 'run the steps that turn a dial (refused without it)' }],
  manifest: {
    section: 'dials',
    order: 61,
    schema: {
      property: { description: 'Dials, by handle.', type: 'object', additionalProperties: { $ref: '#/definitions/dial' } },
      definitions: {
        dial: { description: 'A dial.', type: 'object', additionalProperties: false, required: ['name', 'level'], properties: { name: { description: 'Its name.', type: 'string' }, level: { description: 'Its level.', type: 'integer' } } },
      },
    },
    async build(raw, ctx) {
      for (const [handle, d] of Object.entries(raw as Record<string, { name: string; level: number }>)) ctx.add(handle, { handle, name: d.name, level: d.level, source: ctx.locationOf(['dials', handle]) });
    },
  },
  desired: (brand) => [...((desiredSection(brand, 'dials') ?? new Map()) as Map<string, DesiredDial>).values()],
  live: (live) => (liveSection(live, 'dials') as Dial[] | undefined) ?? [],
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.name,
    liveId: (l) => l.dialId,
    liveName: (l) => l.name,
    liveState: () => undefined,
  },

  diff: {
    match: (desired, live) => matchById(desired, live, (d) => d.name, (l) => l.name),
    normaliseLive: (l) => ({ name: l.name, level: l.level }),
    normaliseDesired: (d) => ({ name: d.name, level: d.level }),
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'create', request: { name: d.name, level: d.level } }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l.dialId, request: { level: d.level } }),
  },

  gates: {
    create: () => NO_GATE,
    // The test's dangerous change: turning a dial.
    update: () => ({ type: 'option', option: 'allow-turn', reason: 'turning a dial is the dangerous change' }),
    delete: () => ({ type: 'destructive' }),
  },
  read: {
    section: 'dials',
    reader: { list: async (env) => collect(env.client.list<Dial>(env.brand, '/dial', 'list dials')) },
    async reread(client, brand, id) {
      const [d] = await client.call<Dial>(brand, { method: 'GET', path: `/dial/${id}`, operation: 'get dial' });
      return d === undefined ? undefined : { live: d, ctx: { liveName: () => undefined } };
    },
  },

  handlers: {
    update: async (step, env) => {
      await env.client.call(env.brand, { method: 'PUT', path: `/dial/${step.liveId}`, json: 'request' in step ? step.request : undefined, operation: 'turn dial' });
      return {};
    },
  },
};

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const dials = new Map<string, Dial>();
const BASE = '/api/1.1/brand/:brandId/dial';
const brandOf = (ctx: RequestContext): void => void authorizeBrand(ctx, ctx.params.brandId as string);
let turns = 0;
const routes: Route[] = [
  { method: 'GET', pattern: BASE, handler: (ctx) => (brandOf(ctx), paged(ctx, [...dials.values()])) },
  { method: 'GET', pattern: `${BASE}/:id`, handler: (ctx) => (brandOf(ctx), ok(dials.has(ctx.params.id as string) ? [dials.get(ctx.params.id as string)] : [])) },
  {
    method: 'PUT',
    pattern: `${BASE}/:id`,
    handler: async (ctx) => {
      brandOf(ctx);
      turns++;
      const d = dials.get(ctx.params.id as string);
      if (d !== undefined) d.level = ((await ctx.json()) as { level: number }).level;
      return ok([{ dialId: ctx.params.id }]);
    },
  },
];

const SEED = `accounts:
  - { userId: master, role: master, token: ${TOKEN}, brands: [{ brandId: ${BRAND}, role: representative }] }
brands:
  - { brandId: ${BRAND}, brandKey: BK.dial000000001 }
`;

const MANIFEST = `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${BRAND} }
dials:
  volume: { name: Volume, level: 11 }
`;

describe('a kind with an option of its own, and the gate it lifts', () => {
  let emu: RunningEmulator;
  let dir: string;
  let manifest: string;

  beforeAll(async () => {
    registerKind(dialKind);
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-dial-'));
    writeFileSync(join(dir, 'seed.yaml'), SEED);
    manifest = join(dir, 'brand.yaml');
    writeFileSync(manifest, MANIFEST);
    emu = await startEmulator({ seed: join(dir, 'seed.yaml'), port: 0, routes });
  });
  beforeEach(() => {
    dials.set('D-1', { dialId: 'D-1', name: 'Volume', level: 3 });
    turns = 0;
  });
  afterAll(async () => {
    await emu.close();
    unregisterKind('dial');
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds its flag to plan and apply, by the registry alone', async () => {
    expect(kindOptions().map((o) => o.flag)).toContain('allow-turn');
    for (const command of ['plan', 'apply']) {
      const help = await cli([command, '--help']);
      expect(help.stdout).toMatch(/--allow-turn\s+run the steps that turn a dial \(refused without it\)/);
    }
    unregisterKind('dial');
    try {
      expect((await cli(['plan', '--help'])).stdout).not.toContain('--allow-turn');
    } finally {
      registerKind(dialKind);
    }
  });

  it('without the flag: the plan refuses the step, naming the flag, and counts it blocked', async () => {
    const plan = await cli(['plan', manifest], { emu });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('  ! dial.volume "Volume" (D-1)  will be updated\n');
    expect(plan.stdout).toContain('      refused: turning a dial is the dangerous change; runs only with --allow-turn; this step will not be sent\n');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete; 1 blocked, 0 need review');
    const json = JSON.parse((await cli(['plan', manifest, '--format', 'json'], { emu })).stdout) as { brands: { steps: { gate: unknown }[] }[] };
    expect(json.brands[0]?.steps[0]?.gate).toEqual({ type: 'option', option: 'allow-turn', reason: 'turning a dial is the dangerous change' });
  });

  it('with the flag: the plan shows the step allowed by it', async () => {
    const plan = await cli(['plan', manifest, '--allow-turn'], { emu });
    expect(plan.stdout).toContain('  ~ dial.volume "Volume" (D-1)  will be updated\n');
    expect(plan.stdout).toContain('      allowed by --allow-turn: turning a dial is the dangerous change\n');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete; 0 blocked, 0 need review');
  });

  it('apply without the flag sends nothing and exits 3; with it, turns the dial', async () => {
    const refused = await cli(['apply', manifest, '--yes'], { emu });
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain('runs only with --allow-turn');
    expect(turns).toBe(0);
    expect(dials.get('D-1')?.level).toBe(3);
    const allowed = await cli(['apply', manifest, '--yes', '--allow-turn'], { emu });
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(turns).toBe(1);
    expect(dials.get('D-1')?.level).toBe(11);
  });

  it('a saved plan keeps what it was made with: refused without the flag even if apply sets it; run from a plan made with it', async () => {
    const without = join(dir, 'without.json');
    await cli(['plan', manifest, '--out', without], { emu });
    const refused = await cli(['apply', '--plan', without, '--yes', '--allow-turn'], { emu });
    expect(refused.code).toBe(3);
    expect(turns).toBe(0);
    const withFlag = join(dir, 'with.json');
    await cli(['plan', manifest, '--allow-turn', '--out', withFlag], { emu });
    const ran = await cli(['apply', '--plan', withFlag, '--yes'], { emu });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(dials.get('D-1')?.level).toBe(11);
  });

  it('drift names the flag the change needs', async () => {
    const drift = await cli(['drift', manifest, '--format', 'json'], { emu });
    expect(drift.stdout).toContain('Applying it needs --allow-turn: turning a dial is the dangerous change.');
  });
});
