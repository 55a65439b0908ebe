// The controller's options end to end: --shard splits the brands as CI's
// --shard does, --review-warning feeds rcsctl_reviews_waiting_late, text log
// lines, and the command refuses bad flags and a missing webhook token
// before it connects.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { parseShard, shardOf } from '../../src/plan/shard.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { main } from '../../src/cli/main.js';
import { BRAND, Capture, cli, clientFor, emulator, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { get, metric, metricSum, postWebhook, startFor, waitIdle, waitState, WEBHOOK_TOKEN, useControllerSuite } from './helpers.js';

const OTHERS = ['BR.shard00001', 'BR.shard00002', 'BR.shard00003', 'BR.shard00004'];
let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-opts-', (e, c) => {
  emu = e;
  client = c;
}, () => withDeclaredBrands(loadSeed(defaultSeedPath()), OTHERS.map((brandId) => ({ brandId })), TOKEN).seed);

beforeAll(() => {
  for (const id of OTHERS) writeFileSync(join(tmp, `${id}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${id}\n`);
});

describe('rcsctl controller options', () => {
  it('--shard i/n serves exactly the brands CI\'s --shard i/n gives; the replicas together serve every brand once', async () => {
    const all = [BRAND, ...OTHERS].sort();
    const served: string[] = [];
    for (const i of [1, 2]) {
      const { ctl } = await startFor(emu, client, [EXAMPLE, tmp], { shard: parseShard(`${i}/2`) });
      running.push(ctl);
      const s = await waitIdle(ctl.url);
      const ids = s.brands.map((b) => b.brandId);
      expect(ids).toEqual(all.filter((id) => shardOf(id, 2) === i));
      expect(s.shard).toBe(`${i}/2`);
      served.push(...ids);
      const ci = await cli(['brands', EXAMPLE, tmp, '--shard', `${i}/2`]);
      for (const id of ids) expect(ci.stdout).toContain(id);
    }
    expect(served.sort()).toEqual(all);
  });

  it('--shard i/n: the replica\'s limiter ramps up as 1 of n sharing the account (its RCSCTL_DEBUG=limiter summary, on stop)', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const stop = new AbortController();
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, RCSCTL_DEBUG: 'limiter', RCSCTL_LOCK_DIR: join(tmp, 'locks'), HOME: tmp };
    const done = main(['controller', EXAMPLE, tmp, '--shard', '2/2', '--listen', '127.0.0.1:0', '--no-cache'], { stdout, stderr, env, cwd: tmp, signal: stop.signal });
    let ended = false;
    void done.finally(() => (ended = true));
    while (!ended && !/"event":"pass"/.test(stdout.text)) await new Promise((r) => setTimeout(r, 20));
    expect(ended, stderr.text).toBe(false);
    stop.abort();
    expect(await done, stderr.text).toBe(0);
    expect(stderr.text).toMatch(/^rcsctl debug: limiter: auto \(cap 32, ramping as 1 of 2 sharing the account\), /m);
  });

  it('--review-warning: reviews waiting longer count in rcsctl_reviews_waiting_late; text log lines', async () => {
    const { ctl, logs } = await startFor(emu, client, [EXAMPLE], { reviewWarningMs: 1, logFormat: 'text' });
    running.push(ctl);
    const s = await waitState(ctl.url, BRAND, ['waiting-review']);
    expect(s.counts).toMatchObject({ waitingReview: 2, lateReviews: 2 });
    expect(metric((await get(ctl.url, '/metrics')).body, 'rcsctl_reviews_waiting_late', { brand: BRAND })).toBe(2);
    expect(logs.find((l) => / info pass brand=BR\.demo000001 mode=observe state=waiting-review /.test(l))).toBeDefined();
    expect(logs.every((l) => /^\d{4}-\d\d-\d\dT\S+ (info|warn|error) [a-z.]+/.test(l))).toBe(true);

    const relaxed = await startFor(emu, client, [EXAMPLE]);
    running.push(relaxed.ctl);
    expect((await waitState(relaxed.ctl.url, BRAND, ['waiting-review'])).counts).toMatchObject({ waitingReview: 2, lateReviews: 0 });
  });

  it('while the service does not answer, the brand is failed with the network error, /readyz and /healthz stay 200, and the metrics count the refused connections', async () => {
    const own = await emulator();
    const ownClient = clientFor(own);
    const { ctl } = await startFor(own, ownClient, [EXAMPLE], {});
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['drifted', 'waiting-review', 'in-sync']);
    expect((await get(ctl.url, '/readyz')).status).toBe(200);
    await own.close();
    // A notification makes the brand read again, against a service that is gone.
    expect((await postWebhook(ctl.url, JSON.stringify([{ notiType: 'autoreplymsg', brandId: BRAND, method: 'modified' }]))).status).toBe(200);
    const failed = await waitState(ctl.url, BRAND, ['failed'], first.passes, 60_000);
    expect(failed.lastError?.code).toBe('E_NETWORK');
    // Readiness is this replica's ability to take webhooks; the service's health is a metric (docs/controller.md).
    expect((await get(ctl.url, '/readyz')).status).toBe(200);
    expect((await get(ctl.url, '/healthz')).status).toBe(200);
    const metrics = (await get(ctl.url, '/metrics')).body;
    expect(metricSum(metrics, 'rcsctl_service_requests_total', { status: 'connect' })).toBeGreaterThanOrEqual(5);
    expect(metric(metrics, 'rcsctl_brand_state', { brand: BRAND, state: 'failed' })).toBe(1);
    await ownClient.close();
  }, 90_000);

  it('the command refuses bad flags and a missing webhook token before it connects', async () => {
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN };
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--mode', 'fix'], env, /--mode must be observe or apply, not "fix"/],
      [['--log-format', 'xml'], env, /--log-format must be json or text/],
      [['--listen', 'nowhere'], env, /--listen must be HOST:PORT/],
      [['--interval', 'often'], env, /--interval must be a duration/],
      [['--allow-review'], env, /only with --mode apply/],
      [['--history', '0'], env, /--history must be a whole number of passes from 1 to 1000, not "0"/],
      [['--history', '20 passes'], env, /--history must be a whole number of passes from 1 to 1000, not "20 passes"/],
      [['--history', '1001'], env, /--history must be a whole number/],
      [['--allow-from', '10.0.0.0/40'], env, /--allow-from must be an address or CIDR/],
      [[], { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN }, /needs a webhook token of at least 8 characters: set RCSCTL_WEBHOOK_TOKEN or pass --webhook-token-file/],
      [['--webhook-token-file', join(tmp, 'missing')], env, /cannot read --webhook-token-file .*missing \(ENOENT\)/],
      [['--shard-peers', 'http://peer-{shard}:9464/webhook'], env, /--shard-peers means something only with --shard/],
      [['--shard', '1/2', '--shard-peers', 'http://peer:9464/webhook'], env, /--shard-peers must contain \{shard\}/],
      [['--shard', '1/2', '--shard-peers', 'ftp://peer-{shard}/webhook'], env, /--shard-peers must give http or https URLs, not "ftp:\/\/peer-1\/webhook"/],
      [[join(tmp, 'no-such-dir')], env, /declare no brand:\n.*RCS100 no such file or directory/],
    ];
    for (const [args, e, message] of cases) {
      // A path of its own, or the example brand.
      const paths = args[0]?.startsWith('/') === true ? [] : [EXAMPLE];
      const r = await cli(['controller', ...paths, '--listen', '127.0.0.1:0', ...args], { env: e });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
