// The controller's figures (issue 29): the whole `rcsctl controller` process
// (bin/rcsctl.js as a child) against an emulator child holding 200 brands ×
// 50 auto-replies that answers every request after LATENCY_MS, the manifests
// matching it (every brand in sync). Each figure is printed with how it was
// measured:
// - resync against the CLI: `rcsctl plan` of every brand, as a process, and a
//   controller's full resync (its start-up one: from its `resync` log line to
//   the last brand's `pass` line, and from spawn to that line), alternated
//   RUNS times, medians and their ratio (target ≤ 1.10);
// - RSS over time: one controller in observe mode at a short --interval,
//   its resident set after each of 10 resyncs (target: flat);
// - notification-to-status latency: a console change (a PUT to the service)
//   and then its notification posted to /webhook, timed until GET
//   /status/BRAND shows the new state; SAMPLES times, p50 and p99;
// - coalescing: 1,000 notifications for one brand posted in a burst, and the
//   passes that brand got.
//
//   npm run bench -- controller
//   BENCH_RUNS=5 npm run bench -- controller

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createClient, type RcsClient } from '../src/api/index.js';
import { startEmulator, type Seed } from '../src/emulator/index.js';
import { emulatorChild as emulatorChildOf, fleetSeed, serveEmulator, writeFleetManifests, type Fleet } from './controller-fleet.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');
const TOKEN = 'bench-master-token';
const WEBHOOK_TOKEN = 'bench-webhook-token';
const LATENCY_MS = 20;
const BRANDS = 200;
const PER_BRAND = 50;
const CONCURRENCY = '16';
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const RESYNCS = 10;
const RSS_INTERVAL = '15s';
const SAMPLES = 50;
const BURST = 1000;
const TARGET_RATIO = 1.1;

const FLEET: Fleet = {
  brands: BRANDS,
  perBrand: PER_BRAND,
  token: TOKEN,
  brandId: (b) => `BR.ctl${String(b).padStart(7, '0')}`,
  replyName: (i) => `Auto-reply ${String(i).padStart(4, '0')}`,
};
const brandId = FLEET.brandId;
const replyName = FLEET.replyName;
const seed = (): Seed => fleetSeed(FLEET);
const writeManifests = (dir: string): void => writeFleetManifests(dir, FLEET);
const emulatorChild = (): Promise<{ url: string; close: () => void }> => emulatorChildOf(import.meta.url);

const env = (url: string): NodeJS.ProcessEnv => ({ ...process.env, RCSCTL_BASE_URL: url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, NO_COLOR: '1' });
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** `rcsctl plan` of every brand as a child, to its exit: wall milliseconds. */
function planOnce(url: string, dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const child = spawn(process.execPath, [BIN, 'plan', dir, '--concurrency', CONCURRENCY, '--no-cache', '--json'], { stdio: ['ignore', 'ignore', 'pipe'], env: env(url) });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(now() - t0) : reject(new Error(`rcsctl plan exited ${code}: ${err.slice(-300)}`))));
  });
}

/** A controller child and the events it logged, each with the time the bench read it. */
interface Controller {
  proc: ChildProcess;
  spawnedAt: number;
  url: Promise<string>;
  events: { at: number; event: string; brand?: string }[];
  /** Resolves when `count` more `pass` lines have come after the `n`-th `resync` line. */
  resyncDone(n: number): Promise<{ resyncAt: number; doneAt: number }>;
  stop(): Promise<void>;
}

