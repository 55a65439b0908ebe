// The controller's metrics, scraped from /metrics over HTTP while it runs
// against the emulator (issue 36): the process and Node.js defaults, every
// request to the service by operation and status (429s and retries among
// them, counted exactly as the client counts them), the limiter's pace, the
// build, the resync, each brand's last success, the shard's leader; a running
// pass that leaves the state gauge alone; and no series left of a brand that
// left the manifests.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { VERSION } from '../../src/version.js';
import { admin, BRAND, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { brandStatus, get, metric, metricSum, postWebhook, startFor, waitFor, waitIdle, waitState, useControllerSuite } from './helpers.js';

const LEAVING = 'BR.metric0001';
let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-metrics-', (e, c) => {
  emu = e;
  client = c;
}, () => withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: LEAVING }], TOKEN).seed);
const dir = (): string => join(tmp, 'brands');
const leavingFile = (): string => join(dir(), `${LEAVING}.yaml`);

beforeAll(() => {
  mkdirSync(dir(), { recursive: true });
  writeFileSync(leavingFile(), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${LEAVING}\n`);
});

const scrape = async (url: string): Promise<string> => {
  const res = await get(url, '/metrics');
  expect(res.status).toBe(200);
  return res.body as string;
};

describe('rcsctl controller metrics', () => {
  it('exports the process and Node.js metrics, the build, the resync, each brand\'s last success, the shard\'s leader, and every request to the service by operation and status, 429s, retries and the pace', async () => {
    // A client of its own, so every request it counts is this controller's.
    const own = createClient({ baseUrl: emu.url, credentials: { token: TOKEN }, concurrency: 'auto' });
    const t0 = Date.now() / 1000;
    // Three reads in ten answered 429 (Retry-After: 0): retried, and the limiter sets a pace.
    await admin(emu, 'POST', 'faults', { seed: 7, rules: [{ kind: 'rate-limit', rate: 0.3, retryAfter: 0, method: 'GET', path: '/autoreplymsg' }] });
    try {
      const { ctl } = await startFor(emu, own, [EXAMPLE]);
      running.push(ctl);
      await waitIdle(ctl.url);
      const text = await scrape(ctl.url);
      const t1 = Date.now() / 1000;

      // prom-client's defaults.
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) expect(metric(text, name), name).toBeGreaterThan(0);
      expect(metric(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(metric(text, 'rcsctl_build_info', { version: VERSION })).toBe(1);

      // Every attempt, by the contract's operation and the status; the sum is what the client sent.
      expect(metric(text, 'rcsctl_service_requests_total', { operation: 'autoReply.list', status: '200' })).toBeGreaterThanOrEqual(1);
      expect(metric(text, 'rcsctl_service_requests_total', { operation: 'template.list', status: '200' })).toBeGreaterThanOrEqual(1);
      expect(metricSum(text, 'rcsctl_service_requests_total', { status: '429' })).toBe(own.limits.rateLimited);
      expect(own.limits.rateLimited).toBeGreaterThan(0);
      expect(metricSum(text, 'rcsctl_service_requests_total')).toBe(own.stats.requests);
      expect(metricSum(text, 'rcsctl_service_retries_total')).toBe(own.stats.retries);
      expect(own.stats.retries).toBeGreaterThan(0);
      expect(text).not.toMatch(/operation="other"/);
      // The limiter: a pace since the 429s, and its limit on requests in flight.
      expect(metric(text, 'rcsctl_service_pace_requests_per_second')).toBe(own.limits.pace);
      expect(Number.isFinite(own.limits.pace)).toBe(true);
      expect(metric(text, 'rcsctl_service_concurrency_limit')).toBe(own.limits.concurrency);

      const success = metric(text, 'rcsctl_brand_last_success_timestamp_seconds', { brand: BRAND })!;
      expect(success).toBeGreaterThanOrEqual(t0);
      expect(success).toBeLessThanOrEqual(t1);
      const resync = metric(text, 'rcsctl_last_resync_timestamp_seconds')!;
      expect(resync).toBeGreaterThanOrEqual(t0);
      expect(resync).toBeLessThanOrEqual(success);
      expect(metric(text, 'rcsctl_resync_interval_seconds')).toBe(3600);
      expect(metric(text, 'rcsctl_shard_leader', { shard: 'all' })).toBe(1);
      expect(metric(text, 'rcsctl_ready')).toBe(1);
      expect(metric(text, 'rcsctl_brand_reconciling', { brand: BRAND })).toBe(0);
      await running.pop()!.close();
    } finally {
      await admin(emu, 'DELETE', 'faults');
      await own.close();
    }
  }, 60_000);

  it('before a pass has read a brand through, its last success is when the controller took it on', async () => {
    const refused = createClient({ baseUrl: emu.url, credentials: { token: 'not-a-token-the-service-knows' } });
    const t0 = Date.now() / 1000;
    try {
      const { ctl } = await startFor(emu, refused, [EXAMPLE]);
      running.push(ctl);
      await waitIdle(ctl.url);
      const text = await scrape(ctl.url);
      expect(metric(text, 'rcsctl_brand_state', { brand: BRAND, state: 'failed' })).toBe(1);
      expect(metric(text, 'rcsctl_service_requests_total', { operation: 'autoReply.list', status: '401' })).toBeGreaterThanOrEqual(1);
      const since = metric(text, 'rcsctl_brand_last_success_timestamp_seconds', { brand: BRAND })!;
      expect(since).toBeGreaterThanOrEqual(t0);
      expect(since).toBeLessThanOrEqual(metric(text, 'rcsctl_last_resync_timestamp_seconds')!);
      await running.pop()!.close();
    } finally {
      await refused.close();
    }
  });

  it('a running pass leaves rcsctl_brand_state as the last pass ended (no reset of an alert\'s for:); rcsctl_brand_reconciling says it runs', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE]);
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 1500, method: 'GET', path: `${BRAND.replace('.', '\\.')}/autoreplymsg$` }] });
    try {
      expect((await postWebhook(ctl.url, JSON.stringify([{ notiType: 'brand', brandId: BRAND, method: 'modified' }]))).status).toBe(200);
      const during = await waitFor('the pass to run', async () => {
        const text = await scrape(ctl.url);
        return metric(text, 'rcsctl_brand_reconciling', { brand: BRAND }) === 1 ? text : undefined;
      }, 10_000);
      expect((await brandStatus(ctl.url, BRAND)).state).toBe('reconciling');
      expect(metric(during, 'rcsctl_brand_state', { brand: BRAND, state: 'waiting-review' })).toBe(1);
      expect(during).not.toMatch(/state="reconciling"/);
      expect(metricSum(during, 'rcsctl_brand_state', { brand: BRAND })).toBe(1);
    } finally {
      await admin(emu, 'DELETE', 'faults');
    }
    await waitState(ctl.url, BRAND, ['waiting-review'], first.passes);
    const after = await scrape(ctl.url);
    expect(metric(after, 'rcsctl_brand_reconciling', { brand: BRAND })).toBe(0);
    expect(metric(after, 'rcsctl_brand_state', { brand: BRAND, state: 'waiting-review' })).toBe(1);
  }, 30_000);

  it('a brand that leaves the manifests leaves no series behind', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE, dir()]);
    running.push(ctl);
    await waitIdle(ctl.url);
    const before = await scrape(ctl.url);
    const series = (text: string): string[] => text.split('\n').filter((l) => l.includes(`brand="${LEAVING}"`)).map((l) => l.split(/[{ ]/)[0]!);
    expect(new Set(series(before))).toEqual(
      new Set(['rcsctl_brand_in_sync', 'rcsctl_brand_state', 'rcsctl_brand_reconciling', 'rcsctl_brand_last_success_timestamp_seconds', 'rcsctl_reviews_waiting_late', 'rcsctl_reconcile_total']),
    );
    rmSync(leavingFile());
    await waitFor(`${LEAVING} to leave /status`, async () => ((await get(ctl.url, '/status')).body.brands.some((b: { brandId: string }) => b.brandId === LEAVING) ? undefined : true));
    const after = await scrape(ctl.url);
    expect(series(after)).toEqual([]);
    expect(metric(after, 'rcsctl_brand_state', { brand: BRAND, state: 'waiting-review' })).toBe(1);
  });
});
