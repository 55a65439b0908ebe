// Logos: every client method against the emulator, and the logo errors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError } from '../../src/api/index.js';
import { BRAND, collect, OTHER_BRAND, pngFile, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

function code(err: unknown): string {
  expect(err).toBeInstanceOf(RcsApiError);
  return (err as RcsApiError).serviceCode;
}

describe('logos', () => {
  it('registers, reads, lists, modifies, cancels and deletes a logo', async () => {
    const client = emu.client();
    const { fileId } = await client.logos.create(BRAND, { name: 'Main logo', description: 'Brand logo', file: pngFile('logo-aaaaaaaaaaaa.png') });
    expect(fileId).toMatch(/^BLG-/);

    const logo = await client.logos.get(BRAND, fileId);
    expect(logo).toMatchObject({ fileId, name: 'Main logo', description: 'Brand logo', fileName: 'logo-aaaaaaaaaaaa.png', approvalResult: '승인대기' });
    expect((await collect(client.logos.list(BRAND))).map((l) => l.fileId)).toContain(fileId);

    await client.logos.cancel(BRAND, fileId);
    expect((await client.logos.get(BRAND, fileId)).approvalResult).toBe('저장');

    const updated = await client.logos.update(BRAND, fileId, { name: 'Main logo 2', file: pngFile('logo-bbbbbbbbbbbb.png') });
    expect(updated).toEqual({ fileId });
    expect(await client.logos.get(BRAND, fileId)).toMatchObject({ name: 'Main logo 2', fileName: 'logo-bbbbbbbbbbbb.png', approvalResult: '승인대기' });

    await client.logos.delete(BRAND, fileId, 'Main logo 2');
    expect(code(await rejection(client.logos.get(BRAND, fileId)))).toBe('64109');
  });

  it('maps 64606 (not 300x300), 64355 (extension), 64395 (size) and 64109 (unknown id)', async () => {
    const client = emu.client();
    const wrongSize = await rejection(client.logos.create(BRAND, { name: 'Small', file: pngFile('small.png', 100, 100) }));
    expect(code(wrongSize)).toBe('64606');
    expect((wrongSize as RcsApiError).message).toBe('create logo "Small" failed: 400 64606 only one size (300x300px) can be uploaded.');
    expect(code(await rejection(client.logos.create(BRAND, { name: 'Text', file: { fileName: 'logo.txt', bytes: new Uint8Array(10), contentType: 'text/plain' } })))).toBe('64355');
    expect(
      code(await rejection(client.logos.create(BRAND, { name: 'Huge', file: { fileName: 'logo.png', bytes: new Uint8Array(1024 * 1024 + 1), contentType: 'image/png' } }))),
    ).toBe('64395');
    expect(code(await rejection(client.logos.delete(BRAND, 'BLG-none')))).toBe('64109');
  });

  it('maps 64607 (too many logos)', async () => {
    const client = emu.client();
    let err: unknown;
    for (let i = 0; i < 20 && err === undefined; i++) {
      try {
        await client.logos.create(OTHER_BRAND, { name: `Logo ${i}`, file: pngFile(`logo-${i}.png`) });
      } catch (e) {
        err = e;
      }
    }
    expect(code(err)).toBe('64607');
    expect((err as RcsApiError).serviceMessage).toMatch(/^The maximum number of logos allowed: \d+$/);
  });
});
