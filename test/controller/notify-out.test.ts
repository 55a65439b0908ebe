// Notifications out, end to end: the controller against the emulator over real
// HTTP, and receivers on 127.0.0.1 standing for a Slack incoming webhook and a
// generic JSON webhook. Exactly one message per transition (a pass that finds
// the same sends nothing), per-destination triggers and templates, retries with
// backoff, and no secret in what is sent or logged.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { parseControllerConfig } from '../../src/controller/config.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, converge, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, get, metric, pointWebhook, postWebhook, startFor, useControllerSuite, waitFor, waitState } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-notify-', (e, c) => {
  emu = e;
  client = c;
});

/** A receiver: every body posted to it, and the statuses it answers with (200 once they run out). */
interface Receiver {
  url: string;
  bodies: any[];
  attempts: number;
  answers: number[];
  server: Server;
}
const receivers: Receiver[] = [];

async function receiver(answers: number[] = []): Promise<Receiver> {
  const r: Receiver = { url: '', bodies: [], attempts: 0, answers: [...answers], server: undefined as unknown as Server };
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.attempts++;
      const status = r.answers.shift() ?? 200;
      if (status === 200) r.bodies.push({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), path: req.url, auth: req.headers.authorization });
      res.writeHead(status).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
  receivers.push(r);
  return r;
}

beforeEach(async () => {
  // The seed again (a test moves reviews along), then the example brand as its manifests say.
  await admin(emu, 'POST', 'reset');
  await converge(client, EXAMPLE);
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await new Promise((resolve) => r.server.close(resolve));
});

function destinations(text: string, env: Record<string, string>): ReturnType<typeof parseControllerConfig>['notifications'] {
  return parseControllerConfig(`apiVersion: rcsctl/v1\nkind: ControllerConfig\nnotifications:\n${text}`, 'controller.yaml', tmp, env).notifications;
}

async function consoleEdit(description: string): Promise<void> {
  let id = '';
  for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Opening hours') id = item.autoReplyMsgId;
  const hours = await client.autoReplies.get({ id: BRAND }, id);
  await client.autoReplies.update({ id: BRAND }, id, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description } });
}

const notify = (): Promise<unknown> => postWebhook(running[running.length - 1]!.url, JSON.stringify([{ notiType: 'autoreplymsg', brandId: BRAND, method: 'modified' }]));

