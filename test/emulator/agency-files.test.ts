import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { AGENCY, admin, call, form, png, start, useEmulator } from './helpers.js';

const seed = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: agency, role: agency, token: t-agency, brands: [] }
brands: []
`;

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: seed, reset: true });

function register(fields: Record<string, string>, file: Buffer | null = png(800, 600)) {
  return call(emu, 'POST', '/ag/1.2/file', { token: 't-agency', form: form(fields, file ? { file: { name: 'spring.png', bytes: file, type: 'image/png' } } : {}) });
}

describe('agency files', () => {
  it('registers with status ready and expiryDate D+365 00:00 (+09), and reads it back', async () => {
    const a = await register({ fileId: 'BR.demo000001.spring', usageType: 'send', mimeType: 'image/png' });
    expect(a.status).toBe(200);
    const info = { fileId: 'BR.demo000001.spring', usageType: 'send', mimeType: 'image/png', status: 'ready', expiryDate: '2027-11-21T00:00:00.000+09' };
    expect(a.body).toEqual({ status: '200', data: { fileInfo: info } });
    expect((await call(emu, 'GET', '/ag/1.2/file/BR.demo000001.spring', { token: 't-agency' })).body).toEqual({ status: '200', data: { fileInfo: info } });
  });

  it('is expired after D+365 and gone (40001) after D+456; then the id may be registered again', async () => {
    await register({ fileId: 'f1', mimeType: 'image/png' });
    await admin(emu, 'POST', 'clock', { now: '2027-11-20T23:59:59.000+09' });
    expect((await call(emu, 'GET', '/ag/1.2/file/f1', { token: 't-agency' })).body.data.fileInfo.status).toBe('ready');
    await admin(emu, 'POST', 'clock', { now: '2027-11-21T00:00:00.000+09' });
    expect((await call(emu, 'GET', '/ag/1.2/file/f1', { token: 't-agency' })).body.data.fileInfo.status).toBe('expired');
    await admin(emu, 'POST', 'clock', { now: '2028-02-19T23:59:00.000+09' });
    expect((await call(emu, 'GET', '/ag/1.2/file/f1', { token: 't-agency' })).status).toBe(200);
    await admin(emu, 'POST', 'clock', { now: '2028-02-20T00:00:00.000+09' });
    const gone = await call(emu, 'GET', '/ag/1.2/file/f1', { token: 't-agency' });
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({ code: '40001', message: 'Unknown or expired fileId' });
    expect((await register({ fileId: 'f1', mimeType: 'image/png' })).status).toBe(200);
  });

  it('refuses a second registration of the same fileId (40010)', async () => {
    await register({ fileId: 'f2', mimeType: 'image/png' });
    const again = await register({ fileId: 'f2', mimeType: 'image/png' });
    expect([again.status, again.body]).toEqual([400, { code: '40010', message: 'fileId already registered' }]);
  });

  it('checks fields with {code, message} bodies', async () => {
    expect((await register({ mimeType: 'image/png' })).body).toEqual({ code: '41005', message: 'required value: [fileId]' });
    expect((await register({ fileId: 'x'.repeat(65), mimeType: 'image/png' })).body.code).toBe('41004');
    expect((await register({ fileId: 'a', mimeType: 'image/png', usageType: 'other' })).body.code).toBe('41003');
    expect((await register({ fileId: 'a' })).body).toEqual({ code: '41005', message: 'required value: [mimeType]' });
    expect((await register({ fileId: 'a', mimeType: 'text/plain' })).body.code).toBe('41008');
    expect((await register({ fileId: 'a', mimeType: 'image/png' }, null)).body).toEqual({ code: '41005', message: 'required value: [file]' });
    expect((await register({ fileId: 'a', mimeType: 'image/png' }, Buffer.alloc(1024 * 1024 + 1))).body.code).toBe('41009');
    expect((await register({ fileId: 'a', mimeType: 'image/png', messagebaseId: 'NOPE' })).body).toEqual({ code: '40019', message: 'unknown messagebaseId' });
    expect((await call(emu, 'GET', '/ag/1.2/file/none', { token: 't-agency' })).body.code).toBe('40001');
    expect((await call(emu, 'GET', '/ag/1.2/file/none', { token: null })).body).toEqual({ code: '61003', message: 'Invalid token' });
  });

  it('is reachable with the default seed agency token too', async () => {
    const e = await start();
    try {
      const a = await call(e, 'POST', '/ag/1.2/file', { token: AGENCY, form: form({ fileId: 'BR.demo000001.x', mimeType: 'image/png' }, { file: { name: 'x.png', bytes: png(10, 10) } }) });
      expect(a.body.data.fileInfo.status).toBe('ready');
    } finally {
      await e.close();
    }
  });
});
