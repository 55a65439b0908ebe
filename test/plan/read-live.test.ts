// readLive against the emulator over real HTTP: what it reads, and what a
// repeat read with the local cache (--cache-dir) skips, counted in the
// emulator's request log.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { LiveCache } from '../../src/kinds/live-cache.js';
import { readLive } from '../../src/plan/read-live.js';

const CASE = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'plan-cases', '026-example-brand-after-apply');
const BRAND = { id: 'BR.demo000001' };
const TOKEN = 'emulator-master-token';

describe('readLive', () => {
  let emu: RunningEmulator;
  let client: RcsClient;
  let dir: string;

  beforeEach(async () => {
    emu = await startEmulator({ seed: join(CASE, 'seed.yaml'), port: 0 });
    client = createClient({ baseUrl: emu.url, credentials: { token: TOKEN }, concurrency: 4 });
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-live-cache-'));
  });
  afterEach(async () => {
    await client.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** GET paths the emulator served since the last call, with the query dropped. */
  async function served(): Promise<string[]> {
    const res = await fetch(`${emu.url}/_emulator/requests`);
    const { requests: log } = (await res.json()) as { requests: { method: string; path: string }[] };
    await fetch(`${emu.url}/_emulator/requests`, { method: 'DELETE' });
    return log.filter((e) => e.method === 'GET').map((e) => e.path.replace(/\?.*$/, '').replace('/api/1.1/brand/BR.demo000001', ''));
  }

  it('reads lists, every auto-reply detail, the files behind media and the named agency files', async () => {
    const desired = (await loadManifests([join(CASE, 'manifests')], { env: {}, cwd: CASE })).brands[0];
    if (desired === undefined) throw new Error('no brand');
    await served();

    const first = await readLive(client, BRAND, { concurrency: 4, desired, cache: new LiveCache(dir, emu.url) });
    const firstPaths = await served();
    expect(firstPaths.filter((p) => /^\/autoreplymsg\/[^/]+$/.test(p))).toHaveLength(6);
    expect(firstPaths.filter((p) => p.includes('/autoreplymsg/file/')).sort()).toEqual(['/autoreplymsg/file/ARF-BEANS', '/autoreplymsg/file/ARF-HERO']);
    expect(firstPaths.filter((p) => p.startsWith('/ag/1.2/file/'))).toEqual(['/ag/1.2/file/BR.demo000001.spring']);
    expect(buildPlan(desired, first).steps).toEqual([]);
  });

  it('skips unchanged auto-reply details and every known file on a repeat read, and re-reads a changed one', async () => {
    const cache = new LiveCache(dir, emu.url);
    const first = await readLive(client, BRAND, { concurrency: 4, cache });
    cache.save();
    await served();

    const again = await readLive(client, BRAND, { concurrency: 4, cache: new LiveCache(dir, emu.url) });
    const paths = await served();
    expect(paths.filter((p) => p.startsWith('/autoreplymsg/'))).toEqual([]);
    expect(paths).toContain('/autoreplymsg');
    expect(again.autoReplies).toEqual(first.autoReplies);
    expect([...again.files.entries()]).toEqual([...first.files.entries()]);

    // A change moves updateDate: only that detail is read again.
    const hours = first.autoReplies.find((a) => a.autoReplyMsgId === 'ARM-EVENTS');
    if (hours === undefined) throw new Error('no ARM-EVENTS');
    await new Promise((r) => setTimeout(r, 5)); // a later updateDate
    await client.autoReplies.update(BRAND, 'ARM-EVENTS', { autoReplyMsgName: 'Events', messagebaseId: 'SCS00000', body: { description: 'Changed' } });
    await served();
    const third = await readLive(client, BRAND, { concurrency: 4, cache: new LiveCache(dir, emu.url) });
    expect((await served()).filter((p) => p.startsWith('/autoreplymsg/'))).toEqual(['/autoreplymsg/ARM-EVENTS']);
    expect(third.autoReplies.find((a) => a.autoReplyMsgId === 'ARM-EVENTS')?.body).toEqual({ description: 'Changed' });
  });
});
