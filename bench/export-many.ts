// `rcsctl export` of a fleet (issue 38, "Export many"): the whole process,
// side by side in one run against one emulator child (20 ms a request):
// - one process exporting every brand the account sees (`export --all`);
// - one process per brand (`export --brand ID`), one after the other, as a
//   shell loop over the brands did before.
// Alternated RUNS times; medians. Target: the one process at least 5× faster
// at 40 brands. `npm run bench -- export-many [brands ...]` (default 40).

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type Seed } from '../src/emulator/index.js';
import { emulatorChild as emulatorChildOf, fleetSeed, type Fleet } from './controller-fleet.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');
const TOKEN = 'bench-master-token';
const LATENCY_MS = 20;
const PER_BRAND = 20;
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
/** The emulator child's fleet size (passed to it with --serve). */
const SERVE_BRANDS = Number(process.argv[process.argv.indexOf('--serve') + 1] ?? 40);

const fleet = (brands: number): Fleet => ({
  brands,
  perBrand: PER_BRAND,
  token: TOKEN,
  brandId: (b) => `BR.xp${String(b).padStart(8, '0')}`,
  replyName: (i) => `Auto-reply ${String(i).padStart(3, '0')}`,
});

/** Run `args` (rcsctl's arguments) as a child process; milliseconds to its exit, which must be 0. */
function rcsctl(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`rcsctl ${args.join(' ')} exited ${code}: ${err.slice(-400)}`))));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** The benchmark: `args` are fleet sizes (default 40). */
export async function run(args: string[]): Promise<void> {
  const sizes = args.length > 0 ? args.map(Number) : [40];
  for (const brands of sizes) {
    const f = fleet(brands);
    const child = await emulatorChildOf(new URL(`./export-many.js`, import.meta.url).href, [String(brands)]);
    const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bench-export-'));
    const env = { RCSCTL_BASE_URL: child.url, RCSCTL_TOKEN: TOKEN, RCSCTL_PERSON_ID: 'bench', RCSCTL_CACHE_DIR: join(tmp, 'cache') };
    const ids = Array.from({ length: brands }, (_, b) => f.brandId(b));
    console.log(`export of ${brands} brands × ${PER_BRAND} auto-replies, ${LATENCY_MS} ms a request; ${RUNS} runs each, alternated; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);
    try {
      const one: number[] = [];
      const each: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const all = join(tmp, `all-${i}`);
        one.push(await rcsctl(['export', '--all', '--out', all], env));
        if (readdirSync(all).length !== brands) throw new Error(`export --all wrote ${readdirSync(all).length} folders, not ${brands}`);
        const t0 = process.hrtime.bigint();
        for (const id of ids) await rcsctl(['export', '--brand', id, '--out', join(tmp, `each-${i}`, id)], env);
        each.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const a = median(one);
      const b = median(each);
      console.log(`  one process, export --all: ${a.toFixed(0)} ms (runs ${one.map((x) => x.toFixed(0)).join(', ')})`);
      console.log(`  ${brands} processes, export --brand each: ${b.toFixed(0)} ms (runs ${each.map((x) => x.toFixed(0)).join(', ')})`);
      console.log(`  speed-up ${(b / a).toFixed(1)}× (target ≥ 5×); load ${loadavg()[0]!.toFixed(1)}`);
    } finally {
      child.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

async function serve(): Promise<void> {
  const seed: Seed = fleetSeed(fleet(SERVE_BRANDS));
  const emu = await startEmulator({ seed, latencyMs: LATENCY_MS });
  process.send?.(emu.url);
}

if (process.argv.includes('--serve')) await serve();
