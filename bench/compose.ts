// Composition's cost (issue 37): 200 brands that share one base, against the
// same 200 brands written out flat, as whole `rcsctl` processes, alternately
// in the same minutes: `validate`, a cold `plan` (--no-cache) and a warm one
// (cache filled), against an emulator child (20 ms a request) holding every
// brand in sync but every tenth, whose first auto-reply has a new text (an
// override in the composed form). The two forms say the same: the bench
// checks that their plans are equal before it times them. Then the load of
// each form in this process, where composition's own cost shows. Target:
// composed ≤ 1.1× flat for validate and plan.
//
//   npm run build && node dist/bench/run.js compose
//   BENCH_RUNS=5 node --expose-gc dist/bench/run.js compose

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Seed } from '../src/emulator/index.js';
import { emulatorChild, serveEmulator } from './controller-fleet.js';
import { loadManifests } from '../src/manifest/index.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'rcsctl.js');
const TOKEN = 'bench-master-token';
const LATENCY_MS = 20;
const BRANDS = Number(process.env.BENCH_BRANDS ?? 200);
const PER_BRAND = 10;
const CHANGED_EVERY = 10;
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const TARGET = 1.1;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const brandId = (b: number): string => `BR.cmp${String(b).padStart(7, '0')}`;
const city = (b: number): string => `City ${b}`;
const phone = (b: number): string => `02${String(1_000_000 + b).padStart(8, '0')}`;
const replyName = (i: number): string => `Store reply ${String(i).padStart(2, '0')}`;
/** Auto-reply `i`'s text for brand `b` (what the base's text gives with the brand's values). */
const text = (b: number, i: number): string => `Bean Street ${city(b)}: reply ${i}. 24 seats; call ${phone(b)}.`;
const changed = (b: number): string => `Bean Street ${city(b)}: opening late this week.`;
const isChanged = (b: number): boolean => b % CHANGED_EVERY === 0;

/** The seed: every brand's auto-replies as the base gives them (so every brand but every tenth is in sync). */
function seed(): Seed {
  const ids = Array.from({ length: BRANDS }, (_, b) => brandId(b));
  return {
    accounts: [{ userId: 'bench', role: 'master', token: TOKEN, brands: ids.map((id) => ({ brandId: id, role: 'representative' })) }],
    brands: ids.map((id, b) => ({
      brandId: id,
      brandKey: `BK.${id.slice(3)}0000`,
      autoReplies: Array.from({ length: PER_BRAND }, (_, i) => ({ autoReplyMsgName: replyName(i), messagebaseId: 'SCS00000', body: { description: text(b, i) } })),
    })),
  } as unknown as Seed;
}

/** The composed form: one base, and per brand a short file with its values (every tenth overriding one text). */
export function writeComposed(dir: string): string {
  mkdirSync(join(dir, 'base'), { recursive: true });
  const base = ['apiVersion: rcsctl/v1', 'kind: Base', 'variables:', '  city: { type: string }', '  phone: { type: string }', '  seats: { type: number, default: 24 }', 'autoReplies:'];
  for (let i = 0; i < PER_BRAND; i++) base.push(`  ar${i}:`, `    name: "${replyName(i)}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Bean Street \${var:city}: reply ${i}. \${var:seats} seats; call \${var:phone}."`);
  writeFileSync(join(dir, 'base', 'base.yaml'), base.join('\n') + '\n');
  for (let b = 0; b < BRANDS; b++) {
    const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${brandId(b)}`, 'bases:', '  - base: ../../base', `    variables: { city: "${city(b)}", phone: "${phone(b)}" }`];
    if (isChanged(b)) lines.push('overrides:', '  autoReplies:', '    ar0:', `      body: { description: "${changed(b)}" }`);
    mkdirSync(join(dir, 'brands', String(b)), { recursive: true });
    writeFileSync(join(dir, 'brands', String(b), 'brand.yaml'), lines.join('\n') + '\n');
  }
  return dir;
}

/** The flat form: each brand's file holds all it declares. */
export function writeFlat(dir: string): string {
  for (let b = 0; b < BRANDS; b++) {
    const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${brandId(b)}`, 'autoReplies:'];
    for (let i = 0; i < PER_BRAND; i++) lines.push(`  ar${i}:`, `    name: "${replyName(i)}"`, '    messagebaseId: SCS00000', '    body:', `      description: "${i === 0 && isChanged(b) ? changed(b) : text(b, i)}"`);
    mkdirSync(join(dir, 'brands', String(b)), { recursive: true });
    writeFileSync(join(dir, 'brands', String(b), 'brand.yaml'), lines.join('\n') + '\n');
  }
  return dir;
}

