// The one way rcsctl talks to the service: an undici Pool per origin (keep-alive),
// one limiter on requests in flight (src/api/limiter.ts: fixed or adaptive,
// fair across brands), Bearer auth with one shared renewal after 61004,
// the brand key header, timeouts, retries for idempotent requests, and an
// `RCSCTL_DEBUG=http` trace that never shows a secret. Everything above this
// file deals in typed results and typed errors, never in sockets.
// The transport is an object with parts (HttpTransport: prepare, attempt,
// exchange, failedBelowHttp; interpret and encode beside it; Connections for
// the pools), each one step of a request; the file is over 400 lines because
// the request's types and those parts are read together.

import { setMaxListeners } from 'node:events';
import { Pool, type FormData } from './undici.js';
import { USER_AGENT } from '../version.js';
import { ERRORS } from '../contract/codes.js';
import { ApiTransportError, OutcomeUnknownError, RcsApiError, RequestAbortedError, ResponseShapeError, type HttpMethod, type OperationLabel, type RequestSite } from './errors.js';
import { requestSignal } from './abort-scope.js';
import { tallyAttempt } from './request-tally.js';
import { parseEndpoint, type Endpoint } from './endpoint.js';
import type { Redaction } from '../util/redaction.js';
import { RETRYABLE_STATUS, retryAfterMs, withRetries, type AttemptResult, type RetryPolicy } from './retry.js';
import type { TokenSource } from './credentials.js';
import { Limiter, type ConcurrencySetting, type Signal } from './limiter.js';

/** A brand and, for agency accounts, its key (sent as X-RCS-Brandkey). */
export interface BrandRef {
  id: string;
  key?: string;
}

/** Connect, response-headers and body timeouts in milliseconds. */
export interface Timeouts {
  connectMs?: number;
  headersMs?: number;
  bodyMs?: number;
}

/** Defaults, documented in docs/configuration.md. */
export const DEFAULT_TIMEOUTS: Required<Timeouts> = { connectMs: 10_000, headersMs: 30_000, bodyMs: 60_000 };

/** Which interface family a request goes to. */
export type ApiFamily = 'management' | 'agency';

/** One logical request; the transport may send it more than once when that is safe. */
export interface ApiRequest {
  method: HttpMethod;
  family?: ApiFamily;
  /** Path below the base URL, e.g. `/api/1.1/brand/BR.x/autoreplymsg`. */
  path: string;
  query?: Record<string, string | number>;
  /** Brand-scoped call: its key, if any, goes into X-RCS-Brandkey. */
  brand?: BrandRef;
  json?: unknown;
  /** Multipart body; a function because a retried request needs a fresh one. */
  form?: () => FormData;
  label?: OperationLabel;
  /** Send the Bearer token (default true; false for POST /token). */
  auth?: boolean;
  /** Safe to send again (default: every method but POST). */
  idempotent?: boolean;
  /**
   * Service codes that mean success when answered to a retry: the first attempt
   * probably took effect (64323 No changes for a PUT, an unknown id for a DELETE).
   */
  successAfterRetry?: readonly string[];
  /** Abort the request (in flight, waiting for a slot, or between retries); default: the calling context's (src/api/abort-scope.ts). */
  signal?: AbortSignal;
}

/** An answer the caller should interpret. */
export interface ApiResponse {
  status: number;
  /** Parsed JSON body; undefined for an empty body. */
  body: unknown;
  /** Set when a `successAfterRetry` code ended the request. */
  acceptedCode?: string;
  site: RequestSite;
}

/** Counters for benchmarks and tests. */
export interface TransportStats {
  /** Requests sent, every attempt counted. */
  requests: number;
  /** Attempts beyond the first, token renewals after 61004 included. */
  retries: number;
}

/** What the limiter did, for benchmarks and tests. */
export interface LimitStats {
  /** Answers 429 (rate limited). */
  rateLimited: number;
  /** The limit on requests in flight now, and the highest it reached. */
  concurrency: number;
  peakConcurrency: number;
  /** The pace a 429 set, requests a second; Infinity while there is none. */
  pace: number;
}

/** One attempt's outcome, as `onAttempt` is told: no header, body or secret. */
export interface AttemptEvent {
  method: HttpMethod;
  family: ApiFamily;
  /** The path below the base URL, without the query (`/api/1.1/brand/BR.x/autoreplymsg`). */
  path: string;
  /** The HTTP status, or how it failed below HTTP. */
  status: number | NetFailure;
  /** 1 for the first attempt; more for a retry. */
  attempt: number;
}

