// The plan benchmark : a plan of a brand with 1,000
// live auto-replies against an emulator that answers every request after
// 20 ms. Reading is latency-bound, so the ideal is one list round plus
// 1000/concurrency detail rounds: (1 + 1000/concurrency) × 20 ms. Target:
// within 1.25x of it. Then a repeat plan with the local cache (--cache-dir),
// which skips every detail call whose list updateDate is unchanged.
//
// The emulator runs in a forked child so that it never shares the measured
// client's event loop.
//
//   npm run build && node dist/bench/plan-read.js [count] [latencyMs] [concurrency]

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createClient } from '../src/api/index.js';
import { startEmulator, type Seed } from '../src/emulator/index.js';
import type { DesiredAutoReply } from '../src/kinds/index.js';
import type { DesiredBrand } from '../src/manifest/types.js';
import { buildPlan } from '../src/plan/build-plan.js';
import { LiveCache } from '../src/kinds/live-cache.js';
import { readLive } from '../src/plan/read-live.js';

/** The figure this benchmark must stay within, as a multiple of the ideal. */
export const TARGET_RATIO = 1.25;

const BRAND = 'BR.bench00001';
const TOKEN = 'bench-master-token';

/** Settings of one run. */
export interface PlanBenchOptions {
  count: number;
  latencyMs: number;
  concurrency: number;
}

/** What the run measured. */
export interface PlanBenchResult {
  wallMs: number;
  idealMs: number;
  ratio: number;
  cachedMs: number;
  cachedIdealMs: number;
  cachedRatio: number;
  /** The same reads with a bare undici Pool: what the machine and emulator allow. */
  rawMs: number;
  steps: number;
}

/** The seed: one brand with `count` auto-replies (index-named, speech bubbles). */
export function benchSeed(count: number): Seed {
  return {
    accounts: [{ userId: 'bench', role: 'master', token: TOKEN, brands: [{ brandId: BRAND, role: 'representative' }] }],
    brands: [
      {
        brandId: BRAND,
        brandKey: 'BK.bench000000001',
        autoReplies: Array.from({ length: count }, (_, i) => ({
          autoReplyMsgName: name(i),
          messagebaseId: 'SCS00000',
          body: { description: `Auto-reply number ${i}` },
          chipList: [{ action: { displayText: 'Web', urlAction: { openUrl: { url: `https://example.com/${i}` } } } }],
        })),
      },
    ],
  };
}

/** The desired brand: the same auto-replies, every tenth with a changed text. */
export function benchDesired(count: number): DesiredBrand {
  const source = { file: 'bench.yaml', line: 1, col: 1, path: '/' };
  const autoReplies = new Map<string, DesiredAutoReply>();
  for (let i = 0; i < count; i++) {
    autoReplies.set(`ar${i}`, {
      handle: `ar${i}`,
      name: name(i),
      messagebaseId: 'SCS00000',
      body: { description: i % 10 === 0 ? `Auto-reply number ${i}, changed` : `Auto-reply number ${i}` },
      chipList: [{ action: { displayText: 'Web', urlAction: { openUrl: { url: `https://example.com/${i}` } } } }],
      source,
    });
  }
  return { brandId: BRAND, prune: [], files: new Map(), autoReplies, logos: new Map(), chatbots: new Map(), agencyFiles: new Map(), templates: new Map(), manifestFiles: ['bench.yaml'], source };
}

function name(i: number): string {
  return `Auto-reply ${String(i).padStart(4, '0')}`;
}

