// An operator's hand on the switch, end to end against the emulator over real
// HTTP: a brand the configuration file suspends is observed and not applied
// until resumed through the API (the CLI client); sync now runs one pass; the
// control API wants its own token; a deny window holds apply mode and lifts at
// its end (a controllable clock), and a manual sync is refused or allowed in
// it as the window says.

import { join } from 'node:path';
import { request } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { parseControllerConfig } from '../../src/controller/config.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, converge, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, get, metric, startFor, useControllerSuite, waitFor, waitState, WEBHOOK_TOKEN } from './helpers.js';

const API_TOKEN = 'control-api-token-0123456789';
let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-controls-', (e, c) => {
  emu = e;
  client = c;
});

beforeEach(async () => {
  await converge(client, EXAMPLE);
});

/** Change the 'Opening hours' auto-reply as the console would; its id. */
async function consoleEdit(): Promise<string> {
  let id = '';
  for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Opening hours') id = item.autoReplyMsgId;
  const hours = await client.autoReplies.get({ id: BRAND }, id);
  await client.autoReplies.update({ id: BRAND }, id, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description: 'Closed for renovation' } });
  return id;
}

async function description(id: string): Promise<string | undefined> {
  return (await client.autoReplies.get({ id: BRAND }, id)).body.description as string | undefined;
}

/** The windows and suspensions of a configuration text. */
function config(text: string): ReturnType<typeof parseControllerConfig> {
  return parseControllerConfig(`apiVersion: rcsctl/v1\nkind: ControllerConfig\n${text}`, 'controller.yaml', tmp, {});
}

async function post(url: string, path: string, token: string | undefined, body = '{}'): Promise<{ status: number; body: any }> {
  const res = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) }, body });
  return { status: res.statusCode, body: JSON.parse(await res.body.text()) };
}

const clientEnv = (url: string): Record<string, string> => ({ RCSCTL_CONTROLLER_URL: url, RCSCTL_CONTROLLER_TOKEN: API_TOKEN });

