// A layout changed in the console reaches rcsctl controller as the service
// announces it (formatbr, with the layout's id as messagebaseId) and is put
// back as the manifest has it, in apply mode, against the emulator over real
// HTTP as an agency account (the layout routes are an agency's).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClient, type RcsClient } from '../../src/api/index.js';
import type { RunningController } from '../../src/controller/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { layoutsOf } from '../../src/emulator/routes/layouts.js';
import { BRAND, emulator, ROOT } from '../e2e/helpers.js';
import { pointWebhook, startFor, waitFor, waitState } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '111-layout-changed');
const BRAND_KEY = 'BK.demo0000000001';

let emu: RunningEmulator | undefined;
let client: RcsClient | undefined;
const running: RunningController[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-controller-layout-'));

afterEach(async () => {
  for (const c of running.splice(0)) await c.close();
  await client?.close();
  await emu?.close();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('rcsctl controller and layouts', () => {
  it('reverts a console edit of a layout after its formatbr notification', async () => {
    const seed = loadSeed(join(CASE, 'seed.yaml'));
    seed.messaging = { ...seed.messaging, agencies: [{ agencyId: 'agency', agencyKey: 'AK.demo0000000001', brands: [BRAND] }] };
    emu = await emulator(seed);
    client = createClient({ baseUrl: emu.url, credentials: { token: 'emulator-agency-token' } });
    const { ctl, logs } = await startFor(emu, client, [join(CASE, 'manifest.yaml')], { mode: 'apply', env: { BRAND_KEY }, lockDir: join(tmp, 'locks') });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['in-sync']);
    const table = () => layoutsOf(emu?.store.brands.get(BRAND) as never).get('CLLBR.demo000001-00000001')?.bodyComposition[1]?.options?.maxCount;
    expect(table()).toBe(10);
    await pointWebhook(emu, ctl.url);

    // The console cuts the table back to five rows.
    const brand = { id: BRAND, key: BRAND_KEY };
    const live = await client.layouts.get(brand, 'CLLBR.demo000001-00000001');
    await client.layouts.update(brand, live.layoutId, {
      layoutName: live.layoutName,
      productCode: live.productCode,
      headerComposition: live.headerComposition,
      bodyComposition: live.bodyComposition.map((c, i) => (i === 1 ? { ...c, options: { ...c.options, maxCount: 5 } } : c)),
      footerComposition: live.footerComposition,
    });
    expect(table()).toBe(5);

    await waitFor('the console edit to be put back', async () => (table() === 10 ? true : undefined));
    await waitState(ctl.url, BRAND, ['in-sync'], first.passes);
    expect(logs.some((l) => l.includes('"type":"formatbr"'))).toBe(true);
  });
});
