// `npm run soak [-- --seeds N --kills N --pairs N]`: the fault, kill and
// concurrency scenarios at scale, against a local emulator (loopback only).
//
// - fault seeds (default 200): connection resets, 503, 429 and commit-then-drop
//   at random (reproducible per seed), over the example brand and a generated
//   100-auto-reply brand. A first apply may fail; a second must converge: exit
//   0, a clean plan, no duplicate names.
// - kill -9 (default 20): a child `rcsctl apply` killed at a seeded moment; a
//   re-run must converge (the killed run's stale lock is taken over).
// - concurrent pairs (default 20): two applies of one brand at once from two
//   "machines" (two lock directories): same manifests, different manifests,
//   prune, and same manifests whose auto-replies link in a cycle. They must
//   never both report success, and the documented repair
//   (apply --dedupe --allow-delete) must converge.
//
// It prints the failures per category and exits 1 on any.

import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { main } from '../src/cli/main.js';
import { mulberry32 } from '../src/emulator/faults.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { packageRoot } from '../src/util/paths.js';

const TOKEN = 'emulator-master-token';
const BRAND = 'BR.demo000001';

/** How many trials of each scenario. */
export interface SoakOptions {
  seeds: number;
  kills: number;
  pairs: number;
  /** Trials run at once, each against its own emulator (default 4): most of a trial is waiting out retries. */
  parallel?: number;
  /** Called with a line of progress. */
  log?: (line: string) => void;
}

/** Trials and failures of one scenario, with the first few failure reasons. */
export interface Category {
  name: string;
  trials: number;
  failures: number;
  reasons: string[];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Run every scenario; the categories, in order. */
export async function runSoak(opts: SoakOptions): Promise<Category[]> {
  const log = opts.log ?? (() => {});
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-soak-'));
  const example = join(work, 'example');
  cpSync(join(packageRoot(), 'examples', 'brand'), example, { recursive: true });
  const generated = writeBrand(join(work, 'generated'), 'Soak', 100, 'chain');
  const categories: Category[] = [];
  const parallel = Math.max(1, opts.parallel ?? 4);
  const fast = await Promise.all(Array.from({ length: parallel }, () => startEmulator({ port: 0 })));
  // Latency makes two applies overlap for certain.
  const slow = await Promise.all(Array.from({ length: parallel }, () => startEmulator({ port: 0, latencyMs: 10 })));
  try {
    categories.push(await trials(`fault seeds (example brand and a 100-auto-reply brand)`, opts.seeds, fast, log, (emu, i) => faultSeed(emu, work, i + 1, [example, generated])));
    categories.push(await trials('kill -9 mid-apply, then re-run', opts.kills, fast, log, (emu, i) => killTrial(emu, work, i + 1, generated)));
    categories.push(await trials('concurrent applies from two machines', opts.pairs, slow, log, (emu, i) => concurrentPair(emu, work, i)));
  } finally {
    await Promise.all([...fast, ...slow].map((e) => e.close()));
    rmSync(work, { recursive: true, force: true });
  }
  return categories;
}

/** Run `n` trials, one per emulator of `pool` at a time. */
async function trials(name: string, n: number, pool: RunningEmulator[], log: (line: string) => void, trial: (emu: RunningEmulator, i: number) => Promise<string | undefined>): Promise<Category> {
  const cat: Category = { name, trials: n, failures: 0, reasons: [] };
  const started = Date.now();
  let next = 0;
  let finished = 0;
  const worker = async (emu: RunningEmulator): Promise<void> => {
    while (next < n) {
      const i = next++;
      let reason: string | undefined;
      try {
        reason = await trial(emu, i);
      } catch (err) {
        reason = `threw: ${(err as Error).message}`;
      }
      if (reason !== undefined) {
        cat.failures++;
        if (cat.reasons.length < 5) cat.reasons.push(`#${i + 1}: ${reason}`);
      }
      finished++;
      if (finished % 10 === 0 || finished === n) log(`${name}: ${finished}/${n}, ${cat.failures} failed (${Math.round((Date.now() - started) / 1000)}s)`);
    }
  };
  await Promise.all(pool.map(worker));
  return cat;
}

/** A brand of `n` plain auto-replies named `<prefix> i`; with `chain`, each links to the one before, and with `cycle` the first to the last as well. */
function writeBrand(dir: string, prefix: string, n: number, links: false | 'chain' | 'cycle', prune = false): string {
  mkdirSync(dir, { recursive: true });
  const replies = Array.from({ length: n }, (_, i) => {
    const back = i > 0 ? i : links === 'cycle' ? n : undefined;
    const chip = links !== false && back !== undefined ? `    chipList:\n      - reply: { autoReply: r${back}, displayText: Back }\n` : '';
    return `  r${i + 1}:\n    name: "${prefix} ${i + 1}"\n    messagebaseId: SCS00000\n    body: { description: "${prefix} reply ${i + 1}" }\n${chip}`;
  }).join('');
  writeFileSync(join(dir, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\n${prune ? 'prune: [autoReplies]\n' : ''}autoReplies:\n${replies}`);
  return dir;
}

async function cli(emu: RunningEmulator, argv: string[], lockDir: string): Promise<Run> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(argv, { stdout, stderr, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_LOCK_DIR: lockDir }, cwd: packageRoot() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function admin(emu: RunningEmulator, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
  const res = await request(`${emu.url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.body.text();
  if (res.statusCode >= 300) throw new Error(`admin ${method} ${path}: ${res.statusCode}`);
}

/** The live state matches `path`: apply and plan clean, no duplicate names. */
async function converged(emu: RunningEmulator, path: string, lockDir: string, applyFlags: string[] = []): Promise<string | undefined> {
  const apply = await cli(emu, ['apply', path, '--yes', '--allow-review', '--allow-delete', ...applyFlags], lockDir);
  if (apply.code !== 0) return `re-run exited ${apply.code}: ${firstLines(apply.stderr || apply.stdout)}`;
  // Exit 0 with --detailed-exitcode: no step (live objects no manifest declares are listed, not steps).
  const plan = await cli(emu, ['plan', path, '--detailed-exitcode'], lockDir);
  if (plan.code !== 0) return `plan after the re-run is not clean (exit ${plan.code}): ${firstLines(plan.stdout || plan.stderr)}`;
  const names = [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) return `duplicate auto-reply name "${dup}"`;
  return undefined;
}

async function faultSeed(emu: RunningEmulator, work: string, seed: number, brands: string[]): Promise<string | undefined> {
  const locks = join(work, `locks-faults-${emu.port}`);
  for (const path of brands) {
    await admin(emu, 'POST', 'reset');
    await admin(emu, 'POST', 'faults', {
      seed,
      rules: [
        { kind: 'reset', rate: 0.04 },
        { kind: 'error', status: 503, rate: 0.04 },
        { kind: 'rate-limit', rate: 0.04, retryAfter: 0 },
        { kind: 'drop-after-commit', rate: 0.06 },
      ],
    });
    const first = await cli(emu, ['apply', path, '--yes', '--allow-review'], locks);
    await admin(emu, 'DELETE', 'faults');
    if (![0, 1].includes(first.code)) return `${short(path)}: the faulted apply exited ${first.code}: ${firstLines(first.stderr)}`;
    const problem = await converged(emu, path, locks);
    if (problem !== undefined) return `${short(path)}: ${problem}`;
  }
  return undefined;
}

async function killTrial(emu: RunningEmulator, work: string, trial: number, path: string): Promise<string | undefined> {
  await admin(emu, 'POST', 'reset');
  const locks = join(work, `locks-kill-${emu.port}`);
  const rand = mulberry32(trial);
  // Kill once between 1 and 40 of the 100 auto-replies exist: early, middle and late in the run.
  const killAt = 1 + Math.floor(rand() * 40);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot(), 'bin', 'rcsctl.js'), 'apply', path, '--yes'], {
      env: { PATH: process.env.PATH ?? '', RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_LOCK_DIR: locks },
      stdio: 'ignore',
    });
    const timer = setInterval(() => {
      if ((emu.store.brands.get(BRAND)?.autoReplies.size ?? 0) >= killAt) child.kill('SIGKILL');
    }, 2);
    child.on('error', reject);
    child.on('close', (c) => {
      clearInterval(timer);
      resolve(c);
    });
  });
  if (code === 0 && (emu.store.brands.get(BRAND)?.autoReplies.size ?? 0) < killAt) return 'the child finished before it could be killed';
  return converged(emu, path, locks);
}

