// The emulator refuses images that are not whole, as the service would refuse
// a file it cannot read (docs/emulator.md): cut short, damaged, a header with
// no image data, or over the pixel ceiling; for auto-reply, template and
// agency files, logos and the brand's profile image.

import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, call, errorOf, form, png, pngChunk, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const broken = (whole: Buffer): [string, Buffer][] => [
  ['cut to 33 bytes', whole.subarray(0, 33)],
  ['cut in half', whole.subarray(0, Math.floor(whole.length / 2))],
  ['a header and no data', Buffer.concat([whole.subarray(0, 33), pngChunk('IEND', Buffer.alloc(0))])],
  ['50,000 x 50,000 pixels', Buffer.concat([SIGNATURE, png(50_000, 50_000).subarray(8)])],
];

describe('uploads are read whole', () => {
  it('auto-reply and template files: 64355 for a broken image, 200 for a whole one', async () => {
    for (const path of [`/api/1.1/brand/${BRAND}/autoreplymsg/file`, `/api/1.1/brand/${BRAND}/v2/messagebase/file`]) {
      const whole = png(600, 400);
      for (const [what, bytes] of broken(whole)) {
        const a = await call(emu, 'POST', path, { form: form({}, { file: { name: 'hero.png', bytes, type: 'image/png' } }) });
        expect(errorOf(a), `${path}: ${what}`).toMatchObject({ status: 400, code: '64355' });
      }
      expect((await call(emu, 'POST', path, { form: form({}, { file: { name: 'hero.png', bytes: whole, type: 'image/png' } }) })).status, path).toBe(200);
    }
  });

  it('agency files: a broken image is refused, a whole one registered', async () => {
    const whole = png(400, 300);
    for (const [what, bytes] of broken(whole)) {
      const a = await call(emu, 'POST', '/ag/1.2/file', { token: 'emulator-agency-token', form: form({ fileId: `${BRAND}.broken`, mimeType: 'image/png' }, { file: { name: 'spring.png', bytes, type: 'image/png' } }) });
      expect(a.status, what).toBe(400);
    }
    const ok = await call(emu, 'POST', '/ag/1.2/file', { token: 'emulator-agency-token', form: form({ fileId: `${BRAND}.whole`, mimeType: 'image/png' }, { file: { name: 'spring.png', bytes: whole, type: 'image/png' } }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
