// What users wait for: the whole rcsctl process, started as a child exactly as
// a user or a CI job starts it, against an emulator (a forked child) answering
// every request after `latencyMs`. Next to each figure:
// - the latency bound (⌈N/1000⌉ + ⌈N/C⌉)·L: one list call per 1,000 items and
//   one detail (or create) call per item, C at a time;
// - a bare undici reader (bench/bare-reader.ts) doing the same GETs, as its own
//   process in the same process tree, run alternately with rcsctl;
// - the phases measured in-process (load, read, plan), so a slow figure says
//   where the time goes;
// - one more cold run with bench/timeline.ts preloaded: where the whole
//   process spends its time (start to the first request, the reads, the last
//   answer to the output, the exit).
// Every figure is the median of RUNS runs (default 3; BENCH_RUNS overrides).
// Peak RSS comes from /usr/bin/time when the machine has it.
//
//   npm run build && node dist/bench/cli.js [scenario ...]
//   scenarios: startup plan-1k plan-10k creates-10k apply-1k validate-10k split-4k preview-100k

import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/api/index.js';
import { loadManifests } from '../src/manifest/index.js';
import type { LiveBrand } from '../src/core/live.js';
import { applyEachBrand } from '../src/apply/apply-brands.js';
import { listsFromLive, touchedKinds } from '../src/apply/interference.js';
import { buildPlan } from '../src/plan/build-plan.js';
import { readLive } from '../src/plan/read-live.js';
import { BENCH_BRAND, writeBenchManifests } from './manifests.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');
const BARE = fileURLToPath(new URL('./bare-reader.js', import.meta.url));
const TIMELINE = fileURLToPath(new URL('./timeline.js', import.meta.url));
const SERVE = fileURLToPath(new URL('./plan-read.js', import.meta.url));
const TOKEN = 'bench-master-token';
const LATENCY_MS = 20;
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One finished child: wall milliseconds and peak resident set (KiB, when measured). */
interface ChildRun {
  ms: number;
  rssKiB?: number;
  code: number | null;
  stderr: string;
}

