// The controller under random 429 storms (issue 36 §1): the whole `rcsctl
// controller` process (bin/rcsctl.js as a child, observe mode, the default
// --concurrency 8) against an emulator child holding 50 brands × 10
// auto-replies that answers every request after 20 ms, the manifests matching
// it. The emulator answers a share of the requests 429 at random (its
// `rate-limit` fault rule: Retry-After 1 s, as a real limit sends), 0%, 5% and
// 30%; for each, a fresh controller's start-up pass of every brand is timed
// from its `resync` log line to the 50th brand's `pass` line, with how many
// brands that pass left failed, and how long until every brand is in sync
// (a failed brand's retry included). RUNS runs each, medians; the ratio of
// each storm's median pass time to the median without faults (target at 5%:
// ≤ 2×; at 30%: every brand in sync, however late).
//
//   npm run bench -- controller 429
//   BENCH_RUNS=5 npm run bench -- controller 429
//   BENCH_RATES=0,0.05 npm run bench -- controller 429
//   BENCH_RETRY_AFTER=0 ...   # the 429s say Retry-After: 0: the storm's cost besides the waits

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { Seed } from '../src/emulator/index.js';
import { emulatorChild as emulatorChildOf, fleetSeed, serveEmulator, writeFleetManifests, type Fleet } from './controller-fleet.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');
const TOKEN = 'bench-429-token';
const WEBHOOK_TOKEN = 'bench-429-webhook';
const LATENCY_MS = 20;
const BRANDS = 50;
const PER_BRAND = 10;
/** The shares answered 429 (BENCH_RATES=0,0.05 for some of them; 0 comes first, as the reference). */
const RATES = (process.env.BENCH_RATES ?? '0,0.05,0.3').split(',').map(Number);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
/** The 429s' Retry-After, seconds (BENCH_RETRY_AFTER=0: what the storm costs besides the waits the service asks for). */
const RETRY_AFTER = Number(process.env.BENCH_RETRY_AFTER ?? 1);
/** A run that has not put every brand in sync by then is reported as such. */
const GIVE_UP_MS = 10 * 60_000;

const FLEET: Fleet = {
  brands: BRANDS,
  perBrand: PER_BRAND,
  token: TOKEN,
  brandId: (b) => `BR.r29${String(b).padStart(7, '0')}`,
  replyName: (i) => `Auto-reply ${String(i).padStart(3, '0')}`,
};
const seed = (): Seed => fleetSeed(FLEET);
const writeManifests = (dir: string): void => writeFleetManifests(dir, FLEET);
const emulatorChild = (): Promise<{ url: string; close: () => void }> => emulatorChildOf(import.meta.url);

async function faults(url: string, rate: number, seedNo: number): Promise<void> {
  const body = rate === 0 ? undefined : JSON.stringify({ seed: seedNo, rules: [{ kind: 'rate-limit', rate, retryAfter: RETRY_AFTER }] });
  const res = await request(`${url}/_emulator/faults`, { method: rate === 0 ? 'DELETE' : 'POST', headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body } : {}) });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`faults answered ${res.statusCode}`);
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Run {
  /** From the `resync` line to the last brand's first `pass` line. */
  passMs: number;
  /** Brands that first pass left failed. */
  failed: number;
  /** From the `resync` line until /status shows every brand in sync; undefined: not within GIVE_UP_MS. */
  inSyncMs?: number;
}

/** One controller process: its start-up pass timed, then polled until every brand is in sync. */
async function once(url: string, dir: string): Promise<Run> {
  const proc = spawn(process.execPath, [BIN, 'controller', dir, '--listen', '127.0.0.1:0', '--no-cache', '--interval', '1h'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RCSCTL_BASE_URL: url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, NO_COLOR: '1' },
  });
  let buf = '';
  let resyncAt: number | undefined;
  let ctlUrl: string | undefined;
  const first = new Map<string, string>();
  let passDone: number | undefined;
  proc.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    const at = now();
    for (const line of lines) {
      let e: { event?: string; brand?: string; state?: string; url?: string };
      try {
        e = JSON.parse(line) as typeof e;
      } catch {
        continue;
      }
      if (e.event === 'started') ctlUrl = e.url;
      if (e.event === 'resync') resyncAt ??= at;
      if (e.event === 'pass' && e.brand !== undefined && !first.has(e.brand)) {
        first.set(e.brand, e.state ?? '');
        if (first.size === BRANDS) passDone = at;
      }
    }
  });
  try {
    const deadline = now() + GIVE_UP_MS;
    while (passDone === undefined && now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (passDone === undefined || resyncAt === undefined || ctlUrl === undefined) throw new Error(`the first pass did not end within ${GIVE_UP_MS / 60_000} minutes (${first.size} of ${BRANDS} brands)`);
    const run: Run = { passMs: passDone - resyncAt, failed: [...first.values()].filter((s) => s === 'failed').length };
    while (now() < deadline) {
      const res = await request(`${ctlUrl}/status`);
      const s = (await res.body.json()) as { brands: { state: string }[] };
      if (s.brands.length === BRANDS && s.brands.every((b) => b.state === 'in-sync')) {
        run.inSyncMs = now() - resyncAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return run;
  } finally {
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Run the benchmark and print its figures. */
export async function run(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bench-429-'));
  const dir = join(tmp, 'brands');
  writeManifests(dir);
  const emu = await emulatorChild();
  try {
    console.log(`controller under random 429s: ${BRANDS} brands × ${PER_BRAND} auto-replies, ${LATENCY_MS} ms a request, --concurrency 8, Retry-After ${RETRY_AFTER} s; ${RUNS} run(s) each; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);
    let base: number | undefined;
    for (const rate of RATES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        await faults(emu.url, rate, 1000 + i);
        runs.push(await once(emu.url, dir));
      }
      await faults(emu.url, 0, 0);
      const pass = median(runs.map((r) => r.passMs));
      base ??= pass;
      const synced = runs.filter((r) => r.inSyncMs !== undefined);
      console.log(
        `  ${String(Math.round(rate * 100)).padStart(2)}% 429: first pass ${pass.toFixed(0)} ms median (${runs.map((r) => r.passMs.toFixed(0)).join(', ')}), ${(pass / base).toFixed(2)}× the pass without faults; ` +
          `failed after it: ${runs.map((r) => r.failed).join(', ')}; every brand in sync after ${synced.length === runs.length ? `${median(synced.map((r) => r.inSyncMs!)).toFixed(0)} ms median` : `${synced.length} of ${runs.length} runs within ${GIVE_UP_MS / 60_000} min`}`,
      );
    }
  } finally {
    emu.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await serveEmulator(seed(), LATENCY_MS);
