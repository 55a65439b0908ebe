// The service emulator: a faithful, in-memory local copy of the service for
// demos, tests and dry runs.

import type { Exchange } from '../contract/check.js';
import { defaultSeedPath } from '../util/paths.js';
import { checkSeed, loadSeed, type Seed } from './seed.js';
import { storeFromSeed } from './seed-apply.js';
import { createEmulatorServer } from './server.js';
import type { EmulatorStore } from './store.js';
import type { Route } from './router.js';

// The seed loader and the store type, for callers that build or inspect emulators.
export { loadSeed, checkSeed };
export type { Seed };
export type { EmulatorStore };
// What an extra route is made of.
export type { Route } from './router.js';
export { ok, paged, type RequestContext, type Reply } from './http-types.js';
export { authorizeBrand } from './auth.js';

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Path to a seed YAML, or an already-parsed seed; default examples/emulator-seed.yaml. */
  seed?: string | Seed;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** Added to every service (non-admin) response. */
  latencyMs?: number;
  log?: (line: string) => void;
  /** Close a connection whose request headers have not all arrived after this long (default 10 s). */
  headersTimeoutMs?: number;
  /** Close a connection whose whole request has not arrived after this long (default 120 s). */
  requestTimeoutMs?: number;
  /** More service routes, for a kind the emulator does not serve (a test's own kind). */
  routes?: Route[];
  /** Called with every service request and its answer (the test suite checks them against the contract). */
  onExchange?: (x: Exchange) => void;
  /** The rate-limit fault: at most this many requests a second per account, 429 with Retry-After beyond (default 0: off). */
  rateLimit?: number;
}

/** A started emulator. */
export interface RunningEmulator {
  /** `http://127.0.0.1:PORT`; management API at url + '/api/1.1', agency at url + '/ag/1.2', admin at url + '/_emulator'. */
  url: string;
  port: number;
  /** Direct read access to the state, for tests (same data as GET /_emulator/store). */
  store: EmulatorStore;
  /** Close the server and every keep-alive socket promptly. */
  close(): Promise<void>;
}

/** Start an emulator and resolve once it listens. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = typeof opts.seed === 'object' ? checkSeed(opts.seed) : loadSeed(opts.seed ?? defaultSeedPath());
  const store = storeFromSeed(seed);
  const host = opts.host ?? '127.0.0.1';
  const emu = createEmulatorServer({
    store,
    seed,
    latencyMs: opts.latencyMs ?? 0,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.headersTimeoutMs !== undefined ? { headersTimeoutMs: opts.headersTimeoutMs } : {}),
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.routes ? { routes: opts.routes } : {}),
    ...(opts.onExchange ? { onExchange: opts.onExchange } : {}),
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    emu.server.once('error', reject);
    emu.server.listen(opts.port ?? 0, host, () => {
      emu.server.off('error', reject);
      resolve();
    });
  });
  const address = emu.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (opts.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  emu.baseUrl = url;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    store,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        emu.server.close(() => resolve());
        emu.server.closeAllConnections();
        for (const s of emu.sockets) s.destroy();
      }).then(() => emu.messaging.stop())),
  };
}
