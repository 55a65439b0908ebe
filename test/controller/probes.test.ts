// The controller's probes each mean one thing (issue 36), against the
// emulator over real HTTP: /readyz says this replica can take webhooks, and
// no brand's failure changes it; /healthz says the work loop is not stuck,
// and fails when a pass hangs past --stall-timeout (here a read the emulator
// holds for seconds, with a bound of half a second), never on the service's
// errors.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { admin, BRAND, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { get, postWebhook, startFor, waitFor, waitIdle, waitState, useControllerSuite } from './helpers.js';

const OTHERS = ['BR.probe00001', 'BR.probe00002', 'BR.probe00003'];
const FAILING = 'BR.probe00002';
let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-probes-', (e, c) => {
  emu = e;
  client = c;
}, () => withDeclaredBrands(loadSeed(defaultSeedPath()), OTHERS.map((brandId) => ({ brandId })), TOKEN).seed);
const dir = (): string => join(tmp, 'brands');

beforeAll(() => {
  mkdirSync(dir(), { recursive: true });
  for (const id of OTHERS) writeFileSync(join(dir(), `${id}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${id}\n`);
});

const notify = (brandId: string): string => JSON.stringify([{ notiType: 'brand', brandId, method: 'modified' }]);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('rcsctl controller probes', () => {
  it('one brand failing with a network error, last of all, leaves /readyz and /healthz 200 and the other brands as they were', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE, dir()]);
    running.push(ctl);
    const settled = await waitIdle(ctl.url);
    expect(settled.brands).toHaveLength(1 + OTHERS.length);
    expect(await get(ctl.url, '/readyz')).toMatchObject({ status: 200, body: { ready: true, reasons: [] } });
    // Every read of that one brand is reset: after its retries, the pass fails with E_NETWORK, and it is the last to finish.
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'reset', rate: 1, path: FAILING.replace('.', '\\.') }] });
    try {
      const before = settled.brands.find((b) => b.brandId === FAILING)!.passes;
      expect((await postWebhook(ctl.url, notify(FAILING))).status).toBe(200);
      const failed = await waitState(ctl.url, FAILING, ['failed'], before, 60_000);
      expect(failed.lastError?.code).toBe('E_NETWORK');
      expect(await get(ctl.url, '/readyz')).toMatchObject({ status: 200, body: { ready: true } });
      expect((await get(ctl.url, '/healthz')).status).toBe(200);
      const now = (await get(ctl.url, '/status')).body;
      expect(now.ready).toBe(true);
      for (const b of settled.brands.filter((x) => x.brandId !== FAILING)) expect(now.brands.find((x: { brandId: string }) => x.brandId === b.brandId)).toMatchObject({ state: b.state, passes: b.passes });
    } finally {
      await admin(emu, 'DELETE', 'faults');
    }
  }, 90_000);

  it('every brand failing (the service refuses the token) leaves /readyz 200: the service\'s health is a metric, not a probe', async () => {
    const refused = createClient({ baseUrl: emu.url, credentials: { token: 'not-a-token-the-service-knows' } });
    try {
      const { ctl } = await startFor(emu, refused, [EXAMPLE, dir()]);
      running.push(ctl);
      const s = await waitIdle(ctl.url);
      expect(s.brands.every((b) => b.state === 'failed')).toBe(true);
      expect(await get(ctl.url, '/readyz')).toMatchObject({ status: 200, body: { ready: true } });
      expect((await get(ctl.url, '/healthz')).status).toBe(200);
      await running.pop()!.close();
    } finally {
      await refused.close();
    }
  });

  it('a pass stuck past --stall-timeout fails /healthz (503, since when) while /readyz stays 200; idle past the bound is healthy; it recovers when the pass ends', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { stallTimeoutMs: 500 });
    running.push(ctl);
    const settled = await waitIdle(ctl.url);
    // Nothing due for longer than the bound: nothing to be stuck on.
    await sleep(800);
    expect(await get(ctl.url, '/healthz')).toMatchObject({ status: 200, body: { ok: true, stallTimeoutMs: 500 } });

    // One read of the brand is held for 5 s: its pass cannot end, and nothing else is due.
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 5000, method: 'GET', path: `${BRAND.replace('.', '\\.')}/autoreplymsg$` }] });
    try {
      expect((await postWebhook(ctl.url, notify(BRAND))).status).toBe(200);
      const stuck = await waitFor('/healthz to fail', async () => {
        const h = await get(ctl.url, '/healthz');
        return h.status === 503 ? h : undefined;
      }, 4_000);
      expect(stuck.body).toMatchObject({ ok: false, stallTimeoutMs: 500 });
      expect(Date.now() - Date.parse(stuck.body.waitingSince)).toBeGreaterThan(500);
      expect((await get(ctl.url, '/readyz')).status).toBe(200);
    } finally {
      await admin(emu, 'DELETE', 'faults');
    }
    await waitState(ctl.url, BRAND, ['waiting-review'], settled.brands[0]!.passes, 30_000);
    expect((await get(ctl.url, '/healthz')).status).toBe(200);
    expect(logs.join('\n')).not.toContain(TOKEN);
  }, 60_000);
});
