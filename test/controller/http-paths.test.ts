// The controller's HTTP face on hostile request targets, over real HTTP with
// the target sent byte for byte (a URL-parsing client would resolve the dots
// first): routing is on the raw path, a malformed one is answered 400 and
// logs no error, and no spelling reaches an internal page but its own. And
// --allow-from takes only well-formed prefixes.

import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { allowList } from '../../src/controller/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { startFor, useControllerSuite, waitIdle, WEBHOOK_TOKEN } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running } = useControllerSuite('rcsctl-controller-paths-', (e, c) => {
  emu = e;
  client = c;
});

/** GET `target` exactly as written. */
function rawGet(url: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('controller request targets', () => {
  it('answers 400 to malformed paths, never an internal page, and logs no error', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE]);
    running.push(ctl);
    await waitIdle(ctl.url);
    const malformed = [
      '/status/%',
      '/status/%zz',
      '/webhook/../status',
      '/webhook/%2e%2e/status',
      '/webhook/%2E%2E/status',
      '/webhook/./status',
      '//status',
      '//',
      '/status//',
      '/status/BR.x%2f..%2fmetrics',
      '/status/a%00b',
      '/metrics/..',
    ];
    for (const target of malformed) {
      const r = await rawGet(ctl.url, target);
      expect(r.status, target).toBe(400);
      expect(r.body, target).not.toContain(BRAND);
      expect(r.body, target).not.toContain('rcsctl_');
    }
    // Well-formed spellings that are not ours: 404, still no page.
    for (const target of ['/webhook/status', '/%73tatus', '/status/BR.x/more', '/Status']) expect((await rawGet(ctl.url, target)).status, target).toBe(404);
    // The real routes still answer, a brand id percent-encoded included.
    expect((await rawGet(ctl.url, '/status')).status).toBe(200);
    expect((await rawGet(ctl.url, '/status?x=1')).status).toBe(200);
    expect((await rawGet(ctl.url, `/status/${BRAND}`)).status).toBe(200);
    expect((await rawGet(ctl.url, `/status/${encodeURIComponent(BRAND).replace('.', '%2E')}`)).status).toBe(200);
    expect((await rawGet(ctl.url, '/status/BR.nobody00001')).status).toBe(404);
    expect((await rawGet(ctl.url, '/')).status).toBe(200);
    expect(logs.filter((l) => l.includes('"level":"error"') || l.includes('http.error'))).toEqual([]);
  });

  it('--allow-from takes only well-formed IPv4 and IPv6 prefixes', () => {
    const bad = ['10.0.0.0/', '10.0.0.0/-0', '10.0.0.0/+8', '10.0.0.0/08', '10.0.0.0/8/9', '10.0.0.0/8.0', '10.0.0.0/0x8', '10.0.0.0/ 8', '10.0.0.0/33', '::/129', '::/-1', 'fe80::1%eth0/64', '10.0.0/8', '/8', '', 'localhost', '10.0.0.0/1e1'];
    for (const cidr of bad) expect(() => allowList([cidr]), JSON.stringify(cidr)).toThrow(/--allow-from must be an address or CIDR/);
    const list = allowList(['10.0.0.0/8', '192.168.1.7', '::1/128', 'fd00::/8', '0.0.0.0/0'])!;
    expect(list.check('10.255.0.1', 'ipv4')).toBe(true);
    expect(list.check('fd12::1', 'ipv6')).toBe(true);
    expect(list.check('fe80::1', 'ipv6')).toBe(false);
    const narrow = allowList(['10.0.0.0/8'])!;
    expect(narrow.check('11.0.0.1', 'ipv4')).toBe(false);
  });

  it('the command refuses a malformed --allow-from with a usage error before it connects', async () => {
    for (const cidr of ['10.0.0.0/', '10.0.0.0/-0']) {
      // No service at this address: a command that got past its flags would fail to connect instead.
      const env = { RCSCTL_BASE_URL: 'http://127.0.0.1:9', RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN };
      const r = await cli(['controller', EXAMPLE, '--listen', '127.0.0.1:0', '--allow-from', cidr], { env });
      expect(r.code, cidr).toBe(1);
      expect(r.stderr, cidr).toMatch(/--allow-from must be an address or CIDR like 10\.0\.0\.0\/8 or ::1\/128, not "10\.0\.0\.0\/-?0?"/);
    }
  });
});
