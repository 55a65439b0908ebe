import { deflateSync } from 'node:zlib';
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

/**
 * A whole PNG of the given size: signature, IHDR, one small IDAT and IEND,
 * each chunk with its CRC (validate and the emulator walk every chunk). The
 * IDAT does not decode to `width` x `height` pixels: nothing here decodes it,
 * and a real one of a large size would cost seconds to compress.
 */
export function png(width: number, height: number, filler = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.from([0, filler]))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A PNG chunk: length, type, data and CRC-32. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  let c = 0xffffffff;
  for (const byte of body) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return Buffer.concat([len, body, crc]);
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