describe('suspend, resume and sync now', () => {
  it('a brand the file suspends is observed, not applied; resumed through the CLI client, its next pass applies', async () => {
    const id = await consoleEdit();
    const c = config('suspend:\n  - brand: BR.demo000001\n    reason: spring campaign\n');
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-1'), apiToken: API_TOKEN, suspend: c.suspend });
    running.push(ctl);
    const held = await waitState(ctl.url, BRAND, ['drifted']);
    expect(held.suspended).toMatchObject({ by: 'config', reason: 'spring campaign' });
    expect(held.pendingReasons[0]).toBe('suspended (by the configuration file: spring campaign): observed, nothing is applied');
    expect(held.pendingReasons.some((r) => r.startsWith('autoReply.hours update'))).toBe(true);
    expect(await description(id)).toBe('Closed for renovation');
    expect(metric((await get(ctl.url, '/metrics')).body, 'rcsctl_brands_suspended')).toBe(1);

    const r = await cli(['controller', 'resume', BRAND], { env: clientEnv(ctl.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${BRAND}: resumed\n`);
    await waitFor('the console change to be reverted', async () => ((await description(id)) !== 'Closed for renovation' ? true : undefined));
    const after = await waitState(ctl.url, BRAND, ['waiting-review'], held.passes);
    expect(after.suspended).toBeUndefined();
    expect(metric((await get(ctl.url, '/metrics')).body, 'rcsctl_brands_suspended')).toBe(0);
    expect(logs.some((l) => l.includes(API_TOKEN))).toBe(false);
  });

  it('suspended through the API: for the life of the process, and /status says so; sync now runs exactly one pass, observe only', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-2'), apiToken: API_TOKEN });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    const s = await cli(['controller', 'suspend', BRAND, '--reason', 'incident 42'], { env: clientEnv(ctl.url) });
    expect(s.code, s.stderr).toBe(0);
    expect((await brandStatus(ctl.url, BRAND)).suspended).toMatchObject({ by: 'api', reason: 'incident 42' });
    const id = await consoleEdit();
    const sync = await cli(['controller', 'sync', BRAND], { env: clientEnv(ctl.url) });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/pass started \(observe only: suspended \(through the API: incident 42\)/);
    const after = await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    expect(after.passes).toBe(first.passes + 1);
    expect(await description(id)).toBe('Closed for renovation');
    // Exactly one pass: nothing else was asked for.
    await new Promise((r) => setTimeout(r, 600));
    expect((await brandStatus(ctl.url, BRAND)).passes).toBe(first.passes + 1);
    expect(logs.filter((l) => /"event":"pass"/.test(l) && l.includes('"trigger":"manual"'))).toHaveLength(1);
  });

  it('the control API wants its own token: none configured 403, none or a wrong one 401; the webhook token is refused as the API token', async () => {
    const off = await startFor(emu, client, [EXAMPLE], { lockDir: join(tmp, 'locks-3') });
    running.push(off.ctl);
    expect((await post(off.ctl.url, `/brands/${BRAND}/suspend`, API_TOKEN)).status).toBe(403);
    const on = await startFor(emu, client, [EXAMPLE], { lockDir: join(tmp, 'locks-4'), apiToken: API_TOKEN });
    running.push(on.ctl);
    expect((await post(on.ctl.url, `/brands/${BRAND}/suspend`, undefined)).status).toBe(401);
    expect((await post(on.ctl.url, `/brands/${BRAND}/suspend`, WEBHOOK_TOKEN)).status).toBe(401);
    expect((await post(on.ctl.url, `/brands/${BRAND}/suspend`, `${API_TOKEN}x`)).status).toBe(401);
    expect((await post(on.ctl.url, '/brands/BR.nosuchbrand/sync', API_TOKEN)).status).toBe(404);
    expect((await get(on.ctl.url, `/brands/${BRAND}/sync`)).status).toBe(405);
    expect((await brandStatus(on.ctl.url, BRAND)).suspended).toBeUndefined();
    expect((await post(on.ctl.url, `/brands/${BRAND}/suspend`, API_TOKEN)).status).toBe(200);
    expect(on.logs.filter((l) => l.includes('api.refused'))).toHaveLength(3);
    expect(on.logs.some((l) => l.includes(API_TOKEN) || l.includes(WEBHOOK_TOKEN))).toBe(false);
    await expect(startFor(emu, client, [EXAMPLE], { apiToken: WEBHOOK_TOKEN.padEnd(20, '-'), webhookToken: WEBHOOK_TOKEN.padEnd(20, '-') })).rejects.toThrow(/must differ from the webhook token/);
    const wrong = await cli(['controller', 'sync', BRAND], { env: { RCSCTL_CONTROLLER_URL: on.ctl.url, RCSCTL_CONTROLLER_TOKEN: 'not-the-right-token-at-all' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the controller refused the token (401)');
    expect(wrong.stdout + wrong.stderr).not.toContain('not-the-right-token-at-all');
  });
});

describe('sync windows', () => {
  it('a deny window holds apply mode (observe goes on, /status says until when), refuses a manual sync, and lifts at its end', async () => {
    let clock = Date.parse('2026-03-02T22:30:00Z');
    const c = config('syncWindows:\n  - kind: deny\n    schedule: "0 22 * * *"\n    duration: 1h\n    timeZone: UTC\n    brands: ["BR.demo*"]\n');
    const id = await consoleEdit();
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-5'), apiToken: API_TOKEN, syncWindows: c.syncWindows, now: () => new Date(clock), windowTickMs: 50 });
    running.push(ctl);
    const held = await waitState(ctl.url, BRAND, ['drifted']);
    expect(held.syncWindow).toEqual({ kind: 'deny', window: 'deny "0 22 * * *" for 1h (UTC), syncWindows[0]', until: '2026-03-02T23:00:00.000Z', manualSync: false });
    expect(held.pendingReasons[0]).toBe('inside the sync window deny "0 22 * * *" for 1h (UTC), syncWindows[0] until 2026-03-02T23:00:00.000Z: observed, nothing is applied');
    expect(await description(id)).toBe('Closed for renovation');
    const metrics = (await get(ctl.url, '/metrics')).body;
    expect(metric(metrics, 'rcsctl_sync_windows_open', { kind: 'deny' })).toBe(1);
    expect(metric(metrics, 'rcsctl_brands_held_by_window')).toBe(1);
    const refused = await cli(['controller', 'sync', BRAND], { env: clientEnv(ctl.url) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the controller answered 409: inside the sync window .* and the window allows no manual sync/);
    // Still inside: nothing lifts.
    clock = Date.parse('2026-03-02T22:59:59Z');
    await new Promise((r) => setTimeout(r, 300));
    expect(logs.some((l) => l.includes('window.lifted'))).toBe(false);
    clock = Date.parse('2026-03-02T23:00:00Z');
    await waitFor('the console change to be reverted once the window ends', async () => ((await description(id)) !== 'Closed for renovation' ? true : undefined));
    expect(logs.filter((l) => l.includes('window.lifted'))).toHaveLength(1);
    const after = await waitState(ctl.url, BRAND, ['waiting-review'], held.passes);
    expect(after.syncWindow).toBeUndefined();
    expect(metric((await get(ctl.url, '/metrics')).body, 'rcsctl_sync_windows_open', { kind: 'deny' })).toBe(0);
  });

  it('a window with manualSync lets sync now apply inside it; outside every allow window the brand waits for the next', async () => {
    const clock = Date.parse('2026-03-02T12:00:00Z');
    const c = config('syncWindows:\n  - kind: allow\n    schedule: "0 2 * * 1-5"\n    duration: 2h\n    timeZone: Asia/Seoul\n    manualSync: true\n');
    const id = await consoleEdit();
    const { ctl } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-6'), apiToken: API_TOKEN, syncWindows: c.syncWindows, now: () => new Date(clock), windowTickMs: 50 });
    running.push(ctl);
    const held = await waitState(ctl.url, BRAND, ['drifted']);
    // 02:00 in Seoul on Tuesday is 17:00 UTC on Monday.
    expect(held.syncWindow).toMatchObject({ kind: 'outside-allow', until: '2026-03-02T17:00:00.000Z', manualSync: true });
    expect(await description(id)).toBe('Closed for renovation');
    const sync = await post(ctl.url, `/brands/${BRAND}/sync`, API_TOKEN);
    expect(sync).toEqual({ status: 202, body: { brand: BRAND, accepted: true, applies: true } });
    await waitFor('the manual sync to apply', async () => ((await description(id)) !== 'Closed for renovation' ? true : undefined));
  });
});