interface ChildRun {
  ms: number;
  /** User and system CPU seconds of the child (from /usr/bin/time, when the machine has it): less shaken by a busy machine than wall time. */
  cpu?: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

function timeChild(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const argv = TIME !== undefined ? [TIME, '-f', 'CPU %U %S', process.execPath, ...args] : [process.execPath, ...args];
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err);
      resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, code, stdout: out, stderr: err, ...(m ? { cpu: Number(m[1]) + Number(m[2]) } : {}) });
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** `args(form)` for each form, alternately, RUNS times after one warm-up each; the medians and their ratio. */
async function sideBySide(what: string, args: (dir: string, form: 'flat' | 'composed') => string[], dirs: { flat: string; composed: string }, env: Record<string, string>, okCodes = [0, 2]): Promise<number> {
  const times = { flat: [] as number[], composed: [] as number[] };
  const cpu = { flat: [] as number[], composed: [] as number[] };
  for (let i = 0; i < RUNS + 1; i++) {
    for (const form of ['flat', 'composed'] as const) {
      const r = await timeChild(args(dirs[form], form), env);
      if (!okCodes.includes(r.code ?? -1)) throw new Error(`${what} (${form}) exited ${r.code}: ${r.stderr.slice(-400)}`);
      if (i > 0) {
        times[form].push(r.ms);
        if (r.cpu !== undefined) cpu[form].push(r.cpu);
      }
    }
  }
  const cpuNote = cpu.flat.length > 0 ? `; CPU flat ${median(cpu.flat).toFixed(2)} s, composed ${median(cpu.composed).toFixed(2)} s, composed/flat ${(median(cpu.composed) / median(cpu.flat)).toFixed(2)}` : '';
  const flat = median(times.flat);
  const composed = median(times.composed);
  const ratio = composed / flat;
  console.log(`  ${what}: flat ${flat.toFixed(0)} ms, composed ${composed.toFixed(0)} ms, composed/flat ${ratio.toFixed(2)} (target ≤ ${TARGET})${ratio > TARGET ? ' NOT MET' : ''}${cpuNote}`);
  return ratio;
}

/** The plan's JSON without what differs between the two forms by design (where each step's resource is declared). */
function planOf(stdout: string): string {
  const plan = JSON.parse(stdout) as { brands: { brandId: string; steps: { id: string; changes: unknown }[] }[] };
  return JSON.stringify(plan.brands.map((b) => ({ brandId: b.brandId, steps: b.steps.map((s) => ({ id: s.id, changes: s.changes })) })));
}

/** Bytes of every file below `dir`. */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? bytesUnder(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
}

/**
 * Adopting the fleet (`export --all --base`, issue 37): every live brand written against the base, against a
 * plain `export --all`, alternately; what the written files weigh; and a plan of what `--base` wrote, which must
 * be empty (live is what the base gives, with each brand's values read off its texts).
 */
