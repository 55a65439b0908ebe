// connect(): the CLI glue. Base URL and credentials from flags and environment,
// messages that name what to set, the token file, --sandbox, and the refusal of
// plain http to a non-loopback host before anything is sent.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createClient } from '../../src/api/index.js';
import type { CommandContext, GlobalOptions } from '../../src/cli/context.js';
import { connect } from '../../src/cli/connect.js';
import { RcsctlError } from '../../src/errors.js';
import { BRAND, CLIENT_ID, CLIENT_SECRET, collect, MASTER_TOKEN, rejection, startTestEmulator, testSeed, type TestEmulator } from './helpers.js';
import { Redaction } from '../../src/util/redaction.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-connect-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/** A context as main() builds it, with captured output. */
function context(globals: Partial<GlobalOptions>, env: Record<string, string> = {}): { ctx: CommandContext; err: () => string } {
  let stderr = '';
  const sink = (onWrite: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        onWrite(chunk.toString());
        cb();
      },
    });
  const ctx: CommandContext = {
    io: { stdout: sink(() => undefined), stderr: sink((s) => (stderr += s)), env, cwd: dir },
    globals: () => ({ concurrency: 4, color: false, sandbox: false, insecureHttp: false, ...globals }),
    exit: () => undefined,
    redaction: new Redaction(),
  };
  return { ctx, err: () => stderr };
}

async function configError(p: Promise<unknown>): Promise<string> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(RcsctlError);
  return (err as RcsctlError).message;
}

