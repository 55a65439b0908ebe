// Shared helpers of the end-to-end tests: an emulator on port 0, the CLI run
// in-process against it over real HTTP, the admin API, and a small step runner
// that brings a brand to its manifest through the real client (so these tests
// do not depend on `rcsctl apply`).

import { readFileSync } from 'node:fs';
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
import type { Step } from '../../src/plan/types.js';

export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const EXAMPLE = join(ROOT, 'examples', 'brand');
export const BRAND = 'BR.demo000001';
export const TOKEN = 'emulator-master-token';

class Capture extends Writable {
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
export async function cli(argv: string[], opts: { emu?: RunningEmulator; cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = { ...(opts.emu ? { RCSCTL_BASE_URL: opts.emu.url, RCSCTL_TOKEN: TOKEN } : {}), ...(opts.env ?? {}) };
  const code = await main(argv, { stdout, stderr, env, cwd: opts.cwd ?? ROOT });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Start an emulator with the example seed (or `seed`). */
export function emulator(seed?: string | Seed): Promise<RunningEmulator> {
  return startEmulator({ port: 0, ...(seed !== undefined ? { seed } : {}) });
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

/** Bring the live brands to the manifests at `path`, step by step, through the client. */
export async function converge(client: RcsClient, path: string): Promise<void> {
  const brands = await load(path);
  for (const p of await plan(client, brands)) await runSteps(client, brandRef(p.desired), p.plan.steps);
}

/** Run plan steps in order, filling in ids as they become known (gates are ignored: a test helper). */
export async function runSteps(client: RcsClient, brand: { id: string; key?: string }, steps: Step[]): Promise<void> {
  const ids = new Map<string, string>();
  const fill = <T>(v: T): T => JSON.parse(JSON.stringify(v ?? null).replace(/<ref:([A-Za-z]+):([^>]+)>/g, (m, k: string, key: string) => ids.get(`${k}:${key}`) ?? m)) as T;
  const upload = (f: NonNullable<Extract<Step, { op: 'create' }>['file']>) => ({ fileName: f.fileName, bytes: readFileSync(f.path), contentType: f.contentType });
  for (const step of steps) {
    switch (step.op) {
      case 'upload': {
        const f = await client.autoReplies.uploadFile(brand, upload(step.file));
        if (step.produces) ids.set(step.produces, f.fileId);
        break;
      }
      case 'create': {
        const req = fill(step.request) as any;
        let id: string;
        if (step.kind === 'autoReply') id = (await client.autoReplies.create(brand, req)).autoReplyMsgId;
        else if (step.kind === 'logo') id = (await client.logos.create(brand, { ...req, file: upload(step.file!) })).fileId;
        else if (step.kind === 'agencyFile') id = (await client.agencyFiles.register(brand, { ...req, file: upload(step.file!) })).fileId;
        else throw new Error(`test helper cannot create ${step.kind}`);
        if (step.produces) ids.set(step.produces, id);
        break;
      }
      case 'update': {
        const req = fill(step.request) as any;
        if (step.kind === 'autoReply') await client.autoReplies.update(brand, step.liveId, req);
        else if (step.kind === 'logo') await client.logos.update(brand, step.liveId, { ...req, file: upload(step.file!) });
        else if (step.kind === 'chatbot') await client.chatbots.update(brand, step.liveId, req.chatbot);
        else throw new Error(`test helper cannot update ${step.kind}`);
        break;
      }
      case 'link': {
        const id = ids.get(`autoReply:${step.address.slice('autoReply.'.length)}`);
        if (id === undefined) throw new Error(`no id for ${step.address}`);
        await client.autoReplies.update(brand, id, fill(step.request) as any);
        break;
      }
      case 'menu-replace': {
        const items = (fill(step.request) as any)?.persistentMenu?.menu;
        if (step.method === 'POST') await client.menus.create(brand, step.chatbotId, items);
        else if (step.method === 'PUT') await client.menus.replace(brand, step.chatbotId, items);
        else await client.menus.delete(brand, step.chatbotId);
        break;
      }
      case 'delete':
        if (step.kind === 'autoReply') await client.autoReplies.delete(brand, step.liveId);
        else if (step.kind === 'logo') await client.logos.delete(brand, step.liveId);
        else throw new Error(`test helper cannot delete ${step.kind}`);
        break;
      default: {
        const never: never = step;
        throw new Error(`unknown step ${JSON.stringify(never)}`);
      }
    }
  }
}
