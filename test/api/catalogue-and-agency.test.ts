// Layout components, common messagebases and agency message files against the
// emulator, with their errors (61003 for a non-agency layout call, 40001, 40010).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError } from '../../src/api/index.js';
import { AGENCY_TOKEN, BRAND, collect, pngFile, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

describe('layout components', () => {
  it('lists every component with the agency role', async () => {
    const client = emu.client({ credentials: { token: AGENCY_TOKEN } });
    const components = await collect(client.layoutComponents.list());
    expect(components.length).toBeGreaterThan(0);
    for (const c of components) {
      expect(typeof c.componentId).toBe('string');
      expect(['Y', 'N']).toContain(c.bodyYn);
    }
  });

  it('maps the documented 401 61003 for another role', async () => {
    const err = await rejection(collect(emu.client().layoutComponents.list()));
    expect(err).toBeInstanceOf(RcsApiError);
    expect((err as RcsApiError).message).toBe('list layout components failed: 401 61003 Invalid token');
  });
});

describe('common messagebases', () => {
  it('lists the common messagebases, the documented ones included', async () => {
    const ids = (await collect(emu.client().messagebases.listCommon())).map((m) => m.messagebaseId);
    expect(ids).toEqual(expect.arrayContaining(['SCS00000', 'SCwThM00', 'CCwMhM0200']));
  });
});

describe('agency files', () => {
  it('registers a file and reads its status; an unknown file is undefined (40001)', async () => {
    const client = emu.client({ credentials: { token: AGENCY_TOKEN } });
    const info = await client.agencyFiles.register(BRAND, {
      fileId: `${BRAND.id}.spring`,
      usageType: 'send',
      mimeType: 'image/png',
      file: pngFile('spring.png', 64, 64),
    });
    expect(info).toMatchObject({ fileId: `${BRAND.id}.spring`, usageType: 'send', mimeType: 'image/png', status: 'ready' });
    expect(info.expiryDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09$/);
    expect(await client.agencyFiles.get(BRAND, `${BRAND.id}.spring`)).toEqual(info);
    expect(await client.agencyFiles.get(BRAND, `${BRAND.id}.never`)).toBeUndefined();
  });

  it('maps 40010 (fileId already registered) with the agency failure body', async () => {
    const client = emu.client({ credentials: { token: AGENCY_TOKEN } });
    const req = { fileId: `${BRAND.id}.twice`, usageType: 'send', mimeType: 'image/png', file: pngFile('twice.png', 8, 8) };
    await client.agencyFiles.register(BRAND, req);
    const err = await rejection(client.agencyFiles.register(BRAND, req));
    expect(err).toBeInstanceOf(RcsApiError);
    expect(err).toMatchObject({ serviceCode: '40010', method: 'POST', path: '/ag/1.2/file' });
    expect((err as Error).message).toMatch(new RegExp(`^register agency file ${BRAND.id.replace('.', '\\.')}\\.twice failed: 400 40010 `));
  });

  it('uses the agency base URL when one is given', async () => {
    const client = emu.client({ credentials: { token: AGENCY_TOKEN }, baseUrl: 'http://127.0.0.1:9', agencyBaseUrl: emu.url });
    expect(await client.agencyFiles.get(BRAND, `${BRAND.id}.spring`)).toMatchObject({ status: 'ready' });
  });
});
