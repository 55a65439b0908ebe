import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, answerOrder, call, errorOf, form, png, start, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e));

const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;

function rawHttp(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(emu.port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => (out += d.toString('utf8')));
    s.on('end', () => resolve(out));
    s.on('close', () => resolve(out));
    s.on('error', reject);
    setTimeout(() => s.destroy(), 2000);
  });
}

describe('bad requests never crash the emulator', () => {
  it('malformed JSON is 64302, an empty body 64301, a non-object body 64303', async () => {
    expect(errorOf(await call(emu, 'POST', AR, { raw: '{"autoReplyMsgName": ' }))).toEqual({ status: 400, code: '64302', message: 'Invalid JSON format' });
    expect(errorOf(await call(emu, 'POST', AR, { raw: '' }))).toEqual({ status: 400, code: '64301', message: 'Missing Body data' });
    expect(errorOf(await call(emu, 'POST', AR, { json: [1, 2] })).code).toBe('64303');
    expect(errorOf(await call(emu, 'POST', AR, { json: 'text' })).code).toBe('64303');
  });

  it('a JSON route refuses a body that does not say it is JSON, with 64303, and stores nothing', async () => {
    const body = JSON.stringify({ autoReplyMsgName: 'Plain', messagebaseId: 'SCS00000', body: { description: 'x' } });
    const before = (await call(emu, 'GET', AR)).body.pagination.totalCount;
    const refused = { status: 400, code: '64303', message: 'Invalid type of Attribute (Content-Type: application/json)' };
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/jsonx', `multipart/form-data; boundary=x`]) {
      expect(errorOf(await call(emu, 'POST', AR, { raw: body, headers: { 'content-type': type } })), type).toEqual(refused);
    }
    // No Content-Type at all (curl -d without -H sends form-urlencoded; a raw socket sends none).
    const bare = await rawHttp(`POST ${AR} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer emulator-master-token\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    expect(bare).toMatch(/^HTTP\/1\.1 400/);
    expect(bare).toContain('"code":"64303"');
    expect((await call(emu, 'GET', AR)).body.pagination.totalCount).toBe(before);
    // JSON with parameters, in any case, and a +json type are JSON.
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      expect((await call(emu, 'POST', AR, { raw: body.replace('Plain', type), headers: { 'content-type': type } })).status, type).toBe(200);
    }
    // The admin API is the emulator's own, not the service: `curl -d` (form-urlencoded) works there.
    const clock = await call(emu, 'POST', '/_emulator/clock', { raw: JSON.stringify({ advanceSeconds: 0 }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(clock.status, clock.text).toBe(200);
    // The multipart routes still take multipart.
    const uploaded = await call(emu, 'POST', `${AR}/file`, { form: form({}, { file: { name: 'a.png', bytes: png(400, 400), type: 'image/png' } }) });
    expect(uploaded.status, uploaded.text).toBe(200);
  });

  it('truncated or malformed multipart gets an error envelope', async () => {
    const boundary = 'XyZ';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNGDATA`;
    const a = await call(emu, 'POST', `${AR}/file`, { raw: truncated, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(errorOf(a)).toEqual({ status: 400, code: '64303', message: 'Invalid type of Attribute (multipart/form-data)' });
    const noBoundary = await call(emu, 'POST', `${AR}/file`, { raw: 'abc', headers: { 'content-type': 'multipart/form-data' } });
    expect(errorOf(noBoundary).code).toBe('64303');
    const empty = await call(emu, 'POST', `${AR}/file`, { raw: '', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(errorOf(empty).code).toBe('64301');
  });

  it('caps oversized bodies with 413 and keeps serving', async () => {
    const big = Buffer.alloc(26 * 1024 * 1024, 0x20);
    const a = await call(emu, 'POST', AR, { raw: big });
    expect(errorOf(a)).toEqual({ status: 413, code: '64304', message: `Over specified size (body over ${25 * 1024 * 1024} bytes)` });
    expect((await call(emu, 'GET', AR)).status).toBe(200);
  });

  it('unknown paths are 404 and known paths with another method 405, in the error envelope', async () => {
    expect(errorOf(await call(emu, 'GET', '/api/1.1/nothing/here'))).toEqual({ status: 404, code: '60404', message: 'Not Found' });
    expect(errorOf(await call(emu, 'PATCH', AR))).toEqual({ status: 405, code: '60405', message: 'Method Not Allowed' });
    expect(errorOf(await call(emu, 'GET', `${AR}/%E0%A4%A`)).status).toBe(404);
    // The agency interface answers in its own body and its 4xxxx family.
    const agency = await call(emu, 'GET', '/ag/1.2/unknown');
    expect([agency.status, agency.body]).toEqual([404, { code: '49404', message: 'Not Found' }]);
  });

  it('answers garbage on the socket with 400 and stays up', async () => {
    const out = await rawHttp('THIS IS NOT HTTP\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400/);
    expect((await call(emu, 'GET', AR)).status).toBe(200);
  });

  it('survives a client that disconnects mid-body', async () => {
    await new Promise<void>((resolve) => {
      const s = connect(emu.port, '127.0.0.1', () => {
        s.write(`POST ${AR} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer emulator-master-token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 50);
      });
    });
    expect((await call(emu, 'GET', AR)).status).toBe(200);
    expect((await admin(emu, 'GET', 'store')).status).toBe(200);
  });
});

describe('admin API is loopback only', () => {
  it('recognises loopback peers and nothing else', async () => {
    const { isLoopback } = await import('../../src/emulator/server.js');
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', 'fe80::1', ''].map(isLoopback)).toEqual([false, false, false, false, false]);
  });
});

describe('latency option', () => {
  it('delays service responses but not admin routes', async () => {
    const slow = await start(undefined, 1500);
    try {
      let heldMs = 0;
      const service = async (): Promise<void> => {
        const t0 = Date.now();
        expect((await call(slow, 'GET', AR)).status).toBe(200);
        heldMs = Date.now() - t0;
      };
      // An admin call sent while a service call is held answers first (the hold is ten
      // times the slowest unheld answer seen on a loaded machine).
      const order = await answerOrder(slow, service, AR, async () => expect((await admin(slow, 'GET', 'store')).status).toBe(200));
      expect(order).toEqual(['next', 'held']);
      expect(heldMs).toBeGreaterThanOrEqual(1490);
    } finally {
      await slow.close();
    }
  });

});
