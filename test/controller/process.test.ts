// rcsctl controller as a real process (bin/rcsctl.js), against the emulator
// over real HTTP: it serves, takes the emulator's notifications, and on
// SIGTERM stops cleanly with exit 0. And in apply mode, `kill -9` in the
// middle of a pass, a change while it is down and a restart converge with
// no duplicate.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, clientFor, converge, emulator, EXAMPLE, ROOT, TOKEN } from '../e2e/helpers.js';
import { brandStatus, get, pointWebhook, waitFor, waitState, WEBHOOK_TOKEN } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-controller-proc-'));
const children: ChildProcess[] = [];

beforeAll(async () => {
  emu = await emulator();
  client = clientFor(emu);
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await client.close();
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Child {
  proc: ChildProcess;
  url: string;
  out: () => string;
  exited: Promise<number | null>;
}

/** Start `rcsctl controller` as a process on a free port; resolves once it has said where it listens. */
async function spawnController(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'rcsctl.js'), 'controller', ...args, '--listen', '127.0.0.1:0', '--no-cache'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: tmp, RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, RCSCTL_LOCK_DIR: join(tmp, 'locks') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await waitFor('the controller to listen', async () => /"event":"started","url":"(http:\/\/[^"]+)"/.exec(out)?.[1], 20_000);
  return { proc, url, out: () => out, exited };
}

describe('rcsctl controller as a process', () => {
  it('serves, takes the emulator\'s notifications, and on SIGTERM stops cleanly (exit 0), one JSON line per event, no secret', async () => {
    await converge(client, EXAMPLE);
    const c = await spawnController([EXAMPLE]);
    const first = await waitState(c.url, BRAND, ['waiting-review']);
    expect((await get(c.url, '/readyz')).status).toBe(200);
    await pointWebhook(emu, c.url);
    let id: string | undefined;
    for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Events') id = item.autoReplyMsgId;
    await client.autoReplies.delete({ id: BRAND }, id!);
    const drifted = await waitState(c.url, BRAND, ['drifted'], first.passes);
    expect(drifted.pendingReasons).toContain('autoReply.events create');
    c.proc.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    const lines = c.out().trim().split('\n');
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    expect(lines.at(-1)).toContain('"event":"stopped"');
    expect(c.out()).not.toContain(TOKEN);
    expect(c.out()).not.toContain(WEBHOOK_TOKEN);
    await admin(emu, 'POST', 'messaging/webhook', { agencyId: 'agency', url: null });
  });

  it('apply mode: kill -9 in the middle of a pass, a change while it is down, a restart: it converges with no duplicate', async () => {
    await converge(client, EXAMPLE);
    // Every auto-reply gone, each create slowed: the pass is long enough to be killed in the middle.
    const names: string[] = [];
    for await (const item of client.autoReplies.list({ id: BRAND })) names.push(item.autoReplyMsgId);
    for (const id of names) await client.autoReplies.delete({ id: BRAND }, id);
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 400, method: 'POST', path: '/autoreplymsg$' }] });
    const count = async (): Promise<number> => {
      let n = 0;
      for await (const _ of client.autoReplies.list({ id: BRAND })) n++;
      return n;
    };
    const first = await spawnController([EXAMPLE, '--mode', 'apply', '--allow-review', '--concurrency', '1']);
    await waitFor('the first creates to land', async () => ((await count()) > 0 ? true : undefined));
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(readdirSync(join(tmp, 'locks')).length).toBe(1);
    await admin(emu, 'DELETE', 'faults');

    // While it is down, someone deletes one of the auto-replies it made.
    let made: string | undefined;
    for await (const item of client.autoReplies.list({ id: BRAND })) made ??= item.autoReplyMsgId;
    await client.autoReplies.delete({ id: BRAND }, made!);

    const second = await spawnController([EXAMPLE, '--mode', 'apply', '--allow-review']);
    await waitFor('the restarted controller to converge', async () => {
      const s = await brandStatus(second.url, BRAND);
      return s.passes > 0 && (s.state === 'waiting-review' || s.state === 'in-sync') ? s : undefined;
    }, 60_000);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    // The lock the killed process left was taken over, and released at the end.
    expect(existsSync(join(tmp, 'locks')) ? readdirSync(join(tmp, 'locks')).filter((f) => f.endsWith('.lock')) : []).toEqual([]);

    const live: string[] = [];
    for await (const item of client.autoReplies.list({ id: BRAND })) live.push(item.autoReplyMsgName);
    expect(live.length).toBe(new Set(live).size);
    const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode', '--no-cache'], { emu });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 120_000);

  it('--shutdown-timeout 3s is a hard bound: with every create answered 20 s late, SIGTERM mid-pass exits 0 within 4 s, the steps in flight reported interrupted, the lock released; a re-run converges with no duplicate', async () => {
    await converge(client, EXAMPLE);
    const ids: string[] = [];
    for await (const item of client.autoReplies.list({ id: BRAND })) ids.push(item.autoReplyMsgId);
    for (const id of ids) await client.autoReplies.delete({ id: BRAND }, id);
    // Every create answered 20 s late (the change is made at once, the answer waits): the pass is stuck on its requests in flight.
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 20_000, method: 'POST' }] });
    await admin(emu, 'DELETE', 'requests');
    const c = await spawnController([EXAMPLE, '--mode', 'apply', '--allow-review', '--shutdown-timeout', '3s']);
    // The creates are on their way.
    await waitFor('a create in flight', async () => (((await admin(emu, 'GET', 'requests')).requests as { method: string }[]).some((r) => r.method === 'POST') ? true : undefined), 60_000);
    const t0 = Date.now();
    c.proc.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    const took = Date.now() - t0;
    expect(took, c.out()).toBeLessThan(4_000);
    const events = c.out().trim().split('\n').map((l) => JSON.parse(l) as { event: string; interrupted?: string[]; brand?: string });
    expect(events.some((e) => e.event === "stopping.timeout"), c.out()).toBe(true);
    const stopped = events.find((e) => e.event === 'pass.stopped');
    expect(stopped?.brand).toBe(BRAND);
    expect(stopped?.interrupted?.some((s) => /interrupted in flight|not started/.test(s))).toBe(true);
    expect(events.at(-1)?.event).toBe('stopped');
    expect(existsSync(join(tmp, 'locks')) ? readdirSync(join(tmp, 'locks')).filter((f) => f.endsWith('.lock')) : []).toEqual([]);

    await admin(emu, 'DELETE', 'faults');
    const again = await spawnController([EXAMPLE, '--mode', 'apply', '--allow-review']);
    await waitFor('the re-run to converge', async () => {
      const s = await brandStatus(again.url, BRAND);
      return s.passes > 0 && (s.state === 'waiting-review' || s.state === 'in-sync') ? s : undefined;
    }, 60_000);
    again.proc.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    const live: string[] = [];
    for await (const item of client.autoReplies.list({ id: BRAND })) live.push(item.autoReplyMsgName);
    expect(live.length).toBe(new Set(live).size);
    const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode', '--no-cache'], { emu });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 180_000);
});
