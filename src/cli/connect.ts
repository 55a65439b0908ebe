// The glue every command uses to reach the service: base URL, credentials and
// transport settings from the global flags and the environment, or an
// in-process emulator with --sandbox. Messages say exactly which variable or
// flag is missing; secrets read here go only into the client.

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunningEmulator } from '../emulator/index.js';
import { createClient, type ClientOptions, type Credentials, type RcsClient } from '../api/index.js';
import { RcsctlError } from '../errors.js';
import { defaultSeedPath } from '../util/paths.js';
import type { DeclaredBrand } from '../emulator/seed-brands.js';
import type { CommandContext } from './context.js';
import type { RequestCount } from '../core/requests.js';

export type { RunningEmulator };

/** A ready client, where it points, and the sandbox emulator if one was started. */
export interface Connection {
  client: RcsClient;
  baseUrl: string;
  sandbox?: RunningEmulator;
  /** How the client authenticates: a static token cannot be renewed, client credentials are. */
  credentialsKind: 'static-token' | 'client-credentials';
  /** The requests the client made so far, and how many were answered 429 (live counts). */
  requests: RequestCount;
  /** Close the client, then the sandbox. */
  close(): Promise<void>;
}

/** Master token of the example seed (examples/emulator-seed.yaml); used by --sandbox. */
export const SANDBOX_TOKEN = 'emulator-master-token';

/** True when RCSCTL_DEBUG (comma-separated) asks for the trace `what`, or for every trace (`all` or `*`). */
export function debugEnabled(env: Record<string, string | undefined>, what: 'http' | 'limiter'): boolean {
  const parts = (env.RCSCTL_DEBUG ?? '').split(',').map((s) => s.trim().toLowerCase());
  return parts.includes(what) || parts.includes('all') || parts.includes('*');
}


/** What a command knows before it connects. */
export interface ConnectOptions {
  /** The brands the manifests declare: `--sandbox` seeds each one its seed lacks. */
  declared?: DeclaredBrand[];
  /** Processes sharing the account's rate limit, this one included (`--shard i/n`: n): `--concurrency auto` ramps up as one share of them. */
  peers?: number;
}

/** Connect as the global flags and environment say; throws RcsctlError naming what to set. */
export async function connect(ctx: CommandContext, connectOpts: ConnectOptions = {}): Promise<Connection> {
  const g = ctx.globals();
  const env = ctx.io.env;

  let sandbox: RunningEmulator | undefined;
  let baseUrl: string;
  let agencyBaseUrl = g.agencyBaseUrl;
  let credentials: Credentials | undefined;
  if (g.sandbox) {
    const ignored = ambientSettings(ctx);
    if (ignored.length > 0) {
      ctx.io.stderr.write(`note: --sandbox ignores ${ignored.join(', ')}: it talks only to its in-process emulator, as that emulator's master account\n`);
    }
    const { startEmulator, loadSeed } = await import('../emulator/index.js');
    const { withDeclaredBrands } = await import('../emulator/seed-brands.js');
    const ready = withDeclaredBrands(loadSeed(g.seed !== undefined ? resolve(ctx.io.cwd, g.seed) : defaultSeedPath()), connectOpts.declared ?? [], SANDBOX_TOKEN);
    const emu = await startEmulator({ seed: ready.seed, port: 0 });
    sandbox = emu;
    baseUrl = emu.url;
    agencyBaseUrl = emu.url;
    credentials = { token: ready.token };
  } else {
    credentials = await credentialsFrom(ctx);
    if (g.baseUrl === undefined) {
      throw new RcsctlError('E_CONFIG', 'no service address: set RCSCTL_BASE_URL or pass --base-url URL (or use --sandbox for a local emulator)');
    }
    baseUrl = g.baseUrl;
    if (credentials === undefined) {
      throw new RcsctlError(
        'E_CONFIG',
        'no credentials: set RCSCTL_TOKEN, or pass --token-file FILE, or set both RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET',
      );
    }
  }

  const opts: ClientOptions = {
    baseUrl,
    credentials,
    concurrency: g.concurrencySetting?.mode === 'auto' ? 'auto' : g.concurrency,
    ...(g.concurrencySetting?.mode === 'auto' ? { maxConcurrency: g.concurrencySetting.max } : {}),
    ...(connectOpts.peers !== undefined ? { peers: connectOpts.peers } : {}),
    insecureHttp: g.insecureHttp,
  };
  if (agencyBaseUrl !== undefined) opts.agencyBaseUrl = agencyBaseUrl;
  if (debugEnabled(env, 'http')) {
    // Already redacted by the client; stderr redacts once more with everything the run knows.
    opts.debug = (line) => ctx.io.stderr.write(`rcsctl debug: ${line}\n`);
  }
  // Numbers and states only today; stderr redacts it as every writer is.
  if (debugEnabled(env, 'limiter')) opts.limiterDebug = (line) => ctx.io.stderr.write(`rcsctl debug: ${line}\n`);
  let client: RcsClient;
  try {
    client = createClient(opts);
  } catch (err) {
    await sandbox?.close();
    throw err;
  }
  const requests: RequestCount = { requests: 0, rateLimited: 0 };
  client.observe((e) => {
    requests.requests++;
    if (e.status === 429) requests.rateLimited++;
  });
  const conn: Connection = {
    client,
    baseUrl,
    requests,
    credentialsKind: 'token' in credentials ? 'static-token' : 'client-credentials',
    async close() {
      await client.close();
      await sandbox?.close();
    },
  };
  if (sandbox !== undefined) conn.sandbox = sandbox;
  return conn;
}