function controller(url: string, dir: string, interval: string): Controller {
  const spawnedAt = now();
  const proc = spawn(process.execPath, [BIN, 'controller', dir, '--listen', '127.0.0.1:0', '--concurrency', CONCURRENCY, '--no-cache', '--interval', interval], { stdio: ['ignore', 'pipe', 'pipe'], env: env(url) });
  const events: Controller['events'] = [];
  const waiters: (() => void)[] = [];
  let buf = '';
  let resolveUrl: (u: string) => void = () => undefined;
  const listening = new Promise<string>((r) => (resolveUrl = r));
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    const at = now();
    for (const line of lines) {
      try {
        const e = JSON.parse(line) as { event: string; brand?: string; url?: string };
        events.push({ at, event: e.event, ...(e.brand !== undefined ? { brand: e.brand } : {}) });
        if (e.event === 'started' && e.url !== undefined) resolveUrl(e.url);
      } catch {
        // not a log line
      }
    }
    for (const w of waiters.splice(0)) w();
  });
  proc.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const resyncDone = (n: number): Promise<{ resyncAt: number; doneAt: number }> =>
    new Promise((resolve) => {
      const check = (): void => {
        const resyncs = events.filter((e) => e.event === 'resync');
        const r = resyncs[n - 1];
        if (r !== undefined) {
          const passes = events.filter((e) => e.event === 'pass' && e.at >= r.at);
          const seen = new Set<string>();
          for (const p of passes) {
            seen.add(p.brand!);
            if (seen.size === BRANDS) return resolve({ resyncAt: r.at, doneAt: p.at });
          }
        }
        waiters.push(check);
      };
      check();
    });
  return {
    proc,
    spawnedAt,
    url: listening,
    events,
    resyncDone,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return kb / 1024;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function statusOf(url: string, brand: string): Promise<{ state: string; passes: number }> {
  const res = await request(`${url}/status/${brand}`);
  return (await res.body.json()) as { state: string; passes: number };
}

async function notify(url: string, brand: string): Promise<void> {
  const res = await request(`${url}/webhook`, {
    method: 'POST',
    headers: { authorization: `Bearer ${WEBHOOK_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ notiType: 'autoreplymsg', brandId: brand, method: 'modified' }]),
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}`);
}

/** A console change: auto-reply 0 of `brand` gets `description` through the service's API. */
async function consoleEdit(client: RcsClient, brand: string, id: string, description: string): Promise<void> {
  const item = await client.autoReplies.get({ id: brand }, id);
  await client.autoReplies.update({ id: brand }, id, { autoReplyMsgName: item.autoReplyMsgName, messagebaseId: item.messagebaseId, body: { ...item.body, description } });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, pollMs = 2): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export async function run(): Promise<void> {
  const [l1, l5, l15] = loadavg().map((l) => l.toFixed(2));
  console.log(`controller: ${cpus().length} cores, load average ${l1} ${l5} ${l15} at the start; ${BRANDS} brands × ${PER_BRAND} auto-replies, latency ${LATENCY_MS} ms, --concurrency ${CONCURRENCY}; whole processes (bin/rcsctl.js)`);
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-bench-controller-'));
  const dir = join(work, 'brands');
  writeManifests(dir);
  const emu = await emulatorChild();
  try {
    // 1. One full resync against `rcsctl plan` of the same brands, alternated.
    const plans: number[] = [];
    const resyncs: number[] = [];
    const wholes: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      plans.push(await planOnce(emu.url, dir));
      const ctl = controller(emu.url, dir, '24h');
      const { resyncAt, doneAt } = await ctl.resyncDone(1);
      resyncs.push(doneAt - resyncAt);
      wholes.push(doneAt - ctl.spawnedAt);
      await ctl.stop();
    }
    const [p, rs, wh] = [median(plans), median(resyncs), median(wholes)];
    console.log(`  resync vs CLI plan (medians of ${RUNS}, alternated): rcsctl plan ${p.toFixed(0)} ms; controller resync ${rs.toFixed(0)} ms (ratio ${(rs / p).toFixed(2)}, target ≤ ${TARGET_RATIO}); controller spawn to resynced ${wh.toFixed(0)} ms (ratio ${(wh / p).toFixed(2)})`);
    console.log(`    runs: plan ${plans.map((x) => x.toFixed(0)).join(', ')}; resync ${resyncs.map((x) => x.toFixed(0)).join(', ')}; spawn to resynced ${wholes.map((x) => x.toFixed(0)).join(', ')}`);

    // 2. RSS after each of RESYNCS resyncs at a short interval.
    {
      const ctl = controller(emu.url, dir, RSS_INTERVAL);
      const rss: number[] = [];
      const took: number[] = [];
      for (let n = 1; n <= RESYNCS; n++) {
        const { resyncAt, doneAt } = await ctl.resyncDone(n);
        rss.push(rssMiB(ctl.proc.pid!));
        took.push(doneAt - resyncAt);
      }
      await ctl.stop();
      const growth = rss[rss.length - 1]! - rss[1]!;
      console.log(`  RSS after each of ${RESYNCS} resyncs (--interval ${RSS_INTERVAL}, observe): ${rss.map((x) => x.toFixed(0)).join(', ')} MiB; from resync 2 to ${RESYNCS}: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MiB; resync times ${took.map((x) => x.toFixed(0)).join(', ')} ms`);
    }

    // 3 and 4. Latency and coalescing, on a controller that resyncs only at start.
    {
      const ctl = controller(emu.url, dir, '24h');
      const url = await ctl.url;
      await ctl.resyncDone(1);
      const client = createClient({ baseUrl: emu.url, credentials: { token: TOKEN } });
      const brand = brandId(0);
      let id = '';
      for await (const item of client.autoReplies.list({ id: brand })) if (item.autoReplyMsgName === replyName(0)) id = item.autoReplyMsgId;
      const latencies: number[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const before = await statusOf(url, brand);
        const want = before.state === 'in-sync' ? 'drifted' : 'in-sync';
        await consoleEdit(client, brand, id, want === 'drifted' ? 'Changed in the console' : 'Auto-reply number 0');
        const t0 = now();
        await notify(url, brand);
        await waitFor(async () => {
          const st = await statusOf(url, brand);
          return st.state === want && st.passes > before.passes ? true : undefined;
        });
        latencies.push(now() - t0);
      }
      console.log(`  notification to status (${SAMPLES} samples, a PUT then its notification, GET /status/BRAND polled every 2 ms): p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`);

      const before = (await statusOf(url, brand)).passes;
      const t0 = now();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < BURST; i++) pending.push(notify(url, brand));
      await Promise.all(pending);
      const burstMs = now() - t0;
      // Quiet again: no pass for a second.
      let last = before;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const st = await statusOf(url, brand);
        if (st.passes === last && st.state !== 'reconciling') break;
        last = st.passes;
      }
      console.log(`  coalescing: ${BURST} notifications for one brand posted in ${burstMs.toFixed(0)} ms gave ${last - before} passes`);
      await client.close();
      await ctl.stop();
    }
  } finally {
    emu.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--serve')) await serveEmulator(seed(), LATENCY_MS);
  else await run();
}
