// Verification after apply, against the emulator over real HTTP: it reads each
// touched kind's list once, vouches from the list for what the list can show,
// re-reads only the rest, and still catches a resource that differs.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createClient, type AutoReplyListItem, type RcsClient } from '../../src/api/index.js';
import { executePlan } from '../../src/apply/execute.js';
import { verifyApplied } from '../../src/apply/verify.js';
import { startEmulator, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
import { LiveCache } from '../../src/kinds/live-cache.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { readLive } from '../../src/plan/read-live.js';
import { admin, MASTER, useEmulator } from '../emulator/helpers.js';
import { desiredAutoReply, desiredBrand } from '../kinds/helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const brand = { id: 'BR.demo000001' };
const desired = () => desiredBrand({ autoReplies: ['one', 'two', 'three'].map((h) => desiredAutoReply(h, { name: `Verify ${h}` })) });

/** Plan and apply `desired()`; the client stays open for what the test does next. */
async function applyCreates(client: RcsClient) {
  const plan = buildPlan({ ...desired(), brandId: brand.id }, await readLive(client, brand, { concurrency: 4 }));
  expect(plan.steps.map((s) => s.op)).toEqual(['create', 'create', 'create']);
  const run = await executePlan(plan, { client, brand, concurrency: 4, allowDelete: false, allowReview: false, fromSavedPlan: false });
  expect(run.results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
  return { plan, ...run };
}

const detailReads = async (): Promise<number> =>
  ((await admin(emu, 'GET', 'requests')).body.requests as { method: string; path: string }[]).filter((r) => r.method === 'GET' && /\/autoreplymsg\/ARM/.test(r.path)).length;

describe('verification', () => {
  it('verifies fresh creates from one list read, without a detail read', async () => {
    const client = createClient({ baseUrl: emu.url, credentials: { token: MASTER } });
    try {
      const { plan, results, ids } = await applyCreates(client);
      await admin(emu, 'DELETE', 'requests');
      const report = await verifyApplied(client, brand, plan, results, ids, 4);
      expect(report.unconverged).toEqual([]);
      expect([report.vouched, report.reread]).toEqual([3, 0]);
      expect(await detailReads()).toBe(0);
      // The list is there for other checks to use.
      expect((report.lists.get('autoReply') as AutoReplyListItem[] | undefined)?.filter((a) => a.autoReplyMsgName.startsWith('Verify '))).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('catches a resource changed after its create, and one gone, naming the field', async () => {
    const client = createClient({ baseUrl: emu.url, credentials: { token: MASTER } });
    try {
      const { plan, results, ids } = await applyCreates(client);
      const two = ids.get('autoReply:two') as string;
      const three = ids.get('autoReply:three') as string;
      // Someone else writes over "two" and deletes "three" between the create and the check.
      await client.autoReplies.update(brand, two, { autoReplyMsgName: 'Verify two', messagebaseId: 'SCS00000', body: { description: 'changed by someone else' } });
      await client.autoReplies.delete(brand, three);
      await admin(emu, 'DELETE', 'requests');
      const report = await verifyApplied(client, brand, plan, results, ids, 4);
      expect(report.unconverged.map((u) => u.message)).toEqual([
        `autoReply.three (${three}) does not exist after apply`,
        `autoReply.two (${two}) differs from the manifest after apply: body.description`,
      ]);
      // "one" and "three" were settled by the list; only "two" was read again.
      expect([report.vouched, report.reread]).toEqual([2, 1]);
      expect(await detailReads()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('catches a change made under a fixed clock (every write moves updateDate)', async () => {
    const seed = parse(readFileSync(defaultSeedPath(), 'utf8')) as Seed;
    const fixed = await startEmulator({ seed: { ...seed, clock: '2026-11-21T10:00:00.000+09' } });
    const client = createClient({ baseUrl: fixed.url, credentials: { token: MASTER } });
    try {
      const { plan, results, ids } = await applyCreates(client);
      const one = ids.get('autoReply:one') as string;
      await client.autoReplies.update(brand, one, { autoReplyMsgName: 'Verify one', messagebaseId: 'SCS00000', body: { description: 'changed at the same clock time' } });
      const report = await verifyApplied(client, brand, plan, results, ids, 4);
      expect(report.unconverged.map((u) => u.address)).toEqual(['autoReply.one']);
    } finally {
      await client.close();
      await fixed.close();
    }
  });

  it('keeps the creates it vouched for in the live cache, never one that differs, and a plan from that cache matches the service', async () => {
    const client = createClient({ baseUrl: emu.url, credentials: { token: MASTER } });
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-verify-cache-'));
    try {
      const { plan, results, ids } = await applyCreates(client);
      const two = ids.get('autoReply:two') as string;
      await client.autoReplies.update(brand, two, { autoReplyMsgName: 'Verify two', messagebaseId: 'SCS00000', body: { description: 'changed by someone else' } });
      const cache = new LiveCache(dir, emu.url);
      const report = await verifyApplied(client, brand, plan, results, ids, 4, undefined, cache);
      expect(report.unconverged.map((u) => u.address)).toEqual(['autoReply.two']);
      cache.save();

      // A later run with the cache reads only "two" again, and plans only the change someone else made.
      await admin(emu, 'DELETE', 'requests');
      const later = new LiveCache(dir, emu.url);
      const live = await readLive(client, brand, { concurrency: 4, cache: later });
      expect(await detailReads()).toBe(1);
      const again = buildPlan({ ...desired(), brandId: brand.id }, live);
      expect(again.steps.map((s) => `${s.op} ${s.address}`)).toEqual(['update autoReply.two']);
      // What the cache served for "one" is what a read gives, in every field plan compares but the postbacks the service fills in.
      const one = ids.get('autoReply:one') as string;
      const fresh = await client.autoReplies.get(brand, one);
      const { buttons: _b, chipList: _c, ...served } = live.autoReplies.find((a) => a.autoReplyMsgId === one) ?? {};
      expect(fresh).toMatchObject(served);
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