async function concurrentPair(emu: RunningEmulator, work: string, i: number): Promise<string | undefined> {
  await admin(emu, 'POST', 'reset');
  const kinds = ['same manifests', 'different manifests', 'prune', 'reply cycles'] as const;
  const kind = kinds[i % kinds.length] as (typeof kinds)[number];
  const dir = join(work, `pair-${i}`);
  const prune = kind === 'prune';
  // Reply cycles: the copies each run leaves differ in which links they got, which --dedupe must still clear.
  const a = writeBrand(join(dir, 'a'), 'Left', 12, kind === 'reply cycles' ? 'cycle' : false, prune);
  const b = kind === 'same manifests' || kind === 'reply cycles' ? a : writeBrand(join(dir, 'b'), 'Right', 12, false, prune);
  const flags = ['--yes', '--allow-delete'];
  const [ra, rb] = await Promise.all([cli(emu, ['apply', a, ...flags], join(dir, 'locks-1')), cli(emu, ['apply', b, ...flags], join(dir, 'locks-2'))]);
  if (ra.code === 0 && rb.code === 0) return `${kind}: both applies reported success`;
  const problem = await converged(emu, a, join(dir, 'locks-1'), ['--dedupe']);
  if (problem !== undefined) return `${kind}: the documented repair did not converge: ${problem}`;
  return undefined;
}

function firstLines(text: string): string {
  return text.split('\n').filter((l) => l.trim() !== '').slice(0, 3).join(' | ').slice(0, 300);
}

function short(path: string): string {
  return path.split('/').slice(-1)[0] ?? path;
}

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not "${argv[i + 1] ?? ''}"`);
  return n;
}

/** Print the figures as a table. */
export function formatSoak(categories: Category[], seconds: number): string {
  const lines = ['', 'soak results', ...categories.map((c) => `  ${c.name}: ${c.trials} trials, ${c.failures} failures`)];
  for (const c of categories) for (const r of c.reasons) lines.push(`    ${c.name} ${r}`);
  const total = categories.reduce((n, c) => n + c.failures, 0);
  lines.push(`  total: ${total} failure${total === 1 ? '' : 's'} in ${seconds}s`);
  return lines.join('\n') + '\n';
}

async function cliMain(): Promise<number> {
  const argv = process.argv.slice(2);
  const opts = { seeds: flag(argv, 'seeds', 200), kills: flag(argv, 'kills', 20), pairs: flag(argv, 'pairs', 20), parallel: flag(argv, 'parallel', 4) };
  const started = Date.now();
  process.stdout.write(`soak: ${opts.seeds} fault seeds, ${opts.kills} kill -9 trials, ${opts.pairs} concurrent pairs (loopback emulator)\n`);
  const categories = await runSoak({ ...opts, log: (l) => process.stdout.write(`  ${l}\n`) });
  process.stdout.write(formatSoak(categories, Math.round((Date.now() - started) / 1000)));
  return categories.some((c) => c.failures > 0) ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await cliMain();
}
