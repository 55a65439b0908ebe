// rcsctl controller in apply mode, in-process on port 0, against the emulator
// over real HTTP: console changes are reverted; a change a review state blocks
// goes out once the review completes; a brand whose lock a CI apply holds
// waits while the others go on.

import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { acquireBrandLock } from '../../src/apply/lock.js';
import type { RunningController } from '../../src/controller/index.js';
import { loadSeed, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { admin, BRAND, cli, clientFor, converge, emulator, EXAMPLE, ROOT, TOKEN } from '../e2e/helpers.js';
import { brandStatus, pointWebhook, startFor, waitFor, waitState } from './helpers.js';

let emu: RunningEmulator | undefined;
let client: RcsClient | undefined;
const running: RunningController[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-controller-apply-'));

afterEach(async () => {
  for (const c of running.splice(0)) await c.close();
  await client?.close();
  await emu?.close();
  client = undefined;
  emu = undefined;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function start(seed?: string | Parameters<typeof emulator>[0]): Promise<{ emu: RunningEmulator; client: RcsClient }> {
  emu = await emulator(seed);
  client = clientFor(emu);
  return { emu, client };
}

/** A plan case's seed with the example agency on its brand, so the emulator posts the brand's notifications to the agency's webhook. */
function withAgency(path: string): Seed {
  const seed = loadSeed(path);
  seed.messaging = { ...seed.messaging, agencies: [{ agencyId: 'agency', agencyKey: 'AK.demo0000000001', brands: [BRAND] }] };
  return seed;
}

async function autoReplyIds(c: RcsClient, brandId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const item of c.autoReplies.list({ id: brandId })) out.set(item.autoReplyMsgName, item.autoReplyMsgId);
  return out;
}

describe('rcsctl controller, apply mode', () => {
  it('reverts a console change after its notification; the next plan is empty', async () => {
    const { emu, client } = await start();
    await converge(client, EXAMPLE);
    const { ctl } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-1') });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    await pointWebhook(emu, ctl.url);
    const hoursId = (await autoReplyIds(client, BRAND)).get('Opening hours')!;
    const hours = await client.autoReplies.get({ id: BRAND }, hoursId);
    await client.autoReplies.update({ id: BRAND }, hoursId, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description: 'Closed for renovation' } });
    await waitFor('the change to be reverted', async () => ((await client.autoReplies.get({ id: BRAND }, hoursId)).body.description !== 'Closed for renovation' ? true : undefined));
    const after = await waitState(ctl.url, BRAND, ['waiting-review'], first.passes);
    expect(after.pendingReasons.some((r) => r.includes('autoReply.hours'))).toBe(false);
    const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode', '--no-cache'], { emu });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('a template change blocked while the template is under review goes out once the review completes', async () => {
    const CASE = join(ROOT, 'test', 'plan-cases', '063-template-under-review-blocked');
    const { emu, client } = await start(withAgency(join(CASE, 'seed.yaml')));
    const { ctl } = await startFor(emu, client, [join(CASE, 'manifest.yaml')], { mode: 'apply', allowReview: true, lockDir: join(tmp, 'locks-2') });
    running.push(ctl);
    await pointWebhook(emu, ctl.url);
    const blocked = await waitState(ctl.url, BRAND, ['blocked']);
    expect(blocked.pendingReasons.join('\n')).toMatch(/template\.hours update: blocked while 검수시작/);
    const id = `U${BRAND}-hours01`;
    const text = (): string => JSON.stringify(emu.store.brands.get(BRAND)?.templates.get(id)?.formattedString);
    expect(text()).not.toContain('close at {{close}}');

    // The review completes; the emulator announces it to the agency's webhook (NotiTemplate), which is the controller.
    await admin(emu, 'POST', 'review', { kind: 'template', brandId: BRAND, id, action: 'complete' });
    const sent = await waitState(ctl.url, BRAND, ['waiting-review'], blocked.passes);
    expect(text()).toContain('close at {{close}}');
    expect(sent.counts).toMatchObject({ steps: 0, blocked: 0 });
  });

  it("a room's held change goes out after the room's approval", async () => {
    const CASE = join(ROOT, 'test', 'plan-cases', '011-room-in-review-blocked');
    const { emu, client } = await start(withAgency(join(CASE, 'seed.yaml')));
    const { ctl } = await startFor(emu, client, [join(CASE, 'manifest.yaml')], { mode: 'apply', allowReview: true, lockDir: join(tmp, 'locks-3') });
    running.push(ctl);
    await pointWebhook(emu, ctl.url);
    const blocked = await waitState(ctl.url, BRAND, ['blocked']);
    expect(blocked.pendingReasons.join('\n')).toMatch(/chatbot\.0212345678 update: blocked while 검수시작/);
    // The room's approval is announced (NotiChatbot) to the controller.
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0212345678', action: 'complete' });
    await waitFor('the room change to go out', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.passes > blocked.passes && s.state !== 'reconciling' && s.state !== 'blocked' ? s : undefined;
    });
    const room = [...(emu.store.brands.get(BRAND)?.chatbots.values() ?? [])].find((c) => c.chatbotId === '0212345678');
    expect(room?.subDescr).toBe('A new description');
  });

  it("waits for a brand whose lock a CI apply holds, and goes on with the others", async () => {
    const OTHER = 'BR.second0001';
    const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: OTHER }], TOKEN);
    const { emu, client } = await start(seed);
    await converge(client, EXAMPLE);
    const other = join(tmp, 'other.yaml');
    writeFileSync(other, `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${OTHER}\nautoReplies:\n  hello:\n    name: Hello\n    messagebaseId: SCS00000\n    body: { description: Hello from the second brand }\n`);
    const eventsId = (await autoReplyIds(client, BRAND)).get('Events')!;
    await client.autoReplies.delete({ id: BRAND }, eventsId);

    const lockDir = join(tmp, 'locks-4');
    const ci = await acquireBrandLock(BRAND, { dir: lockDir, timeoutMs: 0, baseUrl: emu.url, command: 'apply' });
    try {
      const { ctl } = await startFor(emu, client, [EXAMPLE, other], { mode: 'apply', allowReview: true, lockDir });
      running.push(ctl);
      await waitState(ctl.url, OTHER, ['in-sync']);
      expect([...(await autoReplyIds(client, OTHER)).keys()]).toEqual(['Hello']);
      const waiting = await waitFor('the locked brand to say it waits', async () => {
        const s = await brandStatus(ctl.url, BRAND);
        return s.pendingReasons[0]?.startsWith('waiting for the brand') === true ? s : undefined;
      });
      expect(waiting.pendingReasons[0]).toMatch(/held by rcsctl apply \(pid \d+/);
      expect(waiting.passes).toBe(0);
      expect((await autoReplyIds(client, BRAND)).has('Events')).toBe(false);

      ci.release();
      await waitState(ctl.url, BRAND, ['waiting-review']);
      expect((await autoReplyIds(client, BRAND)).has('Events')).toBe(true);
    } finally {
      ci.release();
    }
  });

  it('on close (SIGTERM), stops after the steps in flight and releases the lock', async () => {
    const { emu, client } = await start();
    await converge(client, EXAMPLE);
    for (const id of (await autoReplyIds(client, BRAND)).values()) await client.autoReplies.delete({ id: BRAND }, id);
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 300, method: 'POST', path: '/autoreplymsg$' }] });
    const lockDir = join(tmp, 'locks-5');
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', allowReview: true, lockDir, concurrency: 1 });
    await waitFor('a create to be in flight', async () => (existsSync(lockDir) && readdirSync(lockDir).some((f) => f.endsWith('.lock')) && (await autoReplyIds(client, BRAND)).size > 0 ? true : undefined));
    await ctl.close();
    expect(readdirSync(lockDir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const made = (await autoReplyIds(client, BRAND)).size;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(6);
    expect(logs.some((l) => l.includes('"event":"stopped"'))).toBe(true);
    await admin(emu, 'DELETE', 'faults');
  });
});
