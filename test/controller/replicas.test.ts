// Two replicas of one controller shard, as processes (bin/rcsctl.js) with
// their own lock directories (two pods) and one --lock-url (a real PostgreSQL,
// test/pg.ts), against the emulator over real HTTP: one leads and applies, the
// other stands by (ready, /status naming the leader, sending nothing); a CI
// apply from a third lock directory with the same URL is refused naming the
// controller; a kill -9 of the leader hands the shard to the standby within
// 15 s, which converges with no duplicate; a notification that reaches the
// standby reaches the leader.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { LeadershipView } from '../../src/controller/leader.js';
import type { BrandStatus } from '../../src/controller/status.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { PG_PASSWORD, usePostgres } from '../pg.js';
import { admin, BRAND, cli, clientFor, converge, emulator, EXAMPLE, ROOT, TOKEN } from '../e2e/helpers.js';
import { brandStatus, get, metric, pointWebhook, waitFor, WEBHOOK_TOKEN } from './helpers.js';

const db = usePostgres();
let emu: RunningEmulator;
let client: RcsClient;
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-replicas-'));
const children: ChildProcess[] = [];

beforeAll(async () => {
  emu = await emulator();
  client = clientFor(emu);
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await admin(emu, 'DELETE', 'faults');
  await admin(emu, 'POST', 'messaging/webhook', { agencyId: 'agency', url: null });
});
afterAll(async () => {
  await client.close();
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Replica {
  name: string;
  proc: ChildProcess;
  url: string;
  out: () => string;
  exited: Promise<number | null>;
}

/** One replica of shard 1/1 in apply mode: its own lock directory (its own pod), the shared lock URL from the environment. */
async function replica(name: string): Promise<Replica> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'rcsctl.js'), 'controller', EXAMPLE, '--mode', 'apply', '--allow-review', '--shard', '1/1', '--listen', '127.0.0.1:0', '--no-cache', '--interval', '1h', '--concurrency', '1'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: tmp, RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, RCSCTL_LOCK_DIR: join(tmp, `locks-${name}`), RCSCTL_LOCK_URL: db.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await waitFor(`replica ${name} to listen`, async () => /"event":"started","url":"(http:\/\/[^"]+)"/.exec(out)?.[1], 20_000);
  return { name, proc, url, out: () => out, exited };
}

const place = async (r: Replica): Promise<LeadershipView> => (await get(r.url, '/status')).body.leadership as LeadershipView;

/** Start two replicas; once each knows its place: [leader, standby]. */
async function pair(): Promise<[Replica, Replica]> {
  const [a, b] = await Promise.all([replica('a'), replica('b')]);
  return waitFor('one leader and one standby', async () => {
    const [pa, pb] = await Promise.all([place(a), place(b)]);
    if (pa.state === 'leader' && pb.state === 'standby') return [a, b] as [Replica, Replica];
    if (pb.state === 'leader' && pa.state === 'standby') return [b, a] as [Replica, Replica];
    return undefined;
  });
}

async function liveNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const item of client.autoReplies.list({ id: BRAND })) names.push(item.autoReplyMsgName);
  return names.sort();
}

/** Every auto-reply of the example brand gone, and each create slowed, so a pass is long enough to meet. */
async function emptyAndSlow(ms: number): Promise<void> {
  await converge(client, EXAMPLE);
  const ids: string[] = [];
  for await (const item of client.autoReplies.list({ id: BRAND })) ids.push(item.autoReplyMsgId);
  for (const id of ids) await client.autoReplies.delete({ id: BRAND }, id);
  await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms, method: 'POST', path: '/autoreplymsg$' }] });
}

async function converged(r: Replica): Promise<void> {
  await waitFor(`${r.name} to converge`, async () => {
    const s = await brandStatus(r.url, BRAND);
    return s.passes > 0 && (s.state === 'waiting-review' || s.state === 'in-sync') ? s : undefined;
  }, 60_000);
}

