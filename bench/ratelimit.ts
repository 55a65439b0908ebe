// Adaptive concurrency against a rate limit: the whole rcsctl process (bin/rcsctl.js
// as a child) plans B brands × 50 auto-replies against an emulator child whose
// rate-limit fault allows R requests a second to the account (a token bucket
// holding one second's worth; 429 with Retry-After beyond it), each answer
// after LATENCY_MS. For each R it reports, as medians of RUNS runs:
// - the throughput ratio: R ÷ the requests served per second (target ≤ 1.10);
// - the 429 share: 429 answers ÷ all requests (target < 2%);
// - the time against the bound served requests ÷ R.
// The emulator counts both (GET /_emulator/rate-limit), so they are exact.
// With auto, it also gives the limiter's Retry-After pauses and pace cuts
// (medians), from the summary line RCSCTL_DEBUG=limiter makes rcsctl write.
// The brand count is scaled per rate so that one run takes about 30 s
// (200 brands at 50 req/s would take 200 s a run): the output says so.
// `--concurrency 8` (a fixed limit) runs on the same workload for comparison,
// and one row without any limit shows what auto costs when there is none.
//
//   npm run bench -- ratelimit            # every rate
//   npm run bench -- ratelimit 200        # one rate
//   BENCH_QUICK=1 npm run bench -- ratelimit 1000   # auto only, no fixed or no-limit rows
//   BENCH_TRACE=1 ...                     # print each run's limiter trace (cuts and pauses); with shards, each shard's answers per 500 ms
//   npm run bench -- ratelimit shards [rate ...]   # four shards at once (default 40 200 1000)
//   BENCH_RCSCTL=/path/to/bin/rcsctl.js ...        # measure another build (a frozen copy) with this benchmark
//   BENCH_BRANDS=40 npm run bench -- ratelimit shards 40 200   # the 40-brand agency: short runs, as real plans are
//
// `shards`: CI shards of one account. The same brands are planned as four
// `rcsctl plan --shard i/4` processes started together and, alternately in the
// same minutes, as one unsharded process; each run starts with a full bucket.
// The processes share nothing but the emulator's limit. For each rate it gives,
// as medians of RUNS runs of each:
// - the share of the limit used: (accepted − R) ÷ (R × window), the window
//   running from the first request of any process to the last answer of any
//   (bench/timeline.ts preloaded in each), and R, the bucket's first second of
//   burst, taken out (target ≥ 0.90 for four shards);
// - the 429 share: 429 answers ÷ all requests (target ≤ 3% for four shards);
// - when the first and the last shard were done, and each shard's pace cuts;
// - one run of the four shards without any limit: how fast the machine, at
//   that load, lets them go at all (at 1,000 req/s on 2 busy cores, slower
//   than the limit).

import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startEmulator, type Seed } from '../src/emulator/index.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = process.env.BENCH_RCSCTL ?? join(ROOT, 'bin', 'rcsctl.js');
const TIMELINE = fileURLToPath(new URL('./timeline.js', import.meta.url));
const TOKEN = 'bench-master-token';
const LATENCY_MS = 20;
const PER_BRAND = 50;
const FULL_BRANDS = 200;
/** Aimed-for length of one run; brands are scaled down to fit it. */
const RUN_SECONDS = 30;
const RATES = [50, 200, 1000];
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const TARGET_RATIO = 1.1;
const TARGET_SHARE = 0.02;
/** Auto only: no `--concurrency 8` row and no row without a limit, for quick comparisons. */
const QUICK = process.env.BENCH_QUICK === '1';
const TRACE = process.env.BENCH_TRACE === '1';
/** BENCH_BRANDS=N: N brands at every rate instead of about RUN_SECONDS' worth (an agency's real plan is short: 40 brands take 10–40 s). */
const FIXED_BRANDS = process.env.BENCH_BRANDS !== undefined ? Math.max(1, Number(process.env.BENCH_BRANDS)) : undefined;

function brandId(b: number): string {
  return `BR.rate${String(b).padStart(6, '0')}`;
}

function replyName(i: number): string {
  return `Auto-reply ${String(i).padStart(4, '0')}`;
}