/** Transport settings (already defaulted by the client). */
export interface TransportOptions {
  baseUrl: string;
  agencyBaseUrl?: string;
  /** The one limit on requests in flight, for every brand together (a number: that fixed limit). */
  concurrency: ConcurrencySetting | number;
  insecureHttp: boolean;
  timeouts: Required<Timeouts>;
  retry: RetryPolicy;
  redactor: Redaction;
  debug?: (line: string) => void;
  /** Trace sink for RCSCTL_DEBUG=limiter: the limiter's decisions, and a summary when closed. */
  limiterDebug?: (line: string) => void;
  /** Told of every attempt once its answer (or failure) is known: for metrics. */
  onAttempt?: (event: AttemptEvent) => void;
}

/** The transport: send requests, count them, close the pools. */
export interface Transport {
  send(req: ApiRequest): Promise<ApiResponse>;
  setTokenSource(tokens: TokenSource): void;
  readonly stats: TransportStats;
  readonly limits: LimitStats;
  close(): Promise<void>;
}

/** How a request failed below HTTP. */
export type NetFailure = 'connect' | 'reset' | 'timeout' | 'unreachable';

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);
const UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function classify(err: unknown): { kind: NetFailure; reason: string } {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (NOT_SENT_CODES.has(code)) return { kind: 'connect', reason: code === 'ECONNREFUSED' ? 'connection refused' : 'connect timeout' };
  if (UNREACHABLE_CODES.has(code)) return { kind: 'unreachable', reason: `cannot reach the service (${code})` };
  if (TIMEOUT_CODES.has(code)) return { kind: 'timeout', reason: code === 'UND_ERR_BODY_TIMEOUT' ? 'body timeout' : 'response timeout' };
  return { kind: 'reset', reason: code === '' ? 'connection failed' : `connection reset (${code})` };
}

/** `host:port` of an origin, the port spelled out even when it is the scheme's default. */
function hostPort(origin: string): string {
  const u = new URL(origin);
  return `${u.hostname}:${u.port !== '' ? u.port : u.protocol === 'https:' ? '443' : '80'}`;
}

/** An error body of either family: `{error:{code,message}}` or `{code,message}`. */
function serviceError(body: unknown): { code: string; message: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const rec = body as Record<string, unknown>;
  const inner = typeof rec.error === 'object' && rec.error !== null ? (rec.error as Record<string, unknown>) : rec;
  if (typeof inner.code === 'string' || typeof inner.code === 'number') {
    return { code: String(inner.code), message: typeof inner.message === 'string' ? inner.message : '' };
  }
  return undefined;
}

/** What an answer other than 429 and 503 says about capacity: a gateway error says nothing either way. */
function signalOf(status: number): Signal {
  return status === 502 || status === 504 ? 'neutral' : 'healthy';
}

/** Read through a function: the signal may abort while a request is awaited. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function queryString(query: Record<string, string | number> | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) params.set(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

/** The parts of a request fixed across its attempts. */
interface Prepared {
  req: ApiRequest;
  origin: string;
  site: RequestSite;
  fullPath: string;
  idempotent: boolean;
  auth: boolean;
  /** One token renewal per request: a second 61004 means renewal does not help. */
  renewed: boolean;
  signal: AbortSignal | undefined;
}

/** What the wire said to one attempt: its status, Retry-After and body text. */
interface Answer {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
}

/** One undici Pool per origin (keep-alive), opened on first use, as many connections as the limiter lets run. */
class Connections {
  private readonly pools = new Map<string, Pool>();

  constructor(
    private readonly connections: number,
    private readonly timeouts: Required<Timeouts>,
  ) {}

  /** The pool of `origin`. */
  to(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.connections,
        connectTimeout: this.timeouts.connectMs,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
        keepAliveTimeout: 4_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }
}

/** Headers and body of one attempt (a multipart body is built afresh each time). */
function encode(req: ApiRequest, token: string | undefined): { headers: Record<string, string>; body: string | FormData | undefined } {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (req.brand?.key !== undefined) headers['x-rcs-brandkey'] = req.brand.key;
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    return { headers, body: JSON.stringify(req.json) };
  }
  return { headers, body: req.form?.() };
}

/** An answer's body as JSON: undefined when empty; text that is not JSON fails a success and is dropped from an error. */
function parseBody(p: Prepared, answer: Answer): unknown {
  if (answer.text.trim() === '') return undefined;
  try {
    return JSON.parse(answer.text);
  } catch {
    if (answer.status >= 200 && answer.status < 300) throw new ResponseShapeError(p.site, 'body', 'JSON', 'text that is not JSON', p.req.label);
    return undefined;
  }
}

/** What reading an answer needs of the transport besides the answer. */
interface Reading {
  redact(s: string): string;
  tokens: TokenSource | undefined;
  /** Whether any request has been answered with success yet (a 404 before that points at the base URL). */
  answered: boolean;
}