describe('controller replicas of one shard with one --lock-url', () => {
  it('one leads and applies, one stands by (ready, naming the leader, sending nothing); a CI apply is refused naming the controller; no duplicate', async () => {
    await emptyAndSlow(600);
    const [leader, standby] = await pair();
    const sp = await place(standby);
    const lp = await place(leader);
    expect(sp.leader?.pid).toBe(leader.proc.pid);
    expect(sp.leader?.url).toBe(`${leader.url}/webhook`);
    expect(lp.leader?.pid).toBe(leader.proc.pid);
    expect((await get(standby.url, '/readyz')).status).toBe(200);
    // Its brands show the standby state naming the leader, not a pass that never runs.
    const host = lp.leader?.host as string;
    for (const b of [await brandStatus(standby.url, BRAND), ...((await get(standby.url, '/status')).body.brands as BrandStatus[])]) {
      expect(b.state).toBe('standby');
      expect(b.leader).toBe(`${host} pid ${leader.proc.pid}`);
      expect(b.pendingReasons).toEqual([`standby: ${host} pid ${leader.proc.pid} leads shard 1/1 and runs this brand's passes`]);
    }
    expect(((await get(leader.url, '/status')).body.brands as BrandStatus[]).every((b) => b.state !== 'standby' && b.leader === undefined)).toBe(true);
    // rcsctl_shard_leader: 1 on the leader, 0 on the standby; both ready.
    for (const [r, leads] of [[leader, 1], [standby, 0]] as const) {
      const text = (await get(r.url, '/metrics')).body as string;
      expect(metric(text, 'rcsctl_shard_leader', { shard: '1/1' }), r.name).toBe(leads);
      expect(metric(text, 'rcsctl_ready'), r.name).toBe(1);
    }

    // While the leader's pass runs (its creates are slow), a CI apply from another machine is refused.
    await waitFor('the leader\'s first create', async () => ((await liveNames()).length > 0 ? true : undefined));
    const ci = await cli(['apply', EXAMPLE, '--yes', '--allow-review', '--no-cache'], { emu, env: { RCSCTL_LOCK_DIR: join(tmp, 'locks-ci'), RCSCTL_LOCK_URL: db.url, GITHUB_ACTIONS: 'true' } });
    expect(ci.code, ci.stdout + ci.stderr).toBe(1);
    expect(ci.stderr).toContain(`brand ${BRAND} is locked by rcsctl controller of shard 1/1 (pid ${leader.proc.pid} on `);
    expect(ci.stderr).toContain('nothing was sent');
    expect(ci.stderr + ci.stdout).not.toContain(PG_PASSWORD);

    await converged(leader);
    const names = await liveNames();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBe(new Set(names).size);
    // The standby sent nothing: it ran no pass.
    expect(standby.out()).not.toContain('"event":"pass"');
    expect((await brandStatus(standby.url, BRAND)).passes).toBe(0);
    for (const r of [leader, standby]) expect(r.out()).not.toContain(PG_PASSWORD);
  }, 120_000);

  it('kill -9 of the leader in the middle of a pass: the standby leads within 15 s and converges with no duplicate', async () => {
    await emptyAndSlow(400);
    const [leader, standby] = await pair();
    await waitFor('the leader\'s first create', async () => ((await liveNames()).length > 0 ? true : undefined));
    leader.proc.kill('SIGKILL');
    await leader.exited;
    const t0 = Date.now();
    await waitFor('the standby to lead', async () => ((await place(standby)).state === 'leader' ? true : undefined), 15_000);
    const tookMs = Date.now() - t0;
    expect(tookMs).toBeLessThan(15_000);
    await admin(emu, 'DELETE', 'faults');
    await converged(standby);
    const names = await liveNames();
    expect(names.length).toBe(new Set(names).size);
    const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode', '--no-cache'], { emu });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 120_000);

  it('a notification that reaches the standby is acted on by the leader', async () => {
    await converge(client, EXAMPLE);
    const [leader, standby] = await pair();
    await converged(leader);
    const before = (await brandStatus(leader.url, BRAND)).passes;
    // The service's notifications go to the standby (a Service may pick either pod).
    await pointWebhook(emu, standby.url);
    let id: string | undefined;
    for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Events') id = item.autoReplyMsgId;
    await client.autoReplies.delete({ id: BRAND }, id!);
    // Only the notification can bring it back: the resync interval is an hour.
    await waitFor('the leader to re-create the deleted auto-reply', async () => ((await liveNames()).includes('Events') && (await brandStatus(leader.url, BRAND)).passes > before ? true : undefined), 30_000);
    expect(standby.out()).toContain('"event":"notification.to_leader"');
    expect(standby.out()).not.toContain('"event":"pass"');
  }, 120_000);
});