describe('connect', () => {
  it('says which flag or variable sets the address', async () => {
    expect(await configError(connect(context({}, { RCSCTL_TOKEN: MASTER_TOKEN }).ctx))).toBe(
      'no service address: set RCSCTL_BASE_URL or pass --base-url URL (or use --sandbox for a local emulator)',
    );
  });

  it('says which flags or variables set the credentials', async () => {
    expect(await configError(connect(context({ baseUrl: emu.url }).ctx))).toBe(
      'no credentials: set RCSCTL_TOKEN, or pass --token-file FILE, or set both RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET',
    );
    expect(await configError(connect(context({ baseUrl: emu.url }, { RCSCTL_CLIENT_ID: CLIENT_ID }).ctx))).toMatch(/^RCSCTL_CLIENT_ID is set but RCSCTL_CLIENT_SECRET is not/);
    expect(await configError(connect(context({ baseUrl: emu.url }, { RCSCTL_CLIENT_SECRET: CLIENT_SECRET }).ctx))).toMatch(/^RCSCTL_CLIENT_SECRET is set but RCSCTL_CLIENT_ID is not/);
  });

  it('uses RCSCTL_TOKEN', async () => {
    const conn = await connect(context({ baseUrl: emu.url }, { RCSCTL_TOKEN: MASTER_TOKEN }).ctx);
    try {
      expect(conn.baseUrl).toBe(emu.url);
      expect((await conn.client.chatbots.get(BRAND, '0212345678')).subTitle).toBe('Coffee Co');
    } finally {
      await conn.close();
    }
  });

  it('exchanges RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET', async () => {
    const conn = await connect(context({ baseUrl: emu.url }, { RCSCTL_CLIENT_ID: CLIENT_ID, RCSCTL_CLIENT_SECRET: CLIENT_SECRET }).ctx);
    try {
      expect(Array.isArray(await collect(conn.client.autoReplies.list(BRAND)))).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('reads and trims --token-file, which wins over RCSCTL_TOKEN', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `  ${MASTER_TOKEN}\n\n`);
    const conn = await connect(context({ baseUrl: emu.url, tokenFile: 'token' }, { RCSCTL_TOKEN: 'stale-token' }).ctx);
    try {
      expect((await conn.client.chatbots.get(BRAND, '0212345678')).chatbotId).toBe('0212345678');
    } finally {
      await conn.close();
    }
    expect(await configError(connect(context({ baseUrl: emu.url, tokenFile: 'missing-token' }).ctx))).toBe('cannot read --token-file missing-token (ENOENT)');
    await writeFile(join(dir, 'empty'), '\n');
    expect(await configError(connect(context({ baseUrl: emu.url, tokenFile: 'empty' }).ctx))).toMatch(/is empty/);
  });

  it('writes the RCSCTL_DEBUG=http trace to stderr', async () => {
    const { ctx, err } = context({ baseUrl: emu.url }, { RCSCTL_TOKEN: MASTER_TOKEN, RCSCTL_DEBUG: 'http' });
    const conn = await connect(ctx);
    try {
      await conn.client.chatbots.get(BRAND, '0212345678');
    } finally {
      await conn.close();
    }
    expect(err()).toMatch(/^rcsctl debug: http GET \/api\/1\.1\/brand\/BR\.demo000001\/chatbot\/0212345678 200 \d+ms retry=0\n$/);
  });

  it('writes the RCSCTL_DEBUG=limiter trace to stderr: each pace cut, and a summary when closed', async () => {
    const { ctx, err } = context({ baseUrl: emu.url, concurrencySetting: { mode: 'auto', max: 8 } }, { RCSCTL_TOKEN: MASTER_TOKEN, RCSCTL_DEBUG: 'limiter' });
    await emu.admin('POST', '/rate-limit', { perSecond: 5 });
    const conn = await connect(ctx);
    try {
      await Promise.all(Array.from({ length: 12 }, () => conn.client.chatbots.get(BRAND, '0212345678')));
    } finally {
      await conn.close();
      await emu.admin('POST', '/rate-limit', { perSecond: 0 });
    }
    const lines = err().trimEnd().split('\n');
    // No HTTP trace: only what was asked for.
    expect(lines.every((l) => l.startsWith('rcsctl debug: limiter: '))).toBe(true);
    expect(lines[0]).toMatch(/^rcsctl debug: limiter: 429 at \+\d+\.\d{3}s: pace \d+\.\d\/s \(accepted \d+\.\d\/s over \d+ answers\)$/);
    expect(lines.at(-1)).toMatch(/^rcsctl debug: limiter: auto \(cap 8\), limit \d+ \(peak \d+\), pace \d+\.\d\/s, [1-9]\d* pace cuts, 0 limit cuts, \d+ pauses; \d+ requests, [1-9]\d* answered 429$/);
  });

  it('starts an in-process emulator with --sandbox, seeded from --seed, with the master token', async () => {
    await writeFile(join(dir, 'seed.yaml'), stringify(testSeed()));
    const conn = await connect(context({ sandbox: true, seed: 'seed.yaml' }).ctx);
    try {
      expect(conn.sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(conn.baseUrl).toBe(conn.sandbox?.url);
      expect((await conn.client.chatbots.get(BRAND, '0212345678')).subTitle).toBe('Coffee Co');
    } finally {
      await conn.close();
    }
    const after = await rejection(fetch(`${conn.baseUrl}/api/1.1/token`));
    expect(after).toBeInstanceOf(Error);
  });
});

describe('plain http', () => {
  it('is refused to a non-loopback host before any request, naming the flag', async () => {
    for (const baseUrl of ['http://rcs.example.com', 'http://10.0.0.8:8080', 'http://127.example.com']) {
      let err: unknown;
      try {
        createClient({ baseUrl, credentials: { token: MASTER_TOKEN } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RcsctlError);
      expect((err as RcsctlError).code).toBe('E_INSECURE_HTTP');
      expect((err as Error).message).toMatch(/^refusing plain http:\/\/ to .+: the access token would travel unencrypted; use https:\/\/ or pass --insecure-http$/);
    }
    expect(() => createClient({ baseUrl: 'https://rcs.example.com', agencyBaseUrl: 'http://agency.example.com', credentials: { token: MASTER_TOKEN } })).toThrow(/--insecure-http/);
    expect(() => createClient({ baseUrl: 'ftp://rcs.example.com', credentials: { token: MASTER_TOKEN } })).toThrow(/must start with https:\/\//);
    expect(await configError(connect(context({ baseUrl: 'http://rcs.example.com' }, { RCSCTL_TOKEN: MASTER_TOKEN }).ctx))).toMatch(/--insecure-http/);
  });

  it('is allowed to loopback, and to anything with --insecure-http (no request is made here)', async () => {
    const client = createClient({ baseUrl: emu.url, credentials: { token: MASTER_TOKEN } });
    try {
      expect((await client.chatbots.get(BRAND, '0212345678')).chatbotId).toBe('0212345678');
    } finally {
      await client.close();
    }
    for (const baseUrl of ['http://localhost:1', 'http://[::1]:1', 'http://127.1.2.3:1']) {
      await createClient({ baseUrl, credentials: { token: MASTER_TOKEN } }).close();
    }
    await createClient({ baseUrl: 'http://rcs.example.com', credentials: { token: MASTER_TOKEN }, insecureHttp: true }).close();
    const conn = await connect(context({ baseUrl: 'http://rcs.example.com', insecureHttp: true }, { RCSCTL_TOKEN: MASTER_TOKEN }).ctx);
    await conn.close();
  });
});
