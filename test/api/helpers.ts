// Shared fixtures for the client tests: an emulator on 127.0.0.1:0 with a small
// seed, its admin API, clients for each account, and tiny valid images.

import { deflateSync } from 'node:zlib';
import { startEmulator } from '../../src/emulator/index.js';
import { contractOf, withContract, type ContractRecorder } from '../contract-recorder.js';
import { createClient, type ClientOptions, type RcsClient } from '../../src/api/index.js';

/** The seeded brand and its key. */
export const BRAND = { id: 'BR.demo000001', key: 'BK.demo0000000001' };
/** A second brand that only the master account may touch. */
export const OTHER_BRAND = { id: 'BR.other00001', key: 'BK.other000000001' };
/** Seeded credentials. */
export const MASTER_TOKEN = 'emulator-master-token';
export const AGENCY_TOKEN = 'emulator-agency-token';
export const CLIENT_ID = 'emulator-agency';
export const CLIENT_SECRET = 'emulator-secret';
/** An account whose token is valid but holds no role on BRAND. */
export const STRANGER_TOKEN = 'emulator-stranger-token';

/** The test seed; `extra` is merged into the demo brand. */
export function testSeed(extra: Record<string, unknown> = {}, root: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accounts: [
      { userId: 'master01', role: 'master', token: MASTER_TOKEN, brands: [{ brandId: BRAND.id, role: 'representative' }, { brandId: OTHER_BRAND.id, role: 'representative' }] },
      {
        userId: 'agency01',
        role: 'agency',
        token: AGENCY_TOKEN,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        brands: [{ brandId: BRAND.id, role: 'operator' }],
      },
      { userId: 'stranger01', role: 'manager', token: STRANGER_TOKEN, brands: [] },
    ],
    brands: [
      {
        brandId: BRAND.id,
        brandKey: BRAND.key,
        chatbots: [
          { chatbotId: '0212345678', subTitle: 'Coffee Co', service: 'a2p', rcsReply: '1', display: '11', approvalResult: '승인' },
          { chatbotId: '0298765432', subTitle: 'Coffee Review', service: 'a2p', rcsReply: '1', approvalResult: '검수시작' },
          { chatbotId: '0211112222', subTitle: 'SMS only', service: 'a2p', rcsReply: '0', approvalResult: '승인' },
        ],
        ...extra,
      },
      { brandId: OTHER_BRAND.id, brandKey: OTHER_BRAND.key },
    ],
    ...root,
  };
}

/** A started emulator plus helpers for its admin API. */
export interface TestEmulator {
  url: string;
  /** Direct access to the emulator's state. */
  store: Awaited<ReturnType<typeof startEmulator>>['store'];
  /** Fails close() when a request or answer broke the contract; tests that break it on purpose clear it. */
  contract: ContractRecorder;
  close(): Promise<void>;
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Requests the emulator has seen (GET /_emulator/requests). */
  requests(): Promise<{ method: string; path: string; status?: number }[]>;
  /** A client on this emulator; defaults: master token, fast retries. */
  client(opts?: Partial<ClientOptions>): RcsClient;
}

/** Start an emulator for one test file. */
export async function startTestEmulator(seed: Record<string, unknown> = testSeed(), latencyMs?: number): Promise<TestEmulator> {
  const contract = withContract({ seed: seed as never, port: 0, ...(latencyMs !== undefined ? { latencyMs } : {}) });
  const emu = contract.adopt(await startEmulator(contract.opts));
  const clients: RcsClient[] = [];
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emu.url}/_emulator${path}`, {
      method,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  return {
    url: emu.url,
    store: emu.store,
    contract: contractOf(emu),
    admin,
    async requests() {
      const body = (await admin('GET', '/requests')) as unknown;
      const list = Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? []);
      return list as { method: string; path: string; status?: number }[];
    },
    client(opts = {}) {
      const c = createClient({
        baseUrl: emu.url,
        credentials: { token: MASTER_TOKEN },
        retry: { baseDelayMs: 5, maxDelayMs: 40, deadlineMs: 10_000 },
        ...opts,
      });
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
    },
  };
}

/** Collect an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A valid grey PNG of the given size. */
export function png(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An upload part for a PNG. */
export function pngFile(name: string, width = 300, height = 300): { fileName: string; bytes: Uint8Array; contentType: string } {
  return { fileName: name, bytes: png(width, height), contentType: 'image/png' };
}