describe('notifications out', () => {
  it('a Slack receiver gets exactly one message per transition: drifted once however many passes find it drifted, then recovered', async () => {
    const slack = await receiver();
    const secretPath = '/services/T0000/B0000/slacksecretpath0123';
    const dest = destinations(`  - name: ops-slack\n    type: slack\n    url: \${env:SLACK_URL}\n    triggers: [drifted, recovered]\n    message: "{{brand}} is {{to}} (was {{from}}): {{reason}}"\n`, { SLACK_URL: `${slack.url}${secretPath}` });
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { notifications: dest, secrets: dest.map((d) => d.url) });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    await consoleEdit('Closed for renovation');
    await notify();
    const drifted = await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    // Two more passes that find it drifted: no more messages.
    await notify();
    const again = await waitState(ctl.url, BRAND, ['drifted'], drifted.passes);
    await notify();
    await waitState(ctl.url, BRAND, ['drifted'], again.passes);
    await waitFor('the drifted message', async () => (slack.bodies.length >= 1 ? true : undefined));
    await converge(client, EXAMPLE);
    await notify();
    await waitState(ctl.url, BRAND, ['waiting-review'], again.passes + 1);
    await waitFor('the recovered message', async () => (slack.bodies.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    const texts = slack.bodies.map((b) => b.text as string);
    expect(texts).toHaveLength(2);
    // The reason is the first pending reasons: the step, then the reviews the brand waits for.
    expect(texts[0]).toMatch(new RegExp(`^${BRAND.replace('.', '\\.')} is drifted \\(was waiting-review\\): autoReply\\.hours update; `));
    expect(texts[1]).toBe(`${BRAND} is waiting-review (was drifted): now waiting-review`);
    expect(slack.bodies.every((b) => b.path === secretPath && Object.keys(b).sort().join() === 'auth,path,text')).toBe(true);
    const metrics = (await get(ctl.url, '/metrics')).body as string;
    expect(metric(metrics, 'rcsctl_notifications_out_total', { destination: 'ops-slack', result: 'sent' })).toBe(2);
    expect(metrics).not.toContain('slacksecretpath0123');
    expect(logs.filter((l) => l.includes('"notify.sent"')), logs.join("\n")).toHaveLength(2);
    expect(logs.some((l) => l.includes('slacksecretpath0123'))).toBe(false);
  });

  it('a generic webhook gets the JSON of each event it subscribes to: a step applied in apply mode, a review rejected with its reason and one completed', async () => {
    const hook = await receiver();
    const dest = destinations(`  - name: audit\n    type: webhook\n    url: ${hook.url}/rcsctl\n    headers: { authorization: "Bearer \${env:HOOK_TOKEN}" }\n    triggers: [step-applied, review-rejected, review-completed]\n    brands: ["BR.demo*"]\n`, { HOOK_TOKEN: 'hook-token-0123456789' });
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockDir: join(tmp, 'locks-1'), notifications: dest });
    running.push(ctl);
    await pointWebhook(emu, ctl.url);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    await consoleEdit('Closed for renovation');
    await waitFor('the step-applied message', async () => (hook.bodies.length >= 1 ? true : undefined));
    expect(hook.bodies[0]).toMatchObject({ event: 'step-applied', brand: BRAND, details: ['autoReply.hours update'], reason: '1 step applied: autoReply.hours update', path: '/rcsctl', auth: 'Bearer hook-token-0123456789' });
    expect(hook.bodies[0].controller).toBe(ctl.url);
    // The reviews waiting on the example brand: one rejected, one completed.
    const waiting = ((await brandStatus(ctl.url, BRAND)).findings as { address: string; message: string; ageDays?: number }[]).filter((f) => f.ageDays !== undefined);
    expect(waiting.map((f) => f.address).sort()).toEqual(['chatbot.0298765432', 'logo.main']);
    const reject = 'chatbot.0298765432';
    const complete = 'logo.main';
    const logoId = /\((BLG-[^)]+)\)/.exec(waiting.find((f) => f.address === complete)!.message)![1]!;
    const idOf = (address: string): { kind: string; id: string } => (address === reject ? { kind: 'chatbot', id: '0298765432' } : { kind: 'logo', id: logoId });
    const passes = (await brandStatus(ctl.url, BRAND)).passes;
    await admin(emu, 'POST', 'review', { ...idOf(reject), brandId: BRAND, action: 'reject', reason: 'logo too small' });
    await waitFor('the review-rejected message', async () => (hook.bodies.some((b) => b.event === 'review-rejected') ? true : undefined));
    await admin(emu, 'POST', 'review', { ...idOf(complete), brandId: BRAND, action: 'complete' });
    await waitFor('the review-completed message', async () => (hook.bodies.some((b) => b.event === 'review-completed') ? true : undefined));
    await waitState(ctl.url, BRAND, ['drifted'], passes);
    await new Promise((r) => setTimeout(r, 300));
    const rejected = hook.bodies.filter((b) => b.event === 'review-rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0].details).toEqual([reject]);
    expect(rejected[0].reason).toContain('logo too small');
    expect(hook.bodies.filter((b) => b.event === 'review-completed').map((b) => b.details)).toEqual([[complete]]);
    expect(hook.bodies.filter((b) => b.event === 'step-applied')).toHaveLength(1);
    expect(first.passes).toBeGreaterThan(0);
    expect(logs.some((l) => l.includes('hook-token-0123456789'))).toBe(false);
  });

  it('a receiver that fails is tried again with backoff; one that keeps failing is counted and logged, and the others still get theirs', async () => {
    const flaky = await receiver([503, 503]);
    const down = await receiver([500, 500, 500, 500, 500]);
    const dest = destinations(`  - name: flaky\n    type: slack\n    url: ${flaky.url}/a\n    triggers: [drifted]\n  - name: down\n    type: webhook\n    url: ${down.url}/b\n    triggers: [drifted]\n`, {});
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { notifications: dest, notifyRetry: { attempts: 3, baseMs: 20, maxMs: 100 } });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    await consoleEdit('Closed for renovation');
    await notify();
    await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    await waitFor('both deliveries to end', async () => (logs.some((l) => l.includes('"notify.failed"')) && logs.some((l) => l.includes('"notify.sent"')) ? true : undefined));
    expect(flaky.attempts).toBe(3);
    expect(flaky.bodies).toHaveLength(1);
    expect(down.attempts).toBe(3);
    expect(down.bodies).toHaveLength(0);
    const metrics = (await get(ctl.url, '/metrics')).body as string;
    expect(metric(metrics, 'rcsctl_notifications_out_total', { destination: 'flaky', result: 'sent' })).toBe(1);
    expect(metric(metrics, 'rcsctl_notifications_out_total', { destination: 'down', result: 'failed' })).toBe(1);
    expect(logs.find((l) => l.includes('"notify.failed"'))).toMatch(/"destination":"down".*"error":"HTTP 500"/);
  });
  it('a brand that fails sends failed once, naming why, and recovered when it is fixed', async () => {
    const hook = await receiver();
    const dir = join(tmp, 'failing');
    cpSync(EXAMPLE, dir, { recursive: true });
    const file = join(dir, 'brand.yaml');
    const good = readFileSync(file, 'utf8');
    const dest = destinations(`  - name: oncall\n    type: webhook\n    url: ${hook.url}/oncall\n    triggers: [failed, recovered]\n`, {});
    const { ctl } = await startFor(emu, client, [dir], { notifications: dest });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    // A push that breaks the brand's file: the brand fails without a pass.
    writeFileSync(file, `${good}\nautoReplies: [\n`);
    await waitFor('the failed message', async () => (hook.bodies.length >= 1 ? true : undefined));
    expect((await brandStatus(ctl.url, BRAND)).state).toBe('failed');
    writeFileSync(file, good);
    await waitState(ctl.url, BRAND, ['waiting-review'], first.passes);
    await waitFor('the recovered message', async () => (hook.bodies.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.bodies.map((b) => [b.event, b.from, b.to])).toEqual([
      ['failed', 'waiting-review', 'failed'],
      ['recovered', 'failed', 'waiting-review'],
    ]);
    expect(hook.bodies[0].reason).toMatch(/brand\.yaml:\d+:\d+: RCS\d+ /);
    expect(hook.bodies[1].reason).toBe('now waiting-review');
  });

  it('a review that waits past the warning sends review-late once per resource, on the pass that finds it late', async () => {
    const hook = await receiver();
    let clock = Date.now();
    const dest = destinations(`  - name: reviews\n    type: webhook\n    url: ${hook.url}/reviews\n    triggers: [review-late]\n`, {});
    const { ctl } = await startFor(emu, client, [EXAMPLE], { notifications: dest, reviewWarningMs: 14 * 86_400_000, now: () => new Date(clock) });
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    // Thirteen days on: waiting, not late yet.
    clock += 13 * 86_400_000;
    await notify();
    const early = await waitState(ctl.url, BRAND, ['waiting-review'], first.passes);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.bodies).toHaveLength(0);
    // Two more days: both reviews are late, once each; the next pass adds nothing.
    clock += 2 * 86_400_000;
    await notify();
    const late = await waitState(ctl.url, BRAND, ['waiting-review'], early.passes);
    await notify();
    await waitState(ctl.url, BRAND, ['waiting-review'], late.passes);
    await waitFor('the review-late messages', async () => (hook.bodies.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.bodies.map((b) => b.event)).toEqual(['review-late', 'review-late']);
    expect(hook.bodies.flatMap((b) => b.details).sort()).toEqual(['chatbot.0298765432', 'logo.main']);
    expect(hook.bodies.every((b) => /for 1[45] days/.test(b.reason as string))).toBe(true);
  });
});
