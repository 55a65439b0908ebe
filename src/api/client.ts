// The service client: one object with a module per resource family, built on
// one transport. Planner, applier, drift and export talk to the service only
// through this.

import { createTokenSource, type Credentials } from './credentials.js';
import { inspector, type Inspector } from './inspect.js';
import { buildModules, type ApiModules } from './modules.js';
import { unwrapped } from './envelope.js';
import { Redaction } from '../util/redaction.js';
import { results } from './envelope.js';
import type { HttpMethod } from './errors.js';
import { API_PREFIX, brandPath, listAll } from './resource.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import { arr, obj, opt, str, any } from './shape.js';
import { DEFAULT_MAX_CONCURRENCY } from './limiter.js';
import { createTransport, DEFAULT_TIMEOUTS, type AttemptEvent, type LimitStats, type Timeouts, type TransportStats } from './transport.js';
import type { TokenResponse } from '../contract/wire.js';

import type { BrandRef } from './transport.js';
export type { AttemptEvent, BrandRef, NetFailure } from './transport.js';
export type { Credentials } from './credentials.js';

/** Everything the client needs; only baseUrl and credentials are required. */
export interface ClientOptions {
  baseUrl: string;
  /** Agency messaging base URL; defaults to baseUrl. */
  agencyBaseUrl?: string;
  credentials: Credentials;
  /**
   * The one limit on requests in flight, every brand together: a number, or
   * `auto` (adaptive, src/api/limiter.ts) capped by `maxConcurrency`; default 8.
   */
  concurrency?: number | 'auto';
  /** The cap of `auto`; default 32. */
  maxConcurrency?: number;
  /** Processes sharing the account's rate limit, this one included (CI shards): `auto` starts and grows as one share of them; default 1. */
  peers?: number;
  /** Allow plain http:// to a non-loopback host. */
  insecureHttp?: boolean;
  timeouts?: Timeouts;
  retry?: RetryOptions;
  /** Trace sink for RCSCTL_DEBUG=http; lines arrive already redacted. */
  debug?: (line: string) => void;
  /** Trace sink for RCSCTL_DEBUG=limiter: the limiter's cuts and pauses, and a summary line when the client closes. */
  limiterDebug?: (line: string) => void;
  /** Told of every attempt (method, path, status or failure, attempt number): for metrics. `observe` adds more listeners later. */
  onAttempt?: (event: AttemptEvent) => void;
}

/** The client: one module per resource family (registered in src/api/modules.ts), and raw access. */
export interface RcsClient extends ApiModules {
  /**
   * A brand-scoped call to any management endpoint (`path` below the brand:
   * `/template/T1`), for a kind the client has no module for: the envelope's
   * `result` array. POSTs are sent once; other methods retry like every call.
   */
  call<T>(brand: BrandRef, req: { method: HttpMethod; path: string; json?: unknown; operation: string }): Promise<T[]>;
  /** Every item of a paginated management list below the brand (`/template`). */
  list<T>(brand: BrandRef, path: string, operation: string): AsyncIterable<T>;
  /** Read-only raw access (GETs and the token call) for `rcsctl doctor`. */
  inspect: Inspector;
  /** Requests sent and retries made so far (for benchmarks and tests). */
  readonly stats: Readonly<TransportStats>;
  /** 429 answers and the limit on requests in flight (for benchmarks and tests). */
  readonly limits: Readonly<LimitStats>;
  /** Be told of every attempt from now on (the controller's metrics); returns the call that stops it. */
  observe(listener: (event: AttemptEvent) => void): () => void;
  /** Close every connection. */
  close(): Promise<void>;
}

/** Default limit on requests in flight: --concurrency defaults to 8. */
export const DEFAULT_CONCURRENCY = 8;

// docs/decisions.md, "Token issuance": the /token answer, not enveloped.
const tokenResponse = obj({ accessToken: str, expiresIn: any, userId: opt(str), allowedIp: opt(arr(str)) });

/**
 * Build a client. Throws (before any request) when a base URL is malformed or
 * is plain http to a non-loopback host without `insecureHttp`.
 */
export function createClient(opts: ClientOptions): RcsClient {
  // The client's own secrets (src/util/redaction.ts): they live in its closures, never on an object it returns.
  const redactor = new Redaction();
  const listeners = new Set<(event: AttemptEvent) => void>(opts.onAttempt !== undefined ? [opts.onAttempt] : []);
  const transport = createTransport({
    baseUrl: opts.baseUrl,
    ...(opts.agencyBaseUrl !== undefined ? { agencyBaseUrl: opts.agencyBaseUrl } : {}),
    concurrency: opts.concurrency === 'auto' ? { mode: 'auto', max: opts.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY, ...(opts.peers !== undefined ? { peers: opts.peers } : {}) } : { mode: 'fixed', limit: opts.concurrency ?? DEFAULT_CONCURRENCY },
    insecureHttp: opts.insecureHttp ?? false,
    timeouts: { ...DEFAULT_TIMEOUTS, ...Object.fromEntries(Object.entries(opts.timeouts ?? {}).filter(([, v]) => v !== undefined)) },
    retry: retryPolicy(opts.retry),
    redactor,
    ...(opts.debug !== undefined ? { debug: opts.debug } : {}),
    ...(opts.limiterDebug !== undefined ? { limiterDebug: opts.limiterDebug } : {}),
    onAttempt: (event) => {
      for (const l of listeners) l(event);
    },
  });
  transport.setTokenSource(
    createTokenSource(
      opts.credentials,
      async (clientId, clientSecret) => {
        const label = { operation: 'get an access token' };
        const res = await transport.send({
          method: 'POST',
          path: `${API_PREFIX}/token`,
          json: { clientId, clientSecret },
          auth: false,
          // Issuing a token changes nothing worth protecting, so a lost answer is simply asked again.
          idempotent: true,
          label,
        });
        const body = unwrapped<TokenResponse>(res, tokenResponse, label);
        return { ...body, expiresIn: String(body.expiresIn) };
      },
      redactor,
    ),
  );
  return {
    ...buildModules(transport),
    async call<T>(brand: BrandRef, req: { method: HttpMethod; path: string; json?: unknown; operation: string }): Promise<T[]> {
      const label = { operation: req.operation };
      const res = await transport.send({ method: req.method, path: brandPath(brand, req.path), brand, label, ...(req.json !== undefined ? { json: req.json } : {}) });
      return results<T>(res, any, label);
    },
    list: <T>(brand: BrandRef, path: string, operation: string) => listAll<T>(transport, brandPath(brand, path), any, { operation }, brand),
    inspect: inspector(transport, opts.credentials),
    get stats() {
      return { ...transport.stats };
    },
    get limits() {
      return { ...transport.limits };
    },
    observe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => transport.close(),
  };
}