/** Start `args` (a node script and its arguments) and time it to its exit. */
function timeChild(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  const argv = TIME !== undefined ? [TIME, '-f', 'RSS %M', process.execPath, ...args] : [process.execPath, ...args];
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /RSS (\d+)\s*$/.exec(err);
      resolve({ ms, code, stderr: err, ...(m ? { rssKiB: Number(m[1]) } : {}) });
      if (code !== 0 && code !== 2 && code !== 3) process.stderr.write(`  (exit ${code}: ${err.split('\n').slice(-4).join(' | ')})\n`);
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function bound(n: number, c: number): number {
  return (Math.max(1, Math.ceil(n / 1000)) + Math.ceil(n / c)) * LATENCY_MS;
}

/** An emulator child seeded with `count` bench auto-replies. */
async function emulator(count: number): Promise<{ url: string; close: () => void; reset: () => Promise<void> }> {
  const child = fork(SERVE, ['--serve', String(count), String(LATENCY_MS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
  });
  return {
    url,
    close: () => child.kill('SIGTERM'),
    reset: async () => {
      await fetch(`${url}/_emulator/reset`, { method: 'POST' });
    },
  };
}

/** A row of the results table. */
interface Row {
  what: string;
  ms: number;
  boundMs?: number;
  bareMs?: number;
  rssKiB?: number;
  note?: string;
}

const rows: Row[] = [];

function report(row: Row): void {
  rows.push(row);
  const parts = [`${row.what}: ${row.ms.toFixed(0)} ms`];
  if (row.boundMs !== undefined) parts.push(`bound ${row.boundMs} ms, ratio ${(row.ms / row.boundMs).toFixed(2)}`);
  if (row.bareMs !== undefined) parts.push(`bare reader ${row.bareMs.toFixed(0)} ms, rcsctl/bare ${(row.ms / row.bareMs).toFixed(2)}`);
  if (row.rssKiB !== undefined) parts.push(`peak RSS ${(row.rssKiB / 1024).toFixed(0)} MiB`);
  if (row.note !== undefined) parts.push(row.note);
  console.log('  ' + parts.join('; '));
}

/** rcsctl and the bare reader alternately, RUNS times each; medians. */
async function planScenario(count: number, concurrency: number): Promise<void> {
  const emu = await emulator(count);
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    const manifests = writeBenchManifests(join(dir, 'manifests'), count, 1);
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN };
    const cacheDir = join(dir, 'cache');
    const plan = (extra: string[]) => [BIN, 'plan', manifests, '--concurrency', String(concurrency), ...extra];
    const bare = [BARE, emu.url, TOKEN, BENCH_BRAND, String(concurrency)];
    await timeChild(plan(['--no-cache']), env); // warm-up: the emulator's JIT and the OS file cache
    const cold: ChildRun[] = [];
    const bareRuns: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      cold.push(await timeChild(plan(['--no-cache']), env));
      bareRuns.push(await timeChild(bare));
    }
    const bareMs = median(bareRuns.map((r) => r.ms));
    report({ what: `cold plan, ${count} auto-replies, C=${concurrency} (whole process)`, ms: median(cold.map((r) => r.ms)), boundMs: bound(count, concurrency), bareMs, rssKiB: median(cold.map((r) => r.rssKiB ?? 0)) });
    await coldTimeline(['--import', TIMELINE, ...plan(['--no-cache'])], env);

    await timeChild(plan(['--cache-dir', cacheDir]), env); // fills the cache
    const warm: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await timeChild(plan(['--cache-dir', cacheDir]), env));
    report({ what: `warm plan, ${count} auto-replies (whole process, cache filled)`, ms: median(warm.map((r) => r.ms)), boundMs: Math.max(1, Math.ceil(count / 1000)) * LATENCY_MS, rssKiB: median(warm.map((r) => r.rssKiB ?? 0)) });

    // The phases, in this process.
    const phases: { load: number; read: number; plan: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const loaded = await loadManifests([manifests], { env: {}, cwd: dir });
      const t1 = performance.now();
      const client = createClient({ baseUrl: emu.url, credentials: { token: TOKEN }, concurrency });
      const live = await readLive(client, { id: BENCH_BRAND }, { concurrency });
      const t2 = performance.now();
      buildPlan(loaded.brands[0] as NonNullable<(typeof loaded.brands)[0]>, live);
      const t3 = performance.now();
      await client.close();
      phases.push({ load: t1 - t0, read: t2 - t1, plan: t3 - t2 });
    }
    const p = { load: median(phases.map((x) => x.load)), read: median(phases.map((x) => x.read)), plan: median(phases.map((x) => x.plan)) };
    console.log(`  in-process phases: load ${p.load.toFixed(0)} ms, read ${p.read.toFixed(0)} ms (ratio ${(p.read / bound(count, concurrency)).toFixed(2)}), build the plan ${p.plan.toFixed(0)} ms`);
  } finally {
    emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Marks of bench/timeline.ts, milliseconds since the process started. */
interface Timeline {
  preload: number;
  firstRequest?: number;
  lastAnswer?: number;
  firstOutput?: number;
  exit: number;
  requests: number;
  peakRssMiB: number;
}

/** One more cold run with the timeline preload: where the whole process spends its time. */
async function coldTimeline(args: string[], env: Record<string, string>): Promise<void> {
  const run = await timeChild(args, env);
  const line = /^timeline (\{.*\})$/m.exec(run.stderr);
  if (line === null) {
    console.log('  cold process timeline: no timeline line (the preload did not run)');
    return;
  }
  const t = JSON.parse(line[1] as string) as Timeline;
  const first = t.firstRequest ?? t.exit;
  const answer = t.lastAnswer ?? first;
  const output = t.firstOutput ?? t.exit;
  console.log(
    `  cold process timeline (one run, ${run.ms.toFixed(0)} ms wall): node ready ${t.preload} ms; start to the first request ${first} ms ` +
      `(modules, loading the manifests, connecting); reads ${answer - first} ms (${t.requests} requests); last answer to the first output ` +
      `${output - answer} ms (building and rendering the plan); output to exit ${t.exit - output} ms; process gone ${(run.ms - t.exit).toFixed(0)} ms later; peak RSS ${t.peakRssMiB} MiB`,
  );
}

async function createsScenario(count: number): Promise<void> {
  const emu = await emulator(0);
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    const manifests = writeBenchManifests(join(dir, 'manifests'), count, 1);
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN };
    const args = [BIN, 'plan', manifests, '--no-cache'];
    await timeChild(args, env);
    const runs: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeChild(args, env));
    const loaded = await loadManifests([manifests], { env: {}, cwd: dir });
    const brand = loaded.brands[0] as NonNullable<(typeof loaded.brands)[0]>;
    const live = { brandId: BENCH_BRAND, autoReplies: [], files: new Map(), logos: [], chatbots: [], agencyFiles: new Map(), templates: { items: [], forms: new Map(), formIds: [] } } as unknown as LiveBrand;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const plan = buildPlan(brand, live);
      times.push(performance.now() - t0);
      if (plan.steps.length !== count) throw new Error(`${plan.steps.length} steps, expected ${count}`);
    }
    report({ what: `plan of ${count} creates (whole process)`, ms: median(runs.map((r) => r.ms)), boundMs: bound(0, 8), rssKiB: median(runs.map((r) => r.rssKiB ?? 0)), note: `building the plan in-process: ${median(times).toFixed(0)} ms (target ≤ 500)` });
  } finally {
    emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function applyScenario(count: number, concurrency: number): Promise<void> {
  const emu = await emulator(0);
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    const manifests = writeBenchManifests(join(dir, 'manifests'), count, 1);
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN };
    const cacheDir = join(dir, 'cache');
    const apply = [BIN, 'apply', '--yes', manifests, '--concurrency', String(concurrency), '--cache-dir', cacheDir];
    const runs: ChildRun[] = [];
    const noop: ChildRun[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      await emu.reset();
      rmSync(cacheDir, { recursive: true, force: true });
      const r = await timeChild(apply, env);
      if (r.code !== 0) throw new Error(`apply exited ${r.code}`);
      const n = await timeChild(apply, env); // nothing to do: right after
      if (i > 0) {
        runs.push(r);
        noop.push(n);
      }
    }
    report({ what: `apply creating ${count}, C=${concurrency}, verification included (whole process)`, ms: median(runs.map((r) => r.ms)), boundMs: bound(count, concurrency), rssKiB: median(runs.map((r) => r.rssKiB ?? 0)) });
    report({ what: `no-op apply right after (whole process)`, ms: median(noop.map((r) => r.ms)), boundMs: bound(count, concurrency), note: `warm bound (lists only) ${Math.ceil(count / 1000) * LATENCY_MS} ms` });

    // The phases, in this process, with no progress output: what is left of the
    // whole process's time is Node's start, module loading and the output.
    const phases: { load: number; plan: number; steps: number; verify: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      await emu.reset();
      const t0 = performance.now();
      const loaded = await loadManifests([manifests], { env: {}, cwd: dir });
      const desired = loaded.brands[0] as NonNullable<(typeof loaded.brands)[0]>;
      const t1 = performance.now();
      const client = createClient({ baseUrl: emu.url, credentials: { token: TOKEN }, concurrency });
      const live = await readLive(client, { id: BENCH_BRAND }, { concurrency });
      const plan = buildPlan(desired, live);
      const t2 = performance.now();
      let t3 = 0;
      const [outcome] = await applyEachBrand(client, [{ plan, brand: { id: BENCH_BRAND }, before: listsFromLive(live, touchedKinds(plan)) }], {
        concurrency,
        allowDelete: false,
        allowReview: false,
        fromSavedPlan: false,
        reporterFor: () => ({ start: () => undefined, finish: () => undefined, finished: async () => void (t3 = performance.now()) }),
      });
      const t4 = performance.now();
      await client.close();
      if (outcome?.status !== 'verified' || outcome.unconverged.length > 0 || outcome.error !== undefined) throw new Error(`in-process apply did not verify: ${JSON.stringify(outcome).slice(0, 300)}`);
      phases.push({ load: t1 - t0, plan: t2 - t1, steps: t3 - t2, verify: t4 - t3 });
    }
    const m = (k: keyof (typeof phases)[0]) => median(phases.map((x) => x[k]));
    const creates = Math.ceil(count / concurrency) * LATENCY_MS;
    console.log(`  in-process phases: load ${m('load').toFixed(0)} ms, read and plan ${m('plan').toFixed(0)} ms, the ${count} creates ${m('steps').toFixed(0)} ms (bound ${creates} ms, ratio ${(m('steps') / creates).toFixed(2)}), verify ${m('verify').toFixed(0)} ms`);
  } finally {
    emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function validateScenario(count: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    const manifests = writeBenchManifests(join(dir, 'manifests'), count, 1);
    const args = [BIN, 'validate', join(manifests, 'part-000.yaml')];
    await timeChild(args);
    const runs: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeChild(args));
    if (runs.some((r) => r.code !== 0)) throw new Error('validate failed');
    report({ what: `validate one file of ${count} auto-replies (whole process)`, ms: median(runs.map((r) => r.ms)), rssKiB: median(runs.map((r) => r.rssKiB ?? 0)) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One manifest of `count` auto-replies against the same auto-replies in
 * `files` files, validated as a whole process, alternately: the size of one
 * file must cost no more than the same items split (no lookup that grows with
 * the file's length per item).
 */
async function splitScenario(count: number, files: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    const one = writeBenchManifests(join(dir, 'one'), count, 1);
    const split = writeBenchManifests(join(dir, 'split'), count, files);
    const oneArgs = [BIN, 'validate', one];
    const splitArgs = [BIN, 'validate', split];
    await timeChild(oneArgs);
    await timeChild(splitArgs);
    const oneRuns: ChildRun[] = [];
    const splitRuns: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      oneRuns.push(await timeChild(oneArgs));
      splitRuns.push(await timeChild(splitArgs));
    }
    if ([...oneRuns, ...splitRuns].some((r) => r.code !== 0)) throw new Error('validate failed');
    const oneMs = median(oneRuns.map((r) => r.ms));
    const splitMs = median(splitRuns.map((r) => r.ms));
    report({ what: `validate ${files} files of ${count / files} auto-replies (whole process)`, ms: splitMs });
    report({ what: `validate one file of ${count} auto-replies (whole process)`, ms: oneMs, note: `one file / ${files} files ${(oneMs / splitMs).toFixed(2)} (target 1.00: equal)` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `preview` of one brand of `count` auto-replies, each linking to the next (so
 * links cross pages), against `validate` of the same files, alternately, as
 * whole processes: preview reads and validates the same manifests, so what it
 * adds is drawing the pages (target: at most 3x validate; before the pages,
 * 100,000 did not finish in 3 minutes).
 */
async function previewScenario(count: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bench-cli-'));
  try {
    // 10,000 auto-replies a file keeps each file under the manifest size limit.
    const manifests = writeBenchManifests(join(dir, 'manifests'), count, Math.max(1, Math.ceil(count / 10_000)), { ring: count });
    const validate = [BIN, 'validate', manifests];
    const preview = [BIN, 'preview', manifests, '-o', join(dir, 'site')];
    await timeChild(validate);
    await timeChild(preview);
    const validateRuns: ChildRun[] = [];
    const previewRuns: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      validateRuns.push(await timeChild(validate));
      rmSync(join(dir, 'site'), { recursive: true, force: true });
      previewRuns.push(await timeChild(preview));
    }
    if ([...validateRuns, ...previewRuns].some((r) => r.code !== 0)) throw new Error('validate or preview failed');
    const v = median(validateRuns.map((r) => r.ms));
    const p = median(previewRuns.map((r) => r.ms));
    report({ what: `validate ${count} auto-replies (whole process)`, ms: v, rssKiB: median(validateRuns.map((r) => r.rssKiB ?? 0)) });
    report({ what: `preview ${count} auto-replies (whole process)`, ms: p, rssKiB: median(previewRuns.map((r) => r.rssKiB ?? 0)), note: `preview / validate ${(p / v).toFixed(2)} (target ≤ 3.00)` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startupScenario(): Promise<void> {
  const floor: ChildRun[] = [];
  const version: ChildRun[] = [];
  const validate: ChildRun[] = [];
  const example = join(ROOT, 'examples', 'brand');
  for (let i = 0; i < RUNS + 1; i++) {
    floor.push(await timeChild(['-e', '0']));
    version.push(await timeChild([BIN, '--version']));
    validate.push(await timeChild([BIN, 'validate', example]));
  }
  const f = median(floor.slice(1).map((r) => r.ms));
  report({ what: 'node -e 0 (the floor)', ms: f });
  report({ what: 'rcsctl --version', ms: median(version.slice(1).map((r) => r.ms)), note: `${(median(version.slice(1).map((r) => r.ms)) / f).toFixed(2)}x the floor` });
  report({ what: 'rcsctl validate examples/brand', ms: median(validate.slice(1).map((r) => r.ms)), note: `${(median(validate.slice(1).map((r) => r.ms)) / f).toFixed(2)}x the floor` });
}

const SCENARIOS: Record<string, () => Promise<void>> = {
  startup: startupScenario,
  'plan-1k': () => planScenario(1000, 8),
  'plan-10k': () => planScenario(10_000, 32),
  'creates-10k': () => createsScenario(10_000),
  'apply-1k': () => applyScenario(1000, 8),
  'validate-10k': () => validateScenario(10_000),
  'split-4k': () => splitScenario(4000, 4),
  'preview-100k': () => previewScenario(100_000),
};

/** Run the chosen scenarios (all by default) and print every figure. */
export async function run(names: string[] = []): Promise<Row[]> {
  const chosen = names.length > 0 ? names : Object.keys(SCENARIOS);
  console.log(`cli: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start; medians of ${RUNS} runs; latency ${LATENCY_MS} ms`);
  for (const name of chosen) {
    const scenario = SCENARIOS[name];
    if (scenario === undefined) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    console.log(`- ${name}`);
    await scenario();
  }
  console.log(`cli: load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run(process.argv.slice(2));
