// Shared by the controller's end-to-end tests: a controller started in-process
// on port 0 against an emulator over real HTTP, its HTTP face, and waits that
// poll /status until a condition holds (never a fixed sleep).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { startController, type ControllerOptions, type RunningController } from '../../src/controller/index.js';
import type { BrandStatus, ControllerStatus } from '../../src/controller/status.js';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { admin, clientFor, converge, emulator, EXAMPLE, ROOT } from '../e2e/helpers.js';

/** The bearer token the emulator's webhook calls carry (docs/decisions.md): the controller in these tests expects it. */
export const WEBHOOK_TOKEN = 'emulator-webhook';

/** What a controller test file shares: the controllers it started (closed after each test) and its own folder. */
export interface ControllerSuite {
  running: RunningController[];
  tmp: string;
}

/**
 * One emulator for the file (seeded with `seed()` when given), a client, the
 * example brand converged; every controller in `running` closed after each
 * test; the emulator, the client and `tmp` gone after the file.
 */
export function useControllerSuite(prefix: string, set: (emu: RunningEmulator, client: RcsClient) => void, seed?: () => string | Seed): ControllerSuite {
  const suite: ControllerSuite = { running: [], tmp: mkdtempSync(join(tmpdir(), prefix)) };
  let emu: RunningEmulator | undefined;
  let client: RcsClient | undefined;
  beforeAll(async () => {
    emu = await emulator(seed?.());
    client = clientFor(emu);
    set(emu, client);
    await converge(client, EXAMPLE);
  });
  afterEach(async () => {
    for (const c of suite.running.splice(0)) await c.close();
  });
  afterAll(async () => {
    await client?.close();
    await emu?.close();
    rmSync(suite.tmp, { recursive: true, force: true });
  });
  return suite;
}

/** A controller and the log lines it wrote. */
export interface TestController {
  ctl: RunningController;
  logs: string[];
}

/** Start a controller on 127.0.0.1 port 0 against `emu`, resyncing only when told (interval 1 h). */
export async function startFor(emu: RunningEmulator, client: RcsClient, paths: string[], over: Partial<ControllerOptions> = {}): Promise<TestController> {
  const logs: string[] = [];
  const logOut = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString().split('\n').filter((l) => l !== ''));
      done();
    },
  });
  const ctl = await startController({
    paths,
    client,
    baseUrl: emu.url,
    webhookToken: WEBHOOK_TOKEN,
    env: {},
    cwd: ROOT,
    port: 0,
    intervalMs: 3_600_000,
    concurrency: 4,
    lockRetryMs: 100,
    watchDebounceMs: 100,
    logOut,
    ...over,
  });
  return { ctl, logs };
}

/** Point the example agency's webhook at the controller, as an agency registers its URL with the service. */
export async function pointWebhook(emu: RunningEmulator, url: string, agencyId = 'agency'): Promise<void> {
  await admin(emu, 'POST', 'messaging/webhook', { agencyId, url: `${url}/webhook` });
}

/** GET a path of the controller: status code and parsed JSON (or text). */
export async function get(url: string, path: string): Promise<{ status: number; body: any; type: string }> {
  const res = await request(`${url}${path}`);
  const text = await res.body.text();
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, body: type.startsWith('application/json') ? JSON.parse(text) : text, type };
}

/** POST to /webhook. */
export async function postWebhook(url: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${WEBHOOK_TOKEN}`, 'content-type': 'application/json' }): Promise<{ status: number; body: string }> {
  const res = await request(`${url}/webhook`, { method: 'POST', headers, body });
  return { status: res.statusCode, body: await res.body.text() };
}

/** Poll `probe` until it gives a value (not undefined), or fail after `timeoutMs` naming `what` and the last status seen. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last !== undefined ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The status of one brand. */
export async function brandStatus(url: string, brandId: string): Promise<BrandStatus & { steps?: { address: string; op: string }[]; findings?: unknown[] }> {
  return (await get(url, `/status/${encodeURIComponent(brandId)}`)).body;
}

/** Wait until `brandId` has finished a pass (beyond `afterPasses`) and is in one of `states`. */
export async function waitState(url: string, brandId: string, states: string[], afterPasses = 0, timeoutMs = 30_000): Promise<BrandStatus> {
  return waitFor(`${brandId} in ${states.join('|')} after pass ${afterPasses}`, async () => {
    const s = await brandStatus(url, brandId);
    return s.passes > afterPasses && states.includes(s.state) ? s : undefined;
  }, timeoutMs);
}

/** Wait until nothing waits or runs. */
export async function waitIdle(url: string): Promise<ControllerStatus> {
  return waitFor('the controller to be idle', async () => {
    const s = (await get(url, '/status')).body as ControllerStatus;
    return s.queueDepth === 0 && s.brands.every((b) => b.state !== 'reconciling' && b.passes > 0) ? s : undefined;
  });
}

/** One sample of the Prometheus text: the value of `name{labels}` (labels in any order), or undefined. */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** The sum of every sample of `name` whose labels include `labels` (0 when none). */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}