/** An HTTP answer as a result: success, a renewal, a retryable failure, or a thrown error. */
function interpret(p: Prepared, attempt: number, token: string | undefined, answer: Answer, reading: Reading): AttemptResult<ApiResponse> {
  const { req, site } = p;
  const { status } = answer;
  const parsed = parseBody(p, answer);
  if (status >= 200 && status < 300) {
    reading.answered = true;
    return { ok: { status, body: parsed, site } };
  }

  const svc = serviceError(parsed) ?? { code: '', message: reading.redact(answer.text.trim().slice(0, 200)) || `HTTP ${status}` };
  const message = reading.redact(svc.message);

  if (p.auth && svc.code === ERRORS.tokenExpired.code && !p.renewed && token !== undefined && reading.tokens?.expired(token) === true) {
    p.renewed = true;
    return { again: true };
  }
  if (attempt > 1 && svc.code !== '' && req.successAfterRetry?.includes(svc.code) === true) {
    return { ok: { status, body: parsed, site, acceptedCode: svc.code } };
  }
  const error = new RcsApiError(site, status, svc.code, message, req.label);
  if (!reading.answered) {
    error.nothingAnsweredBefore = true;
    error.basePath = site.path.slice(0, site.path.length - req.path.length);
  }
  if (!RETRYABLE_STATUS.has(status)) throw error;
  // 429 says the service did not act, so even a POST may try again; a
  // gateway error on a POST may hide a commit behind it.
  if (!p.idempotent && status !== 429) throw new OutcomeUnknownError(site, `${status} ${message}`, req.label);
  // Retry-After is honoured whenever it comes (429 above all, but a 503 may carry it too).
  const after = retryAfterMs(answer.retryAfter);
  return { retry: error, ...(after !== undefined ? { retryAfterMs: after } : {}), ...(status === 429 ? { limited: true } : {}) };
}

/**
 * The transport as an object with parts: `send` prepares a request and runs
 * its attempts through the retry policy (and an abort), `attempt` takes a
 * token and a limiter slot and sends once, `exchange` is the HTTP request
 * itself, `failedBelowHttp` and `interpret` say what came of it.
 */
class HttpTransport implements Transport {
  readonly stats: TransportStats;
  readonly limits: LimitStats;
  private readonly endpoints: Record<ApiFamily, Endpoint>;
  private readonly limiter: Limiter;
  private readonly connections: Connections;
  private readonly counts = { requests: 0, retries: 0, rateLimited: 0 };
  private readonly reading: Reading;

  constructor(private readonly opts: TransportOptions) {
    this.endpoints = {
      management: parseEndpoint(opts.baseUrl, 'base URL', opts.insecureHttp),
      agency: parseEndpoint(opts.agencyBaseUrl ?? opts.baseUrl, 'agency base URL', opts.insecureHttp),
    };
    const limiter = new Limiter(typeof opts.concurrency === 'number' ? { mode: 'fixed', limit: opts.concurrency } : opts.concurrency, Date.now, opts.limiterDebug);
    this.limiter = limiter;
    this.connections = new Connections(limiter.ceiling, opts.timeouts);
    this.reading = { redact: (s) => opts.redactor.text(s), tokens: undefined, answered: false };
    const counts = this.counts;
    this.stats = {
      get requests() {
        return counts.requests;
      },
      get retries() {
        return counts.retries;
      },
    };
    this.limits = {
      get rateLimited() {
        return counts.rateLimited;
      },
      get concurrency() {
        return limiter.stats.limit;
      },
      get peakConcurrency() {
        return limiter.stats.peak;
      },
      get pace() {
        return limiter.stats.rate;
      },
    };
  }

  setTokenSource(tokens: TokenSource): void {
    this.reading.tokens = tokens;
  }

