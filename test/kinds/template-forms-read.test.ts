// Template forms are read once per run (one catalogue per client, shared by
// every brand) and come from the live cache on the next run while the form
// list's updateDate holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveCache } from '../../src/kinds/live-cache.js';
import { formCatalogue } from '../../src/kinds/template/service.js';
import { startTestEmulator, type TestEmulator } from '../api/helpers.js';

let emu: TestEmulator;
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-forms-'));
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const formReads = async (): Promise<string[]> => (await emu.requests()).filter((r) => r.path.includes('/messagebaseform')).map((r) => `${r.method} ${r.path}`);

describe('template forms', () => {
  it('are fetched once per run and then taken from the live cache', async () => {
    await emu.admin('DELETE', '/requests');
    const cache = new LiveCache(dir, emu.url);
    const run1 = formCatalogue(emu.client(), cache);
    const [a, b] = await Promise.all([run1.form('TADS001A'), run1.form('TADS001A')]);
    expect(a?.messagebaseformId).toBe('TADS001A');
    expect(b).toBe(a);
    expect(await run1.form('NOPE')).toBeNull();
    expect(await formReads()).toEqual(['GET /api/1.1/messagebase/messagebaseform', 'GET /api/1.1/messagebase/messagebaseform/TADS001A']);
    cache.save();

    await emu.admin('DELETE', '/requests');
    const run2 = formCatalogue(emu.client(), new LiveCache(dir, emu.url));
    expect((await run2.form('TADS001A'))?.formName).toBe(a?.formName);
    // Only the list, to see that the form's updateDate still holds.
    expect(await formReads()).toEqual(['GET /api/1.1/messagebase/messagebaseform']);
  });
});
