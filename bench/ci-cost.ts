// What a pull request's check costs in requests (issue 38): the check jobs of
// examples/ci/github-actions-matrix.yml at four shards, on a 40-brand agency
// (12 auto-replies each), each command its own process as in a CI job, against
// an in-process emulator. Each job is what the
// recipe runs: `plan --shard i/4 --compare-to BASE --format json` then
// `drift --shard i/4 --format json` with RCSCTL_CACHE_DIR the job's cache
// directory; the requests are the JSON outputs' counts (`requests`), checked
// against the emulator's request log. Three ways to start a job:
//
//   no cache kept   each job starts with an empty cache (the recipes before
//                   they kept it): what every pull request cost;
//   warm            each job runs again right after itself, on its own cache:
//                   the least a run can cost;
//   cache kept      what the recipes do now: each shard's cache as the last
//                   run on main left it (its runner key file, seal.key, not
//                   kept), restored; since then a colleague edited two
//                   auto-replies of one brand in the console, and the request
//                   changes three brands.
//
// Target: cache kept ≤ 1.2 × warm. Request counts do not depend on the
// machine's speed: one run of each. `npm run bench -- ci-cost`.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadSeed, startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { withDeclaredBrands } from '../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../src/util/paths.js';

const BRANDS = 40;
const REPLIES = 12;
const SHARDS = 4;
const TOKEN = 'emulator-master-token';
const IDS = Array.from({ length: BRANDS }, (_, i) => `BR.agcy${String(i).padStart(6, '0')}`);

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');

/** The agency's manifests under `dir`/brands; `changed` brands get a new description. */
function writeAgency(dir: string, changed: readonly string[] = [], edited?: string): void {
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    const replies = Array.from({ length: REPLIES }, (_, i) => {
      const text = id === edited && i < 2 ? 'Closed today: stocktaking' : changed.includes(id) ? `New opening hours (${id}, reply ${i})` : `Opening hours (${id}, reply ${i})`;
      return `  r${i}: { name: "Reply ${i}", messagebaseId: SCS00000, body: { description: "${text}" } }`;
    });
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${replies.join('\n')}\n`);
  }
}

/** rcsctl as a CI job starts it: its own process. */
async function rcsctl(emu: RunningEmulator, cwd: string, cacheDir: string, argv: string[]): Promise<number> {
  const env = { PATH: process.env.PATH ?? '', RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_CACHE_DIR: cacheDir, NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, ...argv], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  if (code !== 0 && code !== 2) throw new Error(`rcsctl ${argv.join(' ')}: exit ${code}: ${stderr}`);
  return code;
}

/** One check job of shard `i`: plan and drift, as the recipe runs them; the requests their JSON outputs count. */
async function checkJob(emu: RunningEmulator, repo: string, cacheDir: string, i: number): Promise<number> {
  const shard = `${i}/${SHARDS}`;
  await rcsctl(emu, repo, cacheDir, ['plan', 'brands', '--shard', shard, '--compare-to', 'base/brands', '--format', 'json', '--output', `plan-${i}.json`]);
  await rcsctl(emu, repo, cacheDir, ['drift', 'brands', '--shard', shard, '--format', 'json', '--output', `drift-${i}.json`]);
  const count = (f: string) => (JSON.parse(readFileSync(join(repo, f), 'utf8')) as { requests: { requests: number } }).requests.requests;
  return count(`plan-${i}.json`) + count(`drift-${i}.json`);
}

/** The emulator's request log since the last call, emptied. */
async function logged(emu: RunningEmulator): Promise<number> {
  const res = await fetch(`${emu.url}/_emulator/requests`);
  const n = ((await res.json()) as { requests: unknown[] }).requests.length;
  await fetch(`${emu.url}/_emulator/requests`, { method: 'DELETE' });
  return n;
}

/** The four check jobs, each starting from the cache `start(i)` gives; the requests by the outputs and by the emulator. */
async function checkRun(emu: RunningEmulator, repo: string, start: (i: number) => string): Promise<{ counted: number; served: number }> {
  await logged(emu);
  let counted = 0;
  for (let i = 1; i <= SHARDS; i++) counted += await checkJob(emu, repo, start(i), i);
  return { counted, served: await logged(emu) };
}

/** Run the benchmark and print its figures. */
export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'rcsctl-bench-ci-cost-'));
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  const emu = await startEmulator({ port: 0, seed });
  try {
    // main, applied; then the last run on main (the nightly drift) leaves each shard's cache.
    const mainRepo = join(root, 'main');
    writeAgency(mainRepo);
    cpSync(join(mainRepo, 'brands'), join(mainRepo, 'base', 'brands'), { recursive: true });
    await rcsctl(emu, mainRepo, join(root, 'apply-cache'), ['apply', 'brands', '--yes']);
    const kept = (i: number) => join(root, `kept-${i}`);
    for (let i = 1; i <= SHARDS; i++) await rcsctl(emu, mainRepo, kept(i), ['drift', 'brands', '--shard', `${i}/${SHARDS}`, '--format', 'json', '--output', 'nightly.json']);
    for (let i = 1; i <= SHARDS; i++) rmSync(join(kept(i), 'seal.key'), { force: true });

    // A colleague's console edit of two auto-replies of one brand.
    const consoleRepo = join(root, 'console');
    writeAgency(consoleRepo, [], IDS[7]);
    await rcsctl(emu, consoleRepo, join(root, 'console-cache'), ['apply', 'brands', '--brand', IDS[7] as string, '--yes']);

    // The request: three brands changed; its base is main.
    const pr = join(root, 'request');
    writeAgency(pr, [IDS[1], IDS[2], IDS[3]] as string[]);
    cpSync(join(mainRepo, 'brands'), join(pr, 'base', 'brands'), { recursive: true });

    const none = await checkRun(emu, pr, (i) => mkdtempSync(join(root, `empty-${i}-`)));
    const restored = await checkRun(emu, pr, (i) => {
      const dir = join(root, `restored-${i}`);
      cpSync(kept(i), dir, { recursive: true });
      return dir;
    });
    // Warm: the same jobs again, each on the cache its run just left.
    const warm = await checkRun(emu, pr, (i) => join(root, `restored-${i}`));
    const line = (name: string, r: { counted: number; served: number }) => `${name.padEnd(16)} ${String(r.counted).padStart(6)} requests (emulator log ${r.served})`;
    console.log(`ci-cost: ${BRANDS} brands × ${REPLIES} auto-replies, ${SHARDS} check jobs (plan --compare-to, drift)`);
    console.log(line('no cache kept', none));
    console.log(line('cache kept', restored));
    console.log(line('warm', warm));
    const ratio = restored.counted / warm.counted;
    console.log(`cache kept / warm: ${ratio.toFixed(2)} (target ≤ 1.20: ${ratio <= 1.2 ? 'met' : 'NOT met'}); no cache kept / warm: ${(none.counted / warm.counted).toFixed(2)}`);
  } finally {
    await emu.close();
    rmSync(root, { recursive: true, force: true });
  }
}