/** The service settings in the environment or flags that --sandbox does not use, by name (never by value). */
function ambientSettings(ctx: CommandContext): string[] {
  const g = ctx.globals();
  const env = ctx.io.env;
  const set = (name: string): boolean => (env[name] ?? '').trim() !== '';
  const names = ['RCSCTL_TOKEN', 'RCSCTL_CLIENT_ID', 'RCSCTL_CLIENT_SECRET'].filter(set);
  if (g.tokenFile !== undefined) names.push('--token-file');
  if (g.baseUrl !== undefined) names.push(set('RCSCTL_BASE_URL') ? 'RCSCTL_BASE_URL' : '--base-url');
  return names;
}

/**
 * Credentials in order of precedence: --token-file, RCSCTL_TOKEN, then
 * RCSCTL_CLIENT_ID with RCSCTL_CLIENT_SECRET. Undefined when none is given.
 */
async function credentialsFrom(ctx: CommandContext): Promise<Credentials | undefined> {
  const g = ctx.globals();
  const env = ctx.io.env;
  if (g.tokenFile !== undefined) {
    const path = resolve(ctx.io.cwd, g.tokenFile);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'unreadable';
      throw new RcsctlError('E_CONFIG', `cannot read --token-file ${g.tokenFile} (${code})`);
    }
    const token = text.trim();
    if (token === '') throw new RcsctlError('E_CONFIG', `--token-file ${g.tokenFile} is empty; it should hold the access token`);
    ctx.redaction.add([{ name: 'the --token-file content', value: token }]);
    return { token };
  }
  const token = env.RCSCTL_TOKEN?.trim();
  if (token !== undefined && token !== '') return { token };
  const clientId = env.RCSCTL_CLIENT_ID?.trim();
  const clientSecret = env.RCSCTL_CLIENT_SECRET?.trim();
  const hasId = clientId !== undefined && clientId !== '';
  const hasSecret = clientSecret !== undefined && clientSecret !== '';
  if (hasId && hasSecret) return { clientId, clientSecret };
  if (hasId) throw new RcsctlError('E_CONFIG', 'RCSCTL_CLIENT_ID is set but RCSCTL_CLIENT_SECRET is not: set both, or use RCSCTL_TOKEN instead');
  if (hasSecret) throw new RcsctlError('E_CONFIG', 'RCSCTL_CLIENT_SECRET is set but RCSCTL_CLIENT_ID is not: set both, or use RCSCTL_TOKEN instead');
  return undefined;
}
