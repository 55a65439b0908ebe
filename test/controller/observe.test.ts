// rcsctl controller in observe mode, in-process on port 0, against the
// emulator over real HTTP: the emulator posts its change notifications to the
// controller's /webhook, as the service posts them to an agency's URL.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, get, metric, pointWebhook, postWebhook, startFor, waitFor, waitIdle, waitState, WEBHOOK_TOKEN, useControllerSuite } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-', (e, c) => {
  emu = e;
  client = c;
});

/** Change the auto-reply "Opening hours" as someone in the web console would: a PUT to the service. */
async function consoleEdit(description: string): Promise<void> {
  let id: string | undefined;
  for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Opening hours') id = item.autoReplyMsgId;
  const hours = await client.autoReplies.get({ id: BRAND }, id!);
  await client.autoReplies.update({ id: BRAND }, id!, {
    autoReplyMsgName: hours.autoReplyMsgName,
    messagebaseId: hours.messagebaseId,
    body: { ...hours.body, description },
    ...(hours.buttons ? { buttons: hours.buttons } : {}),
    ...(hours.chipList ? { chipList: hours.chipList } : {}),
  });
}

describe('rcsctl controller, observe mode', () => {
  it('resyncs on start, then a console change shows as drifted after its notification; status, page, metrics and probes say so', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE]);
    running.push(ctl);
    expect((await get(ctl.url, '/healthz')).status).toBe(200);
    // The room and the logo apply sent to review still wait: nothing to change, a review pending.
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    expect(first.pendingReasons.join('\n')).toMatch(/waiting for review/);
    expect(first.counts).toMatchObject({ steps: 0, waitingReview: 2 });
    expect((await get(ctl.url, '/readyz')).status).toBe(200);

    await pointWebhook(emu, ctl.url);
    await consoleEdit('Closed for renovation');
    const drifted = await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    expect(drifted.pendingReasons).toContain('autoReply.hours update');
    const detail = await brandStatus(ctl.url, BRAND);
    // The pending step with the field it would change, before and after.
    expect(detail.steps).toEqual([{ address: 'autoReply.hours', name: 'Opening hours', op: 'update', gate: { type: 'none' }, changes: [{ path: 'body.description', type: 'change', before: 'Closed for renovation', after: 'Mon-Fri 7:00-20:00, Sat-Sun 9:00-18:00. Closed on public holidays.' }] }]);
    expect(detail).toMatchObject({ brandId: BRAND, state: 'drifted', lastPassOutcome: 'drifted', counts: { steps: 1 } });
    expect(typeof detail.lastPassAt).toBe('string');
    expect(typeof detail.lastPassDurationMs).toBe('number');

    const metrics = await get(ctl.url, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metric(metrics.body, 'rcsctl_brand_in_sync', { brand: BRAND })).toBe(0);
    expect(metric(metrics.body, 'rcsctl_brand_state', { brand: BRAND, state: 'drifted' })).toBe(1);
    expect(metric(metrics.body, 'rcsctl_brand_state', { brand: BRAND, state: 'in-sync' })).toBe(0);
    expect(metric(metrics.body, 'rcsctl_notifications_total', { type: 'autoreplymsg', method: 'modified' })).toBeGreaterThanOrEqual(1);
    expect(metric(metrics.body, 'rcsctl_reconcile_total', { brand: BRAND, result: 'drifted' })).toBeGreaterThanOrEqual(1);
    expect(metric(metrics.body, 'rcsctl_reconcile_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(metric(metrics.body, 'rcsctl_queue_depth')).toBeDefined();
    expect(metric(metrics.body, 'rcsctl_requests_total', { status: '200' })).toBeGreaterThanOrEqual(1);

    const page = await get(ctl.url, '/');
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain(`>${BRAND}</a>`);
    expect(page.body).toContain('drifted');
    const all = (await get(ctl.url, '/status')).body;
    expect(all).toMatchObject({ mode: 'observe', ready: true, brands: [{ brandId: BRAND, state: 'drifted' }] });

    // Structured lines: every one JSON, the notification and the state change among them, no secret.
    const events = logs.map((l) => JSON.parse(l) as { event: string; brand?: string; to?: string });
    expect(events.some((e) => e.event === 'notification' && e.brand === BRAND)).toBe(true);
    expect(events.some((e) => e.event === 'brand.state' && e.to === 'drifted')).toBe(true);
    expect(logs.join('\n')).not.toContain(WEBHOOK_TOKEN);
    expect(logs.join('\n')).not.toContain('emulator-master-token');
    await consoleEdit('Mon-Fri 7:00-20:00, Sat-Sun 9:00-18:00. Closed on public holidays.');
  });

  it('refuses a notification without the token, with a wrong one, or from outside --allow-from, and queues nothing', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE], { allowFrom: ['127.0.0.0/8'] });
    running.push(ctl);
    const settled = await waitIdle(ctl.url);
    const passes = settled.brands[0]!.passes;
    const body = JSON.stringify([{ notiType: 'autoreplymsg', brandId: BRAND, autoReplyMsgId: 'ARM1', method: 'modified' }]);
    expect((await postWebhook(ctl.url, body, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await postWebhook(ctl.url, body, { 'content-type': 'application/json', authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await postWebhook(ctl.url, body, { 'content-type': 'application/json', authorization: `Basic ${WEBHOOK_TOKEN}` })).status).toBe(401);
    let s = (await get(ctl.url, '/status')).body;
    expect(s.queueDepth).toBe(0);
    expect(s.brands[0]).toMatchObject({ passes, state: settled.brands[0]!.state });

    const outside = await startFor(emu, client, [EXAMPLE], { allowFrom: ['10.0.0.0/8', 'fd00::/8'] });
    running.push(outside.ctl);
    const o = await waitIdle(outside.ctl.url);
    expect((await postWebhook(outside.ctl.url, body)).status).toBe(403);
    s = (await get(outside.ctl.url, '/status')).body;
    expect(s.queueDepth).toBe(0);
    expect(s.brands[0].passes).toBe(o.brands[0]!.passes);
    expect(metric((await get(outside.ctl.url, '/metrics')).body, 'rcsctl_notifications_total', { type: 'autoreplymsg', method: 'modified' })).toBeUndefined();

    // The same body with the token, from inside: accepted, and exactly its pass runs.
    const ok = await postWebhook(ctl.url, body);
    expect(ok).toEqual({ status: 200, body: expect.stringContaining('"accepted": 1') });
    await waitState(ctl.url, BRAND, ['waiting-review', 'in-sync', 'drifted'], passes);
  });

  it('answers malformed bodies with 400 (or 413, 415) and a log line, and stays up', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { maxBodyBytes: 4096 });
    running.push(ctl);
    const before = (await waitIdle(ctl.url)).brands[0]!.passes;
    const cases: [string, string, number, Record<string, string>?][] = [
      ['not JSON', '{"notiType": "logo",', 400],
      ['an empty array', '[]', 400],
      ['a string', '"logo"', 400],
      ['an item that is not an object', '[{"notiType":"logo","brandId":"BR.x"}, 3]', 400],
      ['no notiType', '{"brandId":"BR.demo000001"}', 400],
      ['a brandId that is not an id', '{"notiType":"logo","brandId":"../../etc"}', 400],
      ['too large', JSON.stringify([{ notiType: 'logo', brandId: BRAND, reason: 'x'.repeat(5000) }]), 413],
      ['not JSON by its type', '{"notiType":"logo"}', 415, { authorization: `Bearer ${WEBHOOK_TOKEN}`, 'content-type': 'text/plain' }],
    ];
    for (const [what, body, status, headers] of cases) expect((await postWebhook(ctl.url, body, headers)).status, what).toBe(status);
    expect(logs.filter((l) => l.includes('"webhook.malformed"'))).toHaveLength(cases.length);
    expect((await get(ctl.url, '/healthz')).status).toBe(200);
    const s = (await get(ctl.url, '/status')).body;
    expect(s.queueDepth).toBe(0);
    expect(s.brands[0].passes).toBe(before);
    // A bare object (the public OpenAPI document's form) is taken as one notification.
    expect((await postWebhook(ctl.url, JSON.stringify({ notiType: 'logo', brandId: BRAND, fileId: 'F', method: 'modified' }))).status).toBe(200);
    await waitState(ctl.url, BRAND, ['waiting-review'], before);
  });

  it('coalesces a burst of 1,000 notifications for one brand into a few passes', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE]);
    running.push(ctl);
    const before = (await waitIdle(ctl.url)).brands[0]!.passes;
    const body = JSON.stringify([{ notiType: 'autoreplymsg', brandId: BRAND, autoReplyMsgId: 'ARM1', method: 'modified' }]);
    for (let i = 0; i < 1000; i += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => postWebhook(ctl.url, body)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    const after = await waitIdle(ctl.url);
    const passes = after.brands[0]!.passes - before;
    expect(passes).toBeGreaterThanOrEqual(1);
    expect(passes).toBeLessThanOrEqual(5);
    expect(metric((await get(ctl.url, '/metrics')).body, 'rcsctl_notifications_total', { type: 'autoreplymsg', method: 'modified' })).toBe(1000);
  });

  it('re-reads the manifests when they change: a changed field drifts, a broken file fails the brand, a fixed one recovers', async () => {
    const dir = join(tmp, 'watched');
    cpSync(EXAMPLE, dir, { recursive: true });
    const file = join(dir, 'brand.yaml');
    const text = readFileSync(file, 'utf8');
    const { ctl } = await startFor(emu, client, [dir]);
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);

    writeFileSync(file, text.replace('Closed on public holidays.', 'Open on public holidays.'));
    const drifted = await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    expect(drifted.pendingReasons).toContain('autoReply.hours update');

    writeFileSync(file, text.replace('autoReplies:', 'autoReplies: [\n'));
    const failed = await waitFor('the broken manifest to fail the brand', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'failed' ? s : undefined;
    });
    expect(failed.lastError).toMatchObject({ code: 'E_MANIFEST' });
    expect(failed.pendingReasons[0]).toMatch(/brand\.yaml:\d+:\d+: RCS\d+ /);

    writeFileSync(file, text);
    await waitFor('the fixed manifest to bring the brand back', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'waiting-review' ? s : undefined;
    });
  });
});
