// The create re-check against the emulator over real HTTP: one list read serves
// every create of a kind while it is younger than the window, the next is read
// in the background past half the window, and a refusal always rests on a read
// started after the create was ready. A name made by someone else between the
// plan and the run is refused; one made during the run, after the re-check's
// read, is left to verification, which reports it.

import { describe, expect, it } from 'vitest';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { applyEachBrand } from '../../src/apply/apply-brands.js';
import { executePlan } from '../../src/apply/execute.js';
import { listsFromLive, touchedKinds } from '../../src/apply/interference.js';
import { absenceCheck } from '../../src/apply/recheck.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { RcsctlError } from '../../src/errors.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { readLive } from '../../src/plan/read-live.js';
import { admin, MASTER, useEmulator } from '../emulator/helpers.js';
import { desiredAutoReply, desiredBrand } from '../kinds/helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const brand = { id: 'BR.demo000001' };
const client = (): RcsClient => createClient({ baseUrl: emu.url, credentials: { token: MASTER } });
const req = (name: string) => ({ autoReplyMsgName: name, messagebaseId: 'SCS00000', body: { description: `about ${name}` } });

/** Auto-reply list reads logged since the last call (the log is cleared). */
async function listReads(): Promise<number> {
  const log = (await admin(emu, 'GET', 'requests')).body.requests as { method: string; path: string }[];
  await admin(emu, 'DELETE', 'requests');
  return log.filter((r) => r.method === 'GET' && /\/autoreplymsg$/.test(r.path)).length;
}

/** Wait until the emulator has logged `n` list reads since the last clear (a read started in the background). */
async function untilListReads(n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const log = (await admin(emu, 'GET', 'requests')).body.requests as { method: string; path: string }[];
    if (log.filter((r) => r.method === 'GET' && /\/autoreplymsg$/.test(r.path)).length >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${n} list reads logged`);
}

async function conflictOf(p: Promise<void>): Promise<RcsctlError | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (err instanceof RcsctlError) return err;
    throw err;
  }
}

describe('the create re-check', () => {
  it('reads the list once per window, refreshes it in the background past half the window, and waits only past the whole window', async () => {
    const c = client();
    try {
      let clock = 0;
      const check = absenceCheck(c, brand, { windowMs: 1000, now: () => clock });
      await listReads();
      await check.assertAbsent('autoReply', 'Recheck a', 'autoReply.a');
      expect(await listReads()).toBe(1);
      clock = 400;
      await check.assertAbsent('autoReply', 'Recheck b', 'autoReply.b');
      expect(await listReads()).toBe(0);
      // Past half the window: cleared by the read it has, and a new read starts beside it.
      clock = 600;
      await check.assertAbsent('autoReply', 'Recheck c', 'autoReply.c');
      await untilListReads(1);
      expect(await listReads()).toBe(1);
      clock = 700;
      await check.assertAbsent('autoReply', 'Recheck d', 'autoReply.d');
      expect(await listReads()).toBe(0);
      // Past the whole window since the newest read (started at 600): the create waits for a new one.
      clock = 1700;
      await check.assertAbsent('autoReply', 'Recheck e', 'autoReply.e');
      expect(await listReads()).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('refuses a name only once a read started after the create was ready shows it', async () => {
    const c = client();
    try {
      let clock = 0;
      const check = absenceCheck(c, brand, { windowMs: 1000, now: () => clock });
      const held = await c.autoReplies.create(brand, req('Recheck held'));
      const gone = await c.autoReplies.create(brand, req('Recheck gone'));
      await listReads();
      await check.assertAbsent('autoReply', 'Recheck other', 'autoReply.other');
      expect(await listReads()).toBe(1);

      // Held in the read and still there: refused, on a second read.
      clock = 100;
      const refused = await conflictOf(check.assertAbsent('autoReply', 'Recheck held', 'autoReply.held'));
      expect(refused?.code).toBe('E_APPLY_CONFLICT');
      expect(refused?.message).toBe(`an auto-reply named "Recheck held" now exists (${held.autoReplyMsgId}), made since the plan by someone else; not created again. Run plan to see the brand as it is now`);
      expect(await listReads()).toBe(1);

      // Held in the read, deleted since (as a delete this run made before its create would): cleared by the new read.
      await c.autoReplies.delete(brand, gone.autoReplyMsgId);
      clock = 200;
      await listReads();
      await check.assertAbsent('autoReply', 'Recheck gone', 'autoReply.gone');
      expect(await listReads()).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('refuses a create whose name someone else made between the plan and the run, and creates the rest', async () => {
    const c = client();
    try {
      const desired = desiredBrand({ autoReplies: ['one', 'two', 'three'].map((h) => desiredAutoReply(h, { name: `Recheck ${h}` })) });
      const plan = buildPlan({ ...desired, brandId: brand.id }, await readLive(c, brand, { concurrency: 4 }));
      const theirs = await c.autoReplies.create(brand, req('Recheck two'));
      const run = await executePlan(plan, { client: c, brand, concurrency: 4, allowDelete: false, allowReview: false, fromSavedPlan: false });
      expect(run.results.map((r) => `${r.step.address} ${r.status}`)).toEqual(['autoReply.one done', 'autoReply.three done', 'autoReply.two failed']);
      expect(run.results.find((r) => r.step.address === 'autoReply.two')?.message).toBe(`failed: an auto-reply named "Recheck two" now exists (${theirs.autoReplyMsgId}), made since the plan by someone else; not created again. Run plan to see the brand as it is now`);
    } finally {
      await c.close();
    }
  });

  it('leaves a name made during the run, after its read, to verification, which reports it and the duplicate', async () => {
    const c = client();
    const other = client();
    try {
      const desired = desiredBrand({ autoReplies: ['one', 'two', 'three'].map((h) => desiredAutoReply(h, { name: `Recheck ${h}` })) });
      const live = await readLive(c, brand, { concurrency: 4 });
      const plan = buildPlan({ ...desired, brandId: brand.id }, live);
      // One create at a time; another client makes "Recheck three" once "one" has been created.
      let theirs: string | undefined;
      let creates = 0;
      const hooked: RcsClient = {
        ...c,
        autoReplies: {
          ...c.autoReplies,
          create: async (b, r) => {
            if (++creates === 2) theirs = (await other.autoReplies.create(brand, req('Recheck three'))).autoReplyMsgId;
            return c.autoReplies.create(b, r);
          },
        },
      };
      await listReads();
      const [outcome] = await applyEachBrand(hooked, [{ plan, brand, before: listsFromLive(live, touchedKinds(plan)) }], { concurrency: 1, allowDelete: false, allowReview: false, fromSavedPlan: false });
      if (outcome?.status !== 'verified') throw new Error(`not verified: ${JSON.stringify(outcome)}`);
      expect(outcome.results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
      const ours = outcome.ids.get('autoReply:three') as string;
      const messages = outcome.unconverged.map((u) => u.message);
      expect(messages).toContainEqual(`${brand.id}: auto-reply "Recheck three" (${theirs}) was created by someone else during this run`);
      expect(messages.find((m) => m.includes('are named "Recheck three"'))).toContain(`2 auto-replies are named "Recheck three" (${theirs}, ${ours})`);
      expect(messages.find((m) => m.includes('are named'))).toContain('rcsctl apply --dedupe --allow-delete');
      // One re-check read for the three creates, one for verification.
      expect(await listReads()).toBe(2);
    } finally {
      await c.close();
      await other.close();
    }
  });
});