  send(req: ApiRequest): Promise<ApiResponse> {
    const p = this.prepare(req);
    const signal = p.signal;
    if (signal?.aborted === true) return Promise.reject(new RequestAbortedError(p.site, req.label));
    const sent = withRetries(this.opts.retry, (attempt) => this.attempt(p, attempt), () => {
      this.counts.retries += 1;
    });
    if (signal === undefined) return sent;
    // A caller's signal may be shared by many requests in flight, each listening below: no leak.
    if (req.signal !== undefined) setMaxListeners(0, req.signal);
    // An abort also ends a wait between retries: the retry loop's next attempt then stops at once.
    sent.catch(() => undefined);
    return new Promise<ApiResponse>((resolve, reject) => {
      const onAbort = (): void => reject(new RequestAbortedError(p.site, req.label));
      signal.addEventListener('abort', onAbort, { once: true });
      sent.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async close(): Promise<void> {
    this.limiter.close();
    this.opts.limiterDebug?.(`${this.limiter.summary()}; ${this.counts.requests} requests, ${this.counts.rateLimited} answered 429`);
    await this.connections.close();
  }

  /** The parts of `req` fixed across its attempts. */
  private prepare(req: ApiRequest): Prepared {
    const endpoint = this.endpoints[req.family ?? 'management'];
    const site: RequestSite = { method: req.method, path: endpoint.prefix + req.path };
    return {
      req,
      origin: endpoint.origin,
      site,
      fullPath: site.path + queryString(req.query),
      idempotent: req.idempotent ?? req.method !== 'POST',
      auth: req.auth ?? true,
      renewed: false,
      signal: req.signal ?? requestSignal(),
    };
  }

  /** Send once and say what came of it; the retry policy decides about another attempt. */
  private async attempt(p: Prepared, attempt: number): Promise<AttemptResult<ApiResponse>> {
    let token: string | undefined;
    if (p.auth) {
      if (this.reading.tokens === undefined) throw new Error('rcsctl: transport used before its token source was set');
      token = await this.reading.tokens.current();
    }
    const { headers, body } = encode(p.req, token);

    // The slot is taken after the token: a renewal needs a slot of its own.
    const slot = await this.limiter.acquire(p.req.brand?.id ?? '');
    if (isAborted(p.signal)) {
      slot.release('neutral');
      throw new RequestAbortedError(p.site, p.req.label);
    }
    const t0 = Date.now();
    this.counts.requests += 1;
    let answer: Answer;
    try {
      answer = await this.exchange(p, headers, body);
    } catch (err) {
      slot.release('neutral');
      if (isAborted(p.signal)) throw new RequestAbortedError(p.site, p.req.label);
      return this.failedBelowHttp(p, attempt, err, t0);
    }
    const { status } = answer;
    this.trace(`http ${p.req.method} ${p.fullPath} ${status} ${Date.now() - t0}ms retry=${attempt - 1}`);
    this.observe(p, status, attempt);
    if (status === 429) this.counts.rateLimited += 1;
    const overloaded = status === 429 || status === 503;
    slot.release(status === 429 ? 'limited' : overloaded ? 'overloaded' : signalOf(status), overloaded ? retryAfterMs(answer.retryAfter) : undefined);
    return interpret(p, attempt, token, answer, this.reading);
  }

  /** The HTTP request itself, on the origin's pool, read to the end. */
  private async exchange(p: Prepared, headers: Record<string, string>, body: string | FormData | undefined): Promise<Answer> {
    const res = await this.connections.to(p.origin).request({
      method: p.req.method,
      path: p.fullPath,
      headers,
      body: body ?? null,
      headersTimeout: this.opts.timeouts.headersMs,
      bodyTimeout: this.opts.timeouts.bodyMs,
      ...(p.signal !== undefined ? { signal: p.signal } : {}),
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], text: await res.body.text() };
  }

  /** A failure below HTTP as a result: unreachable and unclear outcomes are thrown, the rest retried. */
  private failedBelowHttp(p: Prepared, attempt: number, err: unknown, t0: number): AttemptResult<ApiResponse> {
    const { req, site } = p;
    const { kind, reason: why } = classify(err);
    // Name where: "connection refused at 127.0.0.1:8080" says which setting to check.
    const reason = `${why} at ${hostPort(p.origin)}`;
    this.observe(p, kind, attempt);
    this.trace(`http ${req.method} ${p.fullPath} ${reason} ${Date.now() - t0}ms retry=${attempt - 1}`);
    if (kind === 'unreachable') throw new ApiTransportError(site, this.reading.redact(reason), attempt, req.label);
    // A request that never left (refused, connect timeout) is safe to send
    // again whatever its method; anything later may have reached the service.
    if (!p.idempotent && kind !== 'connect') throw new OutcomeUnknownError(site, reason, req.label);
    return { retry: new ApiTransportError(site, reason, attempt, req.label) };
  }

  private trace(line: string): void {
    if (this.opts.debug !== undefined) this.opts.debug(this.opts.redactor.text(line));
  }

  private observe(p: Prepared, status: number | NetFailure, attempt: number): void {
    tallyAttempt(status);
    this.opts.onAttempt?.({ method: p.req.method, family: p.req.family ?? 'management', path: p.req.path, status, attempt });
  }
}

/** Create the transport; throws before any request when a base URL is unsafe or malformed. */
export function createTransport(opts: TransportOptions): Transport {
  return new HttpTransport(opts);
}