/** The seed: `brands` brands of PER_BRAND auto-replies, one master account. */
function seed(brands: number): Seed {
  const ids = Array.from({ length: brands }, (_, b) => brandId(b));
  return {
    accounts: [{ userId: 'bench', role: 'master', token: TOKEN, brands: ids.map((brandId) => ({ brandId, role: 'representative' })) }],
    brands: ids.map((id) => ({
      brandId: id,
      brandKey: `BK.${id.slice(3)}0000`,
      autoReplies: Array.from({ length: PER_BRAND }, (_, i) => ({ autoReplyMsgName: replyName(i), messagebaseId: 'SCS00000', body: { description: `Auto-reply number ${i}` } })),
    })),
  } as unknown as Seed;
}

/** One manifest per brand: the seeded auto-replies, every tenth changed, so each plan has steps. */
function writeManifests(dir: string, brands: number): void {
  mkdirSync(dir, { recursive: true });
  for (let b = 0; b < brands; b++) {
    const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${brandId(b)}`, 'autoReplies:'];
    for (let i = 0; i < PER_BRAND; i++) {
      lines.push(`  ar${i}:`, `    name: "${replyName(i)}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Auto-reply number ${i}${i % 10 === 0 ? ', changed' : ''}"`);
    }
    writeFileSync(join(dir, `brand-${String(b).padStart(4, '0')}.yaml`), lines.join('\n') + '\n');
  }
}

/** The emulator as a child process, so rcsctl and it do not share an event loop. */
async function emulator(brands: number): Promise<{ url: string; close: () => void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(brands)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
  });
  return { url, close: () => child.kill('SIGTERM') };
}

async function admin(url: string, method: 'GET' | 'POST', body?: unknown): Promise<{ perSecond: number; allowed: number; limited: number }> {
  const res = await request(`${url}/_emulator/rate-limit`, { method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  return (await res.body.json()) as { perSecond: number; allowed: number; limited: number };
}

/** What one `rcsctl plan` child came to. */
interface PlanRun {
  ms: number;
  /** Brands that failed (429 after every retry). */
  failed: number;
  /** The limiter's Retry-After pauses and pace cuts (its RCSCTL_DEBUG=limiter summary). */
  pauses: number;
  paceCuts: number;
  /** Wall-clock ms of the first request sent and the last answer (bench/timeline.ts), with `timeline`. */
  firstRequest?: number;
  lastAnswer?: number;
  /** Wall-clock ms of each answer other than 429, and of each 429, with `timeline` and BENCH_TRACE. */
  answers?: number[];
  refused?: number[];
}

/** Run `rcsctl plan` as a child to its exit: wall milliseconds, the brands that failed (exit 1), and what the limiter did; `extra` are more arguments (`--shard i/n`), `timeline` preloads bench/timeline.ts. */
function plan(url: string, dir: string, concurrency: string, extra: string[] = [], timeline = false): Promise<PlanRun> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const preload = timeline ? ['--import', TIMELINE] : [];
    const child = spawn(process.execPath, [...preload, BIN, 'plan', dir, '--concurrency', concurrency, '--no-cache', '--json', ...extra], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, RCSCTL_BASE_URL: url, RCSCTL_TOKEN: TOKEN, NO_COLOR: '1', RCSCTL_DEBUG: 'limiter', ...(timeline && TRACE ? { BENCH_TIMELINE_ANSWERS: '1' } : {}) },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // Exit 1 with "N of M brands failed": brands whose reads ran out of retries.
      const failed = /(\d+) of \d+ brands? failed/.exec(err);
      const summary = /(\d+) pace cuts, \d+ limit cuts, (\d+) pauses/.exec(err);
      const marks = /^timeline (\{.*\})$/m.exec(err);
      const t = marks !== null ? (JSON.parse(marks[1] as string) as { origin: number; firstRequest?: number; lastAnswer?: number; answers?: number[]; refused?: number[] }) : undefined;
      const limiter = {
        paceCuts: Number(summary?.[1] ?? NaN),
        pauses: Number(summary?.[2] ?? NaN),
        ...(t?.firstRequest !== undefined && t.lastAnswer !== undefined ? { firstRequest: t.origin + t.firstRequest, lastAnswer: t.origin + t.lastAnswer } : {}),
        ...(t?.answers !== undefined && t.refused !== undefined ? { answers: t.answers.map((a) => t.origin + a), refused: t.refused.map((a) => t.origin + a) } : {}),
      };
      if (TRACE) process.stdout.write(err.split('\n').filter((l) => l.includes('limiter:')).map((l) => `      ${l}\n`).join(''));
      if (code === 0) resolve({ ms, failed: 0, ...limiter });
      else if (code === 1 && failed !== null) resolve({ ms, failed: Number(failed[1]), ...limiter });
      else reject(new Error(`rcsctl plan exited ${code}: ${err.split('\n').slice(-4).join(' | ')}`));
    });
  });
}

interface Measured extends PlanRun {
  served: number;
  limited: number;
}

/** RUNS runs at `rate` (0: no limit) with `concurrency`; each starts with a full bucket. */
async function measure(url: string, dir: string, rate: number, concurrency: string): Promise<Measured[]> {
  const out: Measured[] = [];
  for (let r = 0; r < RUNS; r++) {
    await admin(url, 'POST', { perSecond: rate });
    const run = await plan(url, dir, concurrency);
    const { allowed, limited } = await admin(url, 'GET');
    out.push({ ...run, served: allowed, limited });
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

interface Row {
  failed: number;
  ratio: number;
  share: number;
  ms: number;
  boundMs: number;
  served: number;
  pauses: number;
  paceCuts: number;
}

function summarise(runs: Measured[], rate: number): Row {
  const served = median(runs.map((m) => m.served));
  const ms = median(runs.map((m) => m.ms));
  const boundMs = (served / rate) * 1000;
  return {
    failed: median(runs.map((m) => m.failed)),
    served,
    ms,
    boundMs,
    ratio: median(runs.map((m) => (m.ms / 1000) * (rate / m.served))),
    share: median(runs.map((m) => m.limited / (m.served + m.limited))),
    pauses: median(runs.map((m) => m.pauses)),
    paceCuts: median(runs.map((m) => m.paceCuts)),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Brands for one run of about RUN_SECONDS at `rate` (requests per brand measured on a first run). */
function brandsFor(rate: number, perBrand: number, cap = FULL_BRANDS): number {
  return Math.max(2, Math.min(cap, Math.floor((rate * RUN_SECONDS) / perBrand)));
}

/** Requests one brand's plan makes, measured once without a limit. */
async function requestsPerBrand(work: string): Promise<number> {
  const probeDir = join(work, 'probe');
  writeManifests(probeDir, 2);
  const probe = await emulator(2);
  try {
    await admin(probe.url, 'POST', { perSecond: 0 });
    await plan(probe.url, probeDir, '8');
    // With the limit off the bucket does not count: set a limit too high to refuse anything.
    await admin(probe.url, 'POST', { perSecond: 1_000_000 });
    await plan(probe.url, probeDir, '8');
    return (await admin(probe.url, 'GET')).allowed / 2;
  } finally {
    probe.close();
  }
}

/** For each rate: the brands of a run of about RUN_SECONDS (at most `cap`), their manifests and an emulator child, closed after `body`. */
async function eachRate(work: string, rates: number[], cap: number, body: (rate: number, brands: number, requests: number, dir: string, url: string) => Promise<void>): Promise<void> {
  const perBrand = await requestsPerBrand(work);
  for (const rate of rates) {
    const brands = FIXED_BRANDS ?? brandsFor(rate, perBrand, cap);
    const dir = join(work, `b${brands}`);
    writeManifests(dir, brands);
    const emu = await emulator(brands);
    try {
      await body(rate, brands, Math.round(brands * perBrand), dir, emu.url);
    } finally {
      emu.close();
    }
  }
}

/** What one run of `procs` processes at once came to: the window from the first request to the last answer, and each process. */
interface GroupRun {
  accepted: number;
  limited: number;
  windowMs: number;
  /** When each process was done (its last answer), ms after the first request. */
  doneMs: number[];
  paceCuts: number[];
}

/** One run at `rate`: `shards` processes at once (`--shard i/shards`; 1: one unsharded process), started with a full bucket. */
async function group(url: string, dir: string, rate: number, shards: number): Promise<GroupRun> {
  await admin(url, 'POST', { perSecond: rate });
  const runs = await Promise.all(Array.from({ length: shards }, (_, i) => plan(url, dir, 'auto', shards > 1 ? ['--shard', `${i + 1}/${shards}`] : [], true)));
  const { allowed, limited } = await admin(url, 'GET');
  if (runs.some((r) => r.failed > 0)) throw new Error(`brands failed at ${rate} req/s with ${shards} process(es) (429 after every retry)`);
  const first = Math.min(...runs.map((r) => r.firstRequest ?? NaN));
  const last = Math.max(...runs.map((r) => r.lastAnswer ?? NaN));
  if (!Number.isFinite(first) || !Number.isFinite(last)) throw new Error('no timeline line from a shard (bench/timeline.ts did not run)');
  if (TRACE && shards > 1) printRates(runs, first, last);
  return { accepted: allowed, limited, windowMs: last - first, doneMs: runs.map((r) => (r.lastAnswer as number) - first).sort((a, b) => a - b), paceCuts: runs.map((r) => r.paceCuts) };
}

const RATE_BUCKET_MS = 500;

/** Each process's answers per RATE_BUCKET_MS from the first request of any (429s in brackets): which shard held back the end. */
function printRates(runs: PlanRun[], first: number, last: number): void {
  const buckets = Math.ceil((last - first) / RATE_BUCKET_MS);
  const count = (times: number[]) => {
    const n = new Array<number>(buckets).fill(0);
    for (const t of times) {
      const b = Math.min(buckets - 1, Math.floor((t - first) / RATE_BUCKET_MS));
      n[b] = (n[b] ?? 0) + 1;
    }
    return n;
  };
  console.log(`      answers a second per ${RATE_BUCKET_MS} ms from the first request (429s in brackets):`);
  for (const [i, r] of runs.entries()) {
    const ok = count(r.answers ?? []);
    const no = count(r.refused ?? []);
    const start = (((r.firstRequest as number) - first) / 1000).toFixed(2);
    const rates = ok.map((x, b) => `${(x * 1000) / RATE_BUCKET_MS}${(no[b] as number) > 0 ? `(${no[b]})` : ''}`).join(' ');
    console.log(`      shard ${i + 1} (first request at ${start} s): ${rates}`);
  }
}

/** The share of the limit a run used, the bucket's first second of burst taken out. */
function limitShare(g: GroupRun, rate: number): number {
  return (g.accepted - rate) / ((rate * g.windowMs) / 1000);
}

const SHARD_RATES = [40, 200, 1000];
const SHARDS = 4;
const TARGET_SHARD_SHARE = 0.9;
const TARGET_SHARD_429 = 0.03;

/** Four shards of one account at once against one process, alternately, at each rate. */
async function runShards(args: string[]): Promise<void> {
  const rates = args.length > 0 ? args.map(Number) : SHARD_RATES;
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-bench-ratelimit-'));
  const [l1, l5, l15] = loadavg().map((x) => x.toFixed(1));
  console.log(`ratelimit shards: ${cpus().length} cores, load average ${l1} ${l5} ${l15} at the start; ${SHARDS} processes \`plan --shard i/${SHARDS}\` at once against 1 unsharded process, alternately; medians of ${RUNS} runs each; latency ${LATENCY_MS} ms; ${PER_BRAND} auto-replies a brand; ${BIN}`);
  try {
    // Every rate runs about RUN_SECONDS, 1,000 req/s too (about 550 brands, not 200): a run of 11 s is
    // mostly the shards finding the limit and the last shard finishing alone.
    await eachRate(work, rates, Infinity, async (rate, brands, requests, dir, url) => {
      const sharded: GroupRun[] = [];
      const single: GroupRun[] = [];
      const loads: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        loads.push(loadavg()[0] as number);
        sharded.push(await group(url, dir, rate, SHARDS));
        single.push(await group(url, dir, rate, 1));
      }
      const row = (runs: GroupRun[]) => ({
        share: median(runs.map((g) => limitShare(g, rate))),
        limited: median(runs.map((g) => g.limited / (g.accepted + g.limited))),
        windowMs: median(runs.map((g) => g.windowMs)),
      });
      const s4 = row(sharded);
      const s1 = row(single);
      // The same shards without any limit: how fast this machine, at this load, lets them go at all.
      const free = await group(url, dir, 1_000_000, SHARDS);
      const machine = (free.accepted * 1000) / free.windowMs / rate;
      const spread = sharded.map((g) => `${(g.doneMs[0] as number / 1000).toFixed(1)}–${(g.doneMs[g.doneMs.length - 1] as number / 1000).toFixed(1)} s`).join(', ');
      const verdict = `targets share ≥ ${TARGET_SHARD_SHARE.toFixed(2)} ${s4.share >= TARGET_SHARD_SHARE ? 'met' : 'MISSED'}, 429 share ≤ ${pct(TARGET_SHARD_429)} ${s4.limited <= TARGET_SHARD_429 ? 'met' : 'MISSED'}`;
      console.log(`- ${rate} req/s: ${brands} brands × ${PER_BRAND} auto-replies, ${requests} requests; load average ${loads.map((l) => l.toFixed(1)).join(' / ')} at each run's start`);
      console.log(`  ${SHARDS} shards at once: share of the limit ${s4.share.toFixed(2)}, 429 share ${pct(s4.limited)}, window ${(s4.windowMs / 1000).toFixed(1)} s; shards done at ${spread}; pace cuts per shard ${sharded.map((g) => g.paceCuts.join('/')).join(', ')}; ${verdict}`);
      console.log(`  1 process:        share of the limit ${s1.share.toFixed(2)}, 429 share ${pct(s1.limited)}, window ${(s1.windowMs / 1000).toFixed(1)} s; ${SHARDS} shards ÷ 1 process: ${(s4.share / s1.share).toFixed(2)}`);
      console.log(`  ${SHARDS} shards, no limit: window ${(free.windowMs / 1000).toFixed(1)} s, ${((free.accepted * 1000) / free.windowMs).toFixed(0)} req/s: ${machine.toFixed(2)} × the limit is the most this machine gave them now`);
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function run(args: string[] = []): Promise<void> {
  if (args[0] === 'shards') return runShards(args.slice(1));
  const rates = args.length > 0 ? args.map(Number) : RATES;
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-bench-ratelimit-'));
  const [l1, l5, l15] = loadavg().map((x) => x.toFixed(1));
  console.log(`ratelimit: ${cpus().length} cores, load average ${l1} ${l5} ${l15} at the start; whole process (bin/rcsctl.js plan); medians of ${RUNS} runs; latency ${LATENCY_MS} ms; ${PER_BRAND} auto-replies a brand`);
  try {
    await eachRate(work, rates, FULL_BRANDS, async (rate, brands, requests, dir, url) => {
      const scaled = brands < FULL_BRANDS ? ` (scaled from ${FULL_BRANDS} so that a run takes about ${RUN_SECONDS} s)` : '';
      console.log(`- ${rate} req/s: ${brands} brands × ${PER_BRAND} auto-replies${scaled}, ${requests} requests a plan; load average ${loadavg()[0]?.toFixed(1)} at its start`);
      for (const concurrency of QUICK ? ['auto'] : ['auto', '8']) {
        const row = summarise(await measure(url, dir, rate, concurrency), rate);
        const verdict = concurrency === 'auto' ? `; targets ratio ≤ ${TARGET_RATIO.toFixed(2)} ${row.ratio <= TARGET_RATIO ? 'met' : 'MISSED'}, 429 share < ${pct(TARGET_SHARE)} ${row.share < TARGET_SHARE ? 'met' : 'MISSED'}` : '';
        const failed = row.failed > 0 ? `; ${row.failed} of ${brands} brands FAILED (429 after every retry)` : '';
        const limiter = concurrency === 'auto' ? `, ${row.pauses} pauses, ${row.paceCuts} pace cuts` : '';
        console.log(
          `  --concurrency ${concurrency.padEnd(4)}: throughput ratio ${row.ratio.toFixed(2)}, 429 share ${pct(row.share)}${limiter}, ${Math.round(row.ms)} ms against the bound ${Math.round(row.boundMs)} ms (${row.served} requests ÷ ${rate} req/s)${failed}${verdict}`,
        );
      }
    });
    // No limit at all: what auto costs when there is nothing to find.
    if (QUICK) return;
    const dir = join(work, `b${FULL_BRANDS}`);
    writeManifests(dir, FULL_BRANDS);
    const emu = await emulator(FULL_BRANDS);
    try {
      console.log(`- no rate limit: ${FULL_BRANDS} brands × ${PER_BRAND} auto-replies`);
      for (const concurrency of ['auto', '8']) {
        const runs = await measure(emu.url, dir, 1_000_000, concurrency);
        if (runs.some((m) => m.failed > 0)) throw new Error(`brands failed without a rate limit (--concurrency ${concurrency})`);
        console.log(`  --concurrency ${concurrency.padEnd(4)}: ${Math.round(median(runs.map((m) => m.ms)))} ms, ${median(runs.map((m) => m.served))} requests`);
      }
    } finally {
      emu.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function serve(brands: number): Promise<void> {
  const emu = await startEmulator({ seed: seed(brands), latencyMs: LATENCY_MS });
  process.send?.(emu.url);
  const stop = () => void emu.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--serve')) await serve(Number(process.argv[process.argv.indexOf('--serve') + 1]));
  else await run(process.argv.slice(2));
}
