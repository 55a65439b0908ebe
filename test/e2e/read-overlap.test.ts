// Detail reads overlap the list: `rcsctl plan` over real HTTP against an
// emulator with 2,500 auto-replies (three list pages of 1,000) and a latency,
// and the order in which the emulator's request log saw the requests. No
// wall-clock threshold: the log's order alone says whether a detail read
// went out before the last list page was asked for.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
import { admin, BRAND, cli, TOKEN } from './helpers.js';

const COUNT = 2500;
const name = (i: number): string => `Overlap ${String(i).padStart(4, '0')}`;

const seed: Seed = {
  accounts: [{ userId: 'overlap', role: 'master', token: TOKEN, brands: [{ brandId: BRAND, role: 'representative' }] }],
  brands: [
    {
      brandId: BRAND,
      brandKey: 'BK.overlap0000001',
      autoReplies: Array.from({ length: COUNT }, (_, i) => ({ autoReplyMsgName: name(i), messagebaseId: 'SCS00000', body: { description: `Reply ${i}` } })),
    },
  ],
};

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ seed, port: 0, latencyMs: 5 });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-read-overlap-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The GETs of the auto-reply list pages and details, in the order the emulator received them (its log keeps no query). */
async function autoReplyGets(): Promise<('list' | 'detail')[]> {
  const { requests } = (await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
  return requests
    .filter((r) => r.method === 'GET' && r.path.includes('/autoreplymsg'))
    .map((r) => (r.path.endsWith('/autoreplymsg') ? 'list' : 'detail'));
}

describe('plan: detail reads overlap the list', () => {
  it('starts detail reads as each list page arrives, before the last page is asked for, and still reads every detail once', async () => {
    const m = join(dir, 'manifests');
    mkdirSync(m, { recursive: true });
    const replies = [0, 1, 2].map((i) => `  r${i}:\n    name: "${name(i)}"\n    messagebaseId: SCS00000\n    body: { description: "Reply ${i}, changed" }\n`).join('');
    writeFileSync(join(m, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${replies}`);
    await admin(emu, 'DELETE', 'requests');

    const run = await cli(['plan', m, '--no-cache', '--concurrency', '16'], { emu });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 to update');

    const gets = await autoReplyGets();
    expect(gets.filter((g) => g === 'list')).toHaveLength(3);
    expect(gets.filter((g) => g === 'detail')).toHaveLength(COUNT);
    // A list page is asked for only once the previous one has arrived, a
    // round trip of at least the latency later; detail reads of the first
    // page go out as it arrives, so the emulator sees some of them first.
    const pages = gets.flatMap((g, i) => (g === 'list' ? [i] : []));
    const [first, second, last] = pages as [number, number, number];
    expect(first).toBe(0);
    expect(gets.slice(second, last).filter((g) => g === 'detail').length).toBeGreaterThan(0);
    expect(gets.slice(0, last).filter((g) => g === 'detail').length).toBeGreaterThan(0);
  });
});
