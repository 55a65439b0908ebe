// Two shard replicas in-process (1/2 and 2/2) with --shard-peers, as a
// StatefulSet behind one Service: the Service hands a notification to either
// pod, and the pod that does not own the brand forwards it to the one that
// does. The peers' URLs go through a loopback router that records every
// forwarded request, as the headless Service's per-pod names would route them.

import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningController } from '../../src/controller/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { parseShard, shardOf } from '../../src/plan/shard.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { BRAND, clientFor, converge, emulator, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { get, metric, postWebhook, startFor, waitFor, waitIdle, waitState, WEBHOOK_TOKEN } from './helpers.js';

// The example brand falls in shard 1 of 2; OTHER in shard 2, so each replica has a brand.
const OTHER = 'BR.shard00004';
let emu: RunningEmulator;
let client: RcsClient;
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-controller-shards-'));
const replicas = new Map<number, RunningController>();
const logs = new Map<number, string[]>();
/** What reached the router: the shard it was for, and its headers. */
const routed: { shard: number; headers: IncomingHttpHeaders }[] = [];
/** Shards whose pod answers 503, as one that is not ready. */
const down = new Set<number>();
let router: Server;

beforeAll(async () => {
  expect(shardOf(BRAND, 2)).toBe(1);
  expect(shardOf(OTHER, 2)).toBe(2);
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: OTHER }], TOKEN);
  emu = await emulator(seed);
  client = clientFor(emu);
  await converge(client, EXAMPLE);
  writeFileSync(join(tmp, `${OTHER}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${OTHER}\n`);
  router = createServer((req, res) => {
    const shard = Number(/^\/(\d+)\/webhook$/.exec(req.url ?? '')?.[1]);
    routed.push({ shard, headers: req.headers });
    const target = replicas.get(shard);
    if (target === undefined || down.has(shard)) {
      req.resume();
      res.writeHead(503).end();
      return;
    }
    const up = new URL(`${target.url}/webhook`);
    const fwd = httpRequest({ host: up.hostname, port: up.port, path: up.pathname, method: 'POST', headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(fwd);
  });
  await new Promise<void>((r) => router.listen(0, '127.0.0.1', r));
  const peers = `http://127.0.0.1:${(router.address() as AddressInfo).port}/{shard}/webhook`;
  for (const i of [1, 2]) {
    const started = await startFor(emu, client, [EXAMPLE, tmp], { shard: parseShard(`${i}/2`), shardPeers: peers });
    replicas.set(i, started.ctl);
    logs.set(i, started.logs);
  }
  for (const ctl of replicas.values()) await waitIdle(ctl.url);
});
afterAll(async () => {
  for (const c of replicas.values()) await c.close();
  await new Promise((r) => router.close(r));
  await client.close();
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

const note = (brandId: string): string => JSON.stringify([{ notiType: 'autoreplymsg', method: 'modified', brandId }]);
const forwards = async (shard: number, result: string): Promise<number | undefined> => metric((await get(replicas.get(shard)!.url, '/metrics')).body, 'rcsctl_notification_forwards_total', { result });

describe('rcsctl controller --shard-peers', () => {
  it('a notification for shard 1\'s brand sent to replica 2 is forwarded once, with the token, and drifts the brand on replica 1', async () => {
    const one = replicas.get(1)!;
    const two = replicas.get(2)!;
    const before = (await get(one.url, `/status/${BRAND}`)).body.passes as number;
    // A console edit the controllers have not heard of: only the notification can start a pass (resync every hour).
    let id: string | undefined;
    for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Opening hours') id = item.autoReplyMsgId;
    const hours = await client.autoReplies.get({ id: BRAND }, id!);
    await client.autoReplies.update({ id: BRAND }, id!, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description: 'Closed for renovation' }, ...(hours.buttons ? { buttons: hours.buttons } : {}), ...(hours.chipList ? { chipList: hours.chipList } : {}) });

    const answer = await postWebhook(two.url, note(BRAND));
    expect(answer.status).toBe(200);
    const drifted = await waitState(one.url, BRAND, ['drifted'], before);
    expect(drifted.pendingReasons).toContain('autoReply.hours update');
    expect(routed.map((r) => r.shard)).toEqual([1]);
    expect(routed[0]!.headers.authorization).toBe(`Bearer ${WEBHOOK_TOKEN}`);
    expect(routed[0]!.headers['x-rcsctl-forwarded']).toBe('2/2');
    expect(await forwards(2, 'forwarded')).toBe(1);
    // Replica 1 got it forwarded and owns the brand: it forwards nothing.
    expect(await forwards(1, 'forwarded')).toBe(0);
  });

  it('a forwarded request is never forwarded again, and a replica\'s own brand never leaves it', async () => {
    const two = replicas.get(2)!;
    const seen = routed.length;
    const answer = await postWebhook(two.url, note(BRAND), { authorization: `Bearer ${WEBHOOK_TOKEN}`, 'content-type': 'application/json', 'x-rcsctl-forwarded': '1/2' });
    expect(answer.status).toBe(200);
    await waitFor('the refusal to forward again to be counted', async () => ((await forwards(2, 'already-forwarded')) === 1 ? true : undefined));
    expect((await postWebhook(two.url, note(OTHER))).status).toBe(200);
    await waitIdle(two.url);
    expect(routed.length).toBe(seen);
  });

  it('no token: 401 and nothing forwarded', async () => {
    const seen = routed.length;
    const answer = await postWebhook(replicas.get(2)!.url, note(BRAND), { 'content-type': 'application/json' });
    expect(answer.status).toBe(401);
    // Then one with the token: exactly one more request reaches the router, so the refused one sent none.
    expect((await postWebhook(replicas.get(2)!.url, note(BRAND))).status).toBe(200);
    await waitFor('the second forward', async () => ((await forwards(2, 'forwarded')) === 2 ? true : undefined));
    expect(routed.length).toBe(seen + 1);
  });

  it('a failed forward and a notification naming no brand are logged and counted; the webhook still answers 200', async () => {
    down.add(1);
    try {
      expect((await postWebhook(replicas.get(2)!.url, note(BRAND))).status).toBe(200);
      await waitFor('the failed forward to be counted', async () => ((await forwards(2, 'failed')) === 1 ? true : undefined));
      const line = logs.get(2)!.map((l) => JSON.parse(l)).find((l) => l.event === 'notification.forward_failed');
      expect(line).toMatchObject({ shard: '1/2', notifications: 1, message: 'HTTP 503' });
    } finally {
      down.delete(1);
    }
    expect((await postWebhook(replicas.get(2)!.url, JSON.stringify([{ notiType: 'format', method: 'modified' }]))).status).toBe(200);
    await waitFor('the brandless notification to be counted', async () => ((await forwards(2, 'no-brand')) === 1 ? true : undefined));
    expect(logs.get(2)!.some((l) => l.includes('notification.not_forwarded') && l.includes('names no brand'))).toBe(true);
  });
});
