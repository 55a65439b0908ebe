import { afterAll, beforeAll, beforeEach } from 'vitest';
// Shared helpers for the emulator tests: start one on port 0, call it over real
// HTTP with undici, build small images.

import { FormData, request } from 'undici';
import { startEmulator, type RunningEmulator, type Seed } from '../../src/emulator/index.js';
import { withContract } from '../contract-recorder.js';

export const BRAND = 'BR.demo000001';
export const BRAND_KEY = 'BK.demo0000000001';
export const MASTER = 'emulator-master-token';
export const AGENCY = 'emulator-agency-token';

/** A call's options. */
export interface CallOptions {
  token?: string | null;
  brandKey?: string;
  json?: unknown;
  raw?: string | Buffer;
  form?: FormData;
  headers?: Record<string, string>;
}

/** A call's answer. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/** Start an emulator (default seed unless one is given). */
export function start(seed?: string | Seed, latencyMs?: number): Promise<RunningEmulator> {
  // These tests send malformed requests on purpose: only the emulator's answers are checked against the contract.
  const { opts, adopt } = withContract({ ...(seed !== undefined ? { seed } : {}), ...(latencyMs !== undefined ? { latencyMs } : {}) }, { request: false, answer: true });
  return startEmulator(opts).then(adopt);
}

/**
 * One emulator for a test file, handed to `receive` once started, closed after
 * the file; with `reset`, put back to its seed before every test.
 */
export function useEmulator(receive: (emu: RunningEmulator) => void, opts: { seed?: string | Seed; reset?: boolean } = {}): void {
  let emu: RunningEmulator | undefined;
  beforeAll(async () => {
    emu = await start(opts.seed);
    receive(emu);
  });
  afterAll(async () => {
    await emu?.close();
  });
  if (opts.reset === true) {
    beforeEach(async () => {
      if (emu !== undefined) await admin(emu, 'POST', 'reset');
    });
  }
}

/** Call the emulator; `token` defaults to the master token (null: no header). */
export async function call(emu: RunningEmulator, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? MASTER : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (opts.brandKey !== undefined) headers['x-rcs-brandkey'] = opts.brandKey;
  let body: string | Buffer | FormData | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  } else if (opts.raw !== undefined) {
    body = opts.raw;
    headers['content-type'] ??= 'application/json';
  } else if (opts.form !== undefined) body = opts.form;
  const res = await request(emu.url + path, { method: method as 'GET', headers, body });
  const buf = Buffer.from(await res.body.arrayBuffer());
  const text = buf.toString('utf8');
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

/** Expect a management error envelope. */
export function errorOf(a: Answer): { status: number; code: string; message: string } {
  return { status: a.status, code: a.body?.error?.code, message: a.body?.error?.message };
}

/** A PNG header (signature + IHDR) of the given size: enough for image-size. */
export function png(width: number, height: number, filler = 0): Buffer {
  const b = Buffer.alloc(8 + 25 + 16);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  b[b.length - 1] = filler;
  return b;
}

/** A multipart form with a file part and text fields. */
export function form(fields: Record<string, string>, files: Record<string, { name: string; bytes: Buffer; type?: string }> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const [k, v] of Object.entries(files)) f.append(k, new Blob([v.bytes], { type: v.type ?? 'application/octet-stream' }), v.name);
  return f;
}

/** Admin call (no token). */
export function admin(emu: RunningEmulator, method: string, path: string, json?: unknown): Promise<Answer> {
  return call(emu, method, `/_emulator/${path}`, { token: null, ...(json !== undefined ? { json } : {}) });
}

/**
 * The order two calls answered in: `held` is sent, and only once the emulator
 * has logged its arrival at `path` is `next` sent. Order, not a stopwatch,
 * shows that `next` was held for less time than `held`, however slow the machine.
 */
export async function answerOrder(emu: RunningEmulator, held: () => Promise<unknown>, path: string, next: () => Promise<unknown>): Promise<Array<'held' | 'next'>> {
  const arrivals = async (): Promise<number> => ((await admin(emu, 'GET', 'requests')).body.requests as { path: string }[]).filter((r) => r.path === path).length;
  const before = await arrivals();
  const order: Array<'held' | 'next'> = [];
  const first = held().then(() => order.push('held'));
  while ((await arrivals()) === before) await new Promise((r) => setTimeout(r, 5));
  await next().then(() => order.push('next'));
  await first;
  return order;
}
