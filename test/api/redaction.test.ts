// The token and the client secret appear nowhere: not on stdout or stderr, not
// in the RCSCTL_DEBUG=http trace, not in any error's message, stack, JSON or
// util.inspect form, not in an inspected connection. Each case is a failing run.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import type { CliIO, CommandContext, GlobalOptions } from '../../src/cli/context.js';
import { connect, type Connection } from '../../src/cli/connect.js';
import { main, renderError } from '../../src/cli/main.js';
import { BRAND, CLIENT_ID, collect, startTestEmulator, testSeed, type TestEmulator } from './helpers.js';
import { sendJson, startScriptedServer } from './scripted-server.js';
import { Redaction } from '../../src/util/redaction.js';

const BAD_TOKEN = 'tok-3f9a8b7c6d5e4f3a2b1c';
const SECRET = 'sec-9z8y7x6w5v4u';
const FILE_TOKEN = 'file-tok-1a2b3c4d5e6f';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  // The agency's real secret is SECRET here, so a right-secret run can issue tokens.
  const seed = testSeed();
  const accounts = seed.accounts as Record<string, unknown>[];
  (accounts[1] as Record<string, unknown>).clientSecret = SECRET;
  emu = await startTestEmulator(seed);
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-redact-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/** Everything a run printed or threw, as text. */
class Capture {
  out = '';
  err = '';
  texts: string[] = [];
  io(env: Record<string, string>): CliIO {
    const sink = (onWrite: (s: string) => void) =>
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          onWrite(chunk.toString());
          cb();
        },
      });
    return { stdout: sink((s) => (this.out += s)), stderr: sink((s) => (this.err += s)), env, cwd: dir };
  }
  /** Record an error in every form a person or a log could see it. */
  error(err: unknown, env: Record<string, string>): void {
    const e = err as Error;
    this.texts.push(String(e), e.message, e.stack ?? '', JSON.stringify(e), inspect(e, { depth: Infinity, showHidden: true }), renderError(e, env));
  }
  all(): string {
    return [this.out, this.err, ...this.texts].join('\n');
  }
}

function ctxFor(cap: Capture, env: Record<string, string>, globals: Partial<GlobalOptions>): CommandContext {
  return {
    io: cap.io(env),
    globals: () => ({ concurrency: 4, color: false, sandbox: false, insecureHttp: false, ...globals }),
    exit: () => undefined,
    redaction: new Redaction(),
  };
}

/** Connect, run `work` (expected to fail), and capture everything. */
async function failingRun(env: Record<string, string>, globals: Partial<GlobalOptions>, work: (c: Connection) => Promise<unknown>): Promise<Capture> {
  const cap = new Capture();
  const ctx = ctxFor(cap, env, globals);
  let conn: Connection | undefined;
  let failed = false;
  try {
    conn = await connect(ctx);
    await work(conn);
  } catch (err) {
    failed = true;
    cap.error(err, env);
    ctx.io.stderr.write(renderError(err, env) + '\n');
  } finally {
    if (conn !== undefined) {
      cap.texts.push(inspect(conn, { depth: 6, showHidden: true }), JSON.stringify({ stats: conn.client.stats, baseUrl: conn.baseUrl }));
      await conn.close();
    }
  }
  expect(failed).toBe(true);
  return cap;
}

function expectAbsent(text: string, ...secrets: string[]): void {
  for (const s of secrets) expect(text.includes(s), `"${s}" leaked`).toBe(false);
}