async function exportAgainstBase(work: string, composed: string, env: Record<string, string>): Promise<void> {
  const times = { plain: [] as number[], base: [] as number[] };
  const bytes = { plain: 0, base: 0 };
  for (let i = 0; i < RUNS + 1; i++) {
    for (const form of ['plain', 'base'] as const) {
      const out = join(work, `export-${form}-${i}`);
      const r = await timeChild([BIN, 'export', '--all', '--out', out, ...(form === 'base' ? ['--base', join(composed, 'base')] : [])], env);
      if (r.code !== 0) throw new Error(`export --all${form === 'base' ? ' --base' : ''} exited ${r.code}: ${r.stderr.slice(-400)}`);
      if (i > 0) times[form].push(r.ms);
      bytes[form] = bytesUnder(out);
      if (i > 0 && form === 'base') {
        const plan = await timeChild([BIN, 'plan', out, '--no-cache', '--json'], env);
        const steps = (JSON.parse(plan.stdout) as { brands: { steps: unknown[] }[] }).brands.reduce((n, b) => n + b.steps.length, 0);
        if (plan.code !== 0 || steps !== 0) throw new Error(`the brands export --base wrote plan ${steps} steps (exit ${plan.code}): ${plan.stderr.slice(-400)}`);
      }
      if (i < RUNS) rmSync(out, { recursive: true, force: true });
    }
  }
  const [plain, base] = [median(times.plain), median(times.base)];
  console.log(`  export --all: ${plain.toFixed(0)} ms; export --all --base: ${base.toFixed(0)} ms (${(base / BRANDS).toFixed(0)} ms a brand, ${(base / plain).toFixed(2)}× plain); written: ${(bytes.plain / 1024).toFixed(0)} kB plain, ${(bytes.base / 1024).toFixed(0)} kB against the base; a plan of it: 0 steps`);
}

export async function run(): Promise<void> {
  console.log(`compose: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start; ${BRANDS} brands × ${PER_BRAND} auto-replies; medians of ${RUNS} runs; latency ${LATENCY_MS} ms`);
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-bench-compose-'));
  const child = await emulatorChild(import.meta.url);
  try {
    const { url } = child;
    const dirs = { flat: writeFlat(join(work, 'flat')), composed: writeComposed(join(work, 'composed')) };
    const env = { RCSCTL_BASE_URL: url, RCSCTL_TOKEN: TOKEN, RCSCTL_PERSON_ID: 'bench' };
    // The two forms must say the same, or the comparison means nothing.
    const plans = await Promise.all((['flat', 'composed'] as const).map((f) => timeChild([BIN, 'plan', join(dirs[f], 'brands'), '--no-cache', '--json'], env)));
    const [flatPlan, composedPlan] = plans.map((p) => planOf(p.stdout));
    if (flatPlan !== composedPlan) throw new Error('the composed and the flat manifests plan differently');
    const steps = (JSON.parse(plans[0]?.stdout ?? '{}') as { brands: { steps: unknown[] }[] }).brands.reduce((n, b) => n + b.steps.length, 0);
    console.log(`  both forms plan the same ${steps} steps`);

    await sideBySide('validate (whole process)', (d) => [BIN, 'validate', join(d, 'brands')], dirs, {}, [0]);
    await sideBySide('cold plan (whole process, --no-cache)', (d) => [BIN, 'plan', join(d, 'brands'), '--no-cache'], dirs, env);
    for (const form of ['flat', 'composed'] as const) await timeChild([BIN, 'plan', join(dirs[form], 'brands'), '--cache-dir', join(work, `cache-${form}`)], env);
    await sideBySide('warm plan (whole process, cache filled)', (d, form) => [BIN, 'plan', join(d, 'brands'), '--cache-dir', join(work, `cache-${form}`)], dirs, env);

    await exportAgainstBase(work, dirs.composed, env);

    // Loading alone, in this process: what composition itself costs.
    const load = { flat: [] as number[], composed: [] as number[] };
    for (let i = 0; i < RUNS + 1; i++) {
      for (const form of ['flat', 'composed'] as const) {
        const t0 = performance.now();
        const loaded = await loadManifests([join(dirs[form], 'brands')], { env: {}, cwd: work });
        const ms = performance.now() - t0;
        if (loaded.brands.length !== BRANDS || loaded.diagnostics.length > 0) throw new Error(`${form}: ${loaded.brands.length} brands, ${loaded.diagnostics.length} diagnostics`);
        if (i > 0) load[form].push(ms);
      }
    }
    console.log(`  in-process load of the manifests: flat ${median(load.flat).toFixed(0)} ms, composed ${median(load.composed).toFixed(0)} ms, composed/flat ${(median(load.composed) / median(load.flat)).toFixed(2)}`);
  } finally {
    child.close();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`compose: load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--serve')) await serveEmulator(seed(), LATENCY_MS);
  else await run();
}
