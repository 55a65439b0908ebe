// readLive against the emulator over real HTTP: what it reads, and what a
// repeat read with the local cache (--cache-dir) skips, counted in the
// emulator's request log.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { startEmulator, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
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

  it('never serves a stale detail: a write under a fixed clock, and a review-state change that leaves updateDate alone', async () => {
    const seed = parse(readFileSync(join(CASE, 'seed.yaml'), 'utf8')) as Seed;
    const fixed = await startEmulator({ seed: { ...seed, clock: '2026-11-21T10:00:00.000+09' }, port: 0 });
    const c = createClient({ baseUrl: fixed.url, credentials: { token: TOKEN }, concurrency: 4 });
    try {
      const cache = new LiveCache(dir, fixed.url);
      await readLive(c, BRAND, { concurrency: 4, cache });
      cache.save();
      // The clock does not move, yet the write gets a later updateDate.
      await c.autoReplies.update(BRAND, 'ARM-EVENTS', { autoReplyMsgName: 'Events', messagebaseId: 'SCS00000', body: { description: 'Changed under a fixed clock' } });
      const after = await readLive(c, BRAND, { concurrency: 4, cache: new LiveCache(dir, fixed.url) });
      expect(after.autoReplies.find((a) => a.autoReplyMsgId === 'ARM-EVENTS')?.body).toEqual({ description: 'Changed under a fixed clock' });

      // A state change the list shows but updateDate does not: the detail is read again.
      const warm = new LiveCache(dir, fixed.url);
      await readLive(c, BRAND, { concurrency: 4, cache: warm });
      warm.save();
      await fetch(`${fixed.url}/_emulator/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'autoReply', brandId: BRAND.id, id: 'ARM-EVENTS', approvalResult: '처리중' }) });
      await fetch(`${fixed.url}/_emulator/requests`, { method: 'DELETE' });
      const third = await readLive(c, BRAND, { concurrency: 4, cache: new LiveCache(dir, fixed.url) });
      const log = (await (await fetch(`${fixed.url}/_emulator/requests`)).json()) as { requests: { method: string; path: string }[] };
      expect(log.requests.filter((r) => /\/autoreplymsg\/ARM-/.test(r.path)).map((r) => r.path.replace(/^.*\//, ''))).toEqual(['ARM-EVENTS']);
      expect(third.autoReplies.find((a) => a.autoReplyMsgId === 'ARM-EVENTS')?.approvalResult).toBe('처리중');
    } finally {
      await c.close();
      await fixed.close();
    }
  });
});