describe('redaction', () => {
  it('a bad RCSCTL_TOKEN appears nowhere', async () => {
    const env = { RCSCTL_TOKEN: BAD_TOKEN, RCSCTL_DEBUG: 'http' };
    const cap = await failingRun(env, { baseUrl: emu.url }, (c) => collect(c.client.autoReplies.list(BRAND)));
    expect(cap.err).toMatch(/rcsctl debug: http GET .* 401 /);
    expect(cap.err).toMatch(/Error: list auto-replies of BR\.demo000001 failed: 401 61003 Invalid token/);
    expectAbsent(cap.all(), BAD_TOKEN);
  });

  it('a wrong RCSCTL_CLIENT_SECRET appears nowhere', async () => {
    const wrong = 'wrong-sec-55aa66bb';
    const env = { RCSCTL_CLIENT_ID: CLIENT_ID, RCSCTL_CLIENT_SECRET: wrong, RCSCTL_DEBUG: 'http' };
    const cap = await failingRun(env, { baseUrl: emu.url }, (c) => c.client.chatbots.get(BRAND, '0212345678'));
    expect(cap.err).toMatch(/401 61006 Invalid secret key/);
    expectAbsent(cap.all(), wrong);
  });

  it('the right secret and every token issued for it appear nowhere, through renewal and failure', async () => {
    const env = { RCSCTL_CLIENT_ID: CLIENT_ID, RCSCTL_CLIENT_SECRET: SECRET, RCSCTL_DEBUG: 'http' };
    const cap = await failingRun(env, { baseUrl: emu.url }, async (c) => {
      await c.client.chatbots.get(BRAND, '0212345678');
      await emu.admin('POST', '/tokens/expire');
      await c.client.chatbots.get(BRAND, '0212345678');
      await emu.admin('POST', '/tokens/expire');
      await emu.admin('POST', '/faults', { seed: 1, rules: [{ path: '/token$', kind: 'error', status: 503, rate: 1 }] });
      try {
        await c.client.chatbots.get(BRAND, '0212345678');
      } finally {
        await emu.admin('DELETE', '/faults');
      }
    });
    const issued = [...emu.store.issuedTokens.keys()];
    expect(issued.length).toBeGreaterThanOrEqual(2);
    expect(cap.err).toMatch(/POST \/api\/1\.1\/token 503/);
    expectAbsent(cap.all(), SECRET, ...issued);
  });

  it('the content of --token-file appears nowhere', async () => {
    await writeFile(join(dir, 'token'), `${FILE_TOKEN}\n`);
    const env = { RCSCTL_DEBUG: 'http' };
    const cap = await failingRun(env, { baseUrl: emu.url, tokenFile: 'token' }, (c) => c.client.logos.get(BRAND, 'BLG-x'));
    expect(cap.err).toMatch(/61003/);
    expectAbsent(cap.all(), FILE_TOKEN);
  });

  it('a service that echoes the credential back in its error is redacted', async () => {
    const server = await startScriptedServer((req, res) =>
      sendJson(res, 401, { error: { code: '61003', message: `Invalid token: ${req.headers.authorization} / ${SECRET}` }, status: 401 }),
    );
    try {
      const env = { RCSCTL_TOKEN: BAD_TOKEN, RCSCTL_DEBUG: 'http' };
      const cap = await failingRun(env, { baseUrl: server.url }, (c) => c.client.chatbots.get(BRAND, '1'));
      expect(cap.err).toMatch(/Invalid token: Bearer \(sensitive\)/);
      expectAbsent(cap.all(), BAD_TOKEN);

      // Straight from the client (no CLI scrubbing): the secret it holds is redacted too.
      const direct = new Capture();
      const client = createClient({ baseUrl: emu.url, credentials: { clientId: CLIENT_ID, clientSecret: SECRET } });
      const echo = createClient({ baseUrl: server.url, credentials: { token: SECRET } });
      try {
        await echo.chatbots.get(BRAND, '1');
      } catch (err) {
        direct.error(err, {});
      }
      direct.texts.push(inspect(client, { depth: 6, showHidden: true }), JSON.stringify(client));
      await client.close();
      await echo.close();
      expect(direct.texts.length).toBeGreaterThan(2);
      expectAbsent(direct.all(), SECRET);
    } finally {
      await server.close();
    }
  });

  it('a failing `rcsctl plan` through main() prints no credential (bad token, then wrong secret)', async () => {
    // A minimal manifest: plan loads it, connects, and fails reading live state.
    await writeFile(join(dir, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND.id}, key: ${BRAND.key} }\n`);

    const badToken = new Capture();
    const env1 = { RCSCTL_TOKEN: BAD_TOKEN, RCSCTL_DEBUG: 'http' };
    expect(await main(['plan', '--base-url', emu.url, join(dir, 'brand.yaml')], badToken.io(env1))).toBe(1);
    expect(badToken.err).toMatch(/rcsctl debug: http GET \/api\/1\.1\/brand\/.* 401 /);
    // The text plan says the failed brand's error on stdout (once).
    expect(badToken.all()).toMatch(/error\[E_API\] .*401 61003 Invalid token/);
    expectAbsent(badToken.all(), BAD_TOKEN);

    const wrongSecret = new Capture();
    const wrong = 'wrong-sec-77cc88dd';
    const env2 = { RCSCTL_CLIENT_ID: CLIENT_ID, RCSCTL_CLIENT_SECRET: wrong, RCSCTL_DEBUG: 'http' };
    expect(await main(['plan', '--base-url', emu.url, join(dir, 'brand.yaml')], wrongSecret.io(env2))).toBe(1);
    expect(wrongSecret.all()).toMatch(/401 61006 Invalid secret key/);
    expectAbsent(wrongSecret.all(), wrong);
  });
});
