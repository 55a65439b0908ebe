// Shared helpers of the end-to-end tests: an emulator on port 0, the CLI run
// in-process against it over real HTTP, the admin API, and `converge`, which
// brings a brand to its manifest through the real applier.

import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createClient, type RcsClient } from '../../src/api/index.js';
import { main } from '../../src/cli/main.js';
import { startEmulator, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import type { DesiredBrand } from '../../src/manifest/types.js';
import { brandRef, planBrands, type PlannedBrand } from '../../src/plan/plan-brands.js';
import { executePlan } from '../../src/apply/execute.js';
import { withContract } from '../contract-recorder.js';

export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const EXAMPLE = join(ROOT, 'examples', 'brand');
export const BRAND = 'BR.demo000001';
export const TOKEN = 'emulator-master-token';

export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** A CLI run's outcome. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run rcsctl in-process; `emu` sets --base-url and the token unless `env` overrides. */
export async function cli(argv: string[], opts: { emu?: RunningEmulator; cwd?: string; env?: Record<string, string | undefined>; signal?: AbortSignal } = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = { ...(opts.emu ? { RCSCTL_BASE_URL: opts.emu.url, RCSCTL_TOKEN: TOKEN } : {}), ...(opts.env ?? {}) };
  const code = await main(argv, { stdout, stderr, env, cwd: opts.cwd ?? ROOT, ...(opts.signal !== undefined ? { signal: opts.signal } : {}) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Start an emulator with the example seed (or `seed`). */
export async function emulator(seed?: string | Seed): Promise<RunningEmulator> {
  const { opts, adopt } = withContract({ port: 0, ...(seed !== undefined ? { seed } : {}) });
  return adopt(await startEmulator(opts));
}

/** A client for `emu` with the master token. */
export function clientFor(emu: RunningEmulator): RcsClient {
  return createClient({ baseUrl: emu.url, credentials: { token: TOKEN } });
}

/** Call the emulator's admin API; throws on a non-2xx answer. */
export async function admin(emu: RunningEmulator, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const res = await request(`${emu.url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`admin ${method} ${path}: ${res.statusCode} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** Load manifests (throws on any error diagnostic). */
export async function load(path: string, env: Record<string, string | undefined> = {}): Promise<DesiredBrand[]> {
  const result = await loadManifests([path], { env, cwd: ROOT });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((d) => `${d.file}:${d.line}: ${d.message}`).join('\n'));
  return result.brands;
}

/** Read and plan. */
export function plan(client: RcsClient, brands: DesiredBrand[]): Promise<PlannedBrand[]> {
  return planBrands(client, brands, { concurrency: 8 });
}

/** Bring the live brands to the manifests at `path` through the real applier (every gate open). */
export async function converge(client: RcsClient, path: string): Promise<void> {
  const brands = await load(path);
  for (const p of await plan(client, brands)) {
    const { results } = await executePlan(p.plan, { client, brand: brandRef(p.desired), concurrency: 8, allowDelete: true, allowReview: true, fromSavedPlan: false });
    const notDone = results.filter((r) => r.status !== 'done');
    if (notDone.length > 0) throw new Error(notDone.map((r) => `${r.step.address}: ${r.message}`).join('\n'));
  }
}