/** Run the benchmark and print wall times, ideal bounds and ratios. */
export async function run(opts: Partial<PlanBenchOptions> = {}): Promise<PlanBenchResult> {
  const { count, latencyMs, concurrency } = { count: 1000, latencyMs: 20, concurrency: 8, ...opts };
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(count), String(latencyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const cacheDir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cache-'));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve(String(m)));
      child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
    });
    const desired = benchDesired(count);
    const brand = { id: BRAND };

    const planOnce = async (cache?: LiveCache): Promise<{ ms: number; steps: number }> => {
      const client = createClient({ baseUrl: url, credentials: { token: TOKEN }, concurrency });
      try {
        const t0 = process.hrtime.bigint();
        const live = await readLive(client, brand, { concurrency, ...(cache ? { cache } : {}) });
        const plan = buildPlan(desired, live);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (live.autoReplies.length !== count) throw new Error(`read ${live.autoReplies.length} auto-replies, expected ${count}`);
        return { ms, steps: plan.steps.length };
      } finally {
        await client.close();
      }
    };

    // Warm-up: JIT and the emulator's first responses, not measured.
    await planOnce();
    const cold = await planOnce();
    const rawMs = await rawRead(url, count, concurrency);
    const expectedSteps = Math.ceil(count / 10);
    if (cold.steps !== expectedSteps) throw new Error(`plan has ${cold.steps} steps, expected ${expectedSteps}`);
    const idealMs = (1 + count / concurrency) * latencyMs;

    const cache = new LiveCache(cacheDir, url);
    await planOnce(cache); // fills the cache
    cache.save();
    const warmCache = new LiveCache(cacheDir, url); // a new run reads it from disk
    const cached = await planOnce(warmCache);
    if (cached.steps !== expectedSteps) throw new Error(`cached plan has ${cached.steps} steps, expected ${expectedSteps}`);
    const cachedIdealMs = latencyMs; // the list calls only, in parallel

    const result: PlanBenchResult = {
      wallMs: cold.ms,
      idealMs,
      ratio: cold.ms / idealMs,
      cachedMs: cached.ms,
      cachedIdealMs,
      cachedRatio: cached.ms / cachedIdealMs,
      rawMs,
      steps: cold.steps,
    };
    console.log(
      `plan-read: ${count} live auto-replies, ${latencyMs} ms latency, concurrency ${concurrency}: ` +
        `${result.wallMs.toFixed(0)} ms; ideal (1 + ${count}/${concurrency}) × ${latencyMs} ms = ${idealMs.toFixed(0)} ms; ` +
        `ratio ${result.ratio.toFixed(3)} (target ≤ ${TARGET_RATIO})`,
    );
    console.log(
      `plan-read (baseline): the same list and detail reads with a bare undici Pool: ${rawMs.toFixed(0)} ms, ratio ${(rawMs / idealMs).toFixed(3)}; ` +
        `rcsctl over bare reads: ${(cold.ms / rawMs).toFixed(3)}x (a baseline ratio well above 1 means a busy machine, not a slow client)`,
    );
    console.log(
      `plan-read (repeat, --cache-dir): ${result.cachedMs.toFixed(0)} ms = ${(result.cachedMs / result.wallMs).toFixed(3)}x the uncached plan; ` +
        `ideal (the list calls) ${cachedIdealMs} ms; ratio ${result.cachedRatio.toFixed(2)}`,
    );
    return result;
  } finally {
    child.kill('SIGTERM');
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The reads alone, with no client logic: one list, then every detail, `concurrency` at a time. */
async function rawRead(url: string, count: number, concurrency: number): Promise<number> {
  const pool = new Pool(url, { connections: concurrency });
  const headers = { authorization: `Bearer ${TOKEN}` };
  const get = async (path: string): Promise<unknown> => (await pool.request({ method: 'GET', path, headers })).body.json();
  try {
    const t0 = process.hrtime.bigint();
    const list = (await get(`/api/1.1/brand/${BRAND}/autoreplymsg?offset=0&limit=1000`)) as { result: { autoReplyMsgId: string }[] };
    if (list.result.length !== Math.min(count, 1000)) throw new Error(`bare list read ${list.result.length} items`);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < list.result.length) await get(`/api/1.1/brand/${BRAND}/autoreplymsg/${(list.result[next++] as { autoReplyMsgId: string }).autoReplyMsgId}`);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return Number(process.hrtime.bigint() - t0) / 1e6;
  } finally {
    await pool.close();
  }
}

async function serve(count: number, latencyMs: number): Promise<void> {
  const emu = await startEmulator({ seed: benchSeed(count), latencyMs });
  process.send?.(emu.url);
  const stop = () => void emu.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [a, b, c] = process.argv.slice(process.argv.includes('--serve') ? 3 : 2).map(Number);
  if (process.argv.includes('--serve')) await serve(a ?? 1000, b ?? 20);
  else {
    const { ratio } = await run({ ...(a ? { count: a } : {}), ...(b ? { latencyMs: b } : {}), ...(c ? { concurrency: c } : {}) });
    process.exitCode = ratio <= TARGET_RATIO ? 0 : 1;
  }
}
