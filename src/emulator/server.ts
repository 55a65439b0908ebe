// The HTTP side of the emulator: plain node:http, routing, body capping,
// envelopes, faults, latency and the request log. Every request gets an answer
// (or a deliberate fault); nothing a client sends can crash the process.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS, formatMessage } from '../contract/codes.js';
import type { Exchange } from '../contract/check.js';
import { formatServiceTime } from '../util/time.js';
import { adminRoutes, type AdminState } from './admin.js';
import { FaultPlan, RateLimit } from './faults.js';
import { Messaging } from './messaging/index.js';
import type { Reply, RequestContext } from './http-types.js';
import { parseMultipart } from './multipart.js';
import { Router, type Route } from './router.js';
import { moduleAdminRoutes, serviceRoutes } from './routes/index.js';
import { EMULATOR_ERRORS, ServiceError, fail, onAgencyInterface } from './service-error.js';
import type { Seed } from './seed.js';
import type { EmulatorStore } from './store.js';

/** Largest request body accepted (*chosen*: above the 20 MB certificate limit). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** Past this many bytes an oversized body is no longer drained: the connection is destroyed. */
const MAX_DRAIN_BYTES = 4 * MAX_BODY_BYTES;
/** Request log entries kept (oldest dropped first). */
const MAX_LOG = 10_000;

/** Settings of one server. */
export interface ServerSettings {
  store: EmulatorStore;
  seed: Seed;
  latencyMs: number;
  log?: (line: string) => void;
  /** A client must send its request headers within this (default 10 s), or the connection is closed. */
  headersTimeoutMs?: number;
  /** A client must send its whole request within this (default 120 s), or the connection is closed. */
  requestTimeoutMs?: number;
  /** Service routes beyond the built-in ones. */
  routes?: Route[];
  /** Called with every service request and its answer (not admin calls, not faults that cut the connection). */
  onExchange?: (x: Exchange) => void;
  /** The rate-limit fault: requests a second per account (0 or absent: off). */
  rateLimit?: number;
}

/** Default header timeout (*chosen*): far above any real client on loopback, far below Node's 60 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Default whole-request timeout (*chosen*): a 25 MB body at 250 KB/s still fits. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** A server with its admin state. */
export interface EmulatorServer {
  server: Server;
  state: AdminState;
  /** Set once listening: `http://HOST:PORT`. */
  baseUrl: string;
  sockets: Set<Socket>;
  /** The agency messaging interface: sends, webhooks, user events. */
  messaging: Messaging;
}

/** Thrown while reading a body when the client went away: no answer is possible. */
class ClientGone extends Error {}

/** Create (but do not start) the emulator's HTTP server. */
// long: the server and its two inner steps (handle, run) share the routers, the admin state and the sockets; the steps are short functions of their own inside it.
export function createEmulatorServer(settings: ServerSettings): EmulatorServer {
  const messaging = new Messaging(settings.store);
  const state: AdminState = { store: settings.store, faults: new FaultPlan(), rateLimit: new RateLimit(settings.rateLimit ?? 0), log: [], seed: settings.seed, onReset: () => messaging.reset() };
  const service = new Router().add(...serviceRoutes(), ...messaging.routes(), ...(settings.routes ?? []));
  const admin = new Router().add(...adminRoutes(state), ...messaging.adminRoutes(), ...moduleAdminRoutes());
  const sockets = new Set<Socket>();
  const emu: EmulatorServer = { server: undefined as unknown as Server, state, baseUrl: '', sockets, messaging };

  const headersTimeout = settings.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(settings.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout);
  // Slow clients (a header a byte a minute) are closed: Node checks the
  // timeouts every connectionsCheckingInterval, so it is kept well below them.
  const serverOptions = { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))) };
  const server = createServer(serverOptions, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ClientGone) return;
      settings.log?.(`emulator: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (!res.headersSent && !res.destroyed) write(res, errorReply(new ServiceError(ERRORS.internal), false));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const status = timedOut ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });
  server.keepAliveTimeout = 5_000;
  emu.server = server;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const isAdmin = path === '/_emulator' || path.startsWith('/_emulator/');
    const agencyFamily = path.startsWith('/ag/');
    const ctx = makeContext(req, method, path, url.searchParams, emu, settings.store, !isAdmin);

    if (isAdmin) {
      if (!ctx.loopback) return write(res, errorReply(new ServiceError(EMULATOR_ERRORS.forbiddenAdmin), false));
      const reply = await run(admin, ctx, false);
      messaging.observe(ctx, reply);
      write(res, reply);
      return;
    }

    const entry = { method, path, status: 0, time: formatServiceTime(new Date(settings.store.now())) } as AdminState['log'][number];
    state.log.push(entry);
    // Trim in batches so a long run does not shift the array on every request.
    if (state.log.length > MAX_LOG + 1000) state.log.splice(0, state.log.length - MAX_LOG);

    const decision = state.faults.decide(method, path);
    const wait = state.rateLimit.take(accountOf(req.headers.authorization, settings.store));
    // Over the rate limit, nothing else happens to the request: it is refused before any handler.
    const fault = wait !== undefined ? { kind: 'rate-limit' as const, rate: 1, retryAfter: wait } : decision.fault;
    if (fault !== undefined) entry.fault = fault.kind;
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    let reply: Reply;
    if (fault?.kind === 'rate-limit') {
      reply = errorReply(new ServiceError(ERRORS.tooManyRequests, undefined, { 'retry-after': String(fault.retryAfter ?? 1) }), agencyFamily);
    } else if (fault?.kind === 'error') {
      const status = fault.status ?? 500;
      reply = errorReply(new ServiceError({ ...ERRORS.internal, http: status }), agencyFamily);
    } else {
      reply = await run(service, ctx, agencyFamily);
      messaging.observe(ctx, reply);
    }
    const delay = settings.latencyMs + decision.delayMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (fault?.kind === 'drop-after-commit') {
      // The handler ran and its change is committed; the answer never leaves.
      req.socket.destroy();
      return;
    }
    entry.status = reply.status;
    write(res, reply);
    // After the answer has gone: an observer never delays or changes it.
    if (settings.onExchange !== undefined && fault === undefined) {
      let requestBody: Buffer = Buffer.alloc(0);
      try {
        requestBody = await ctx.body();
      } catch {
        // An unreadable body was already answered; the exchange still has its answer.
      }
      settings.onExchange({ method, path, requestHeaders: req.headers, requestBody, status: reply.status, answer: reply.json });
    }
  }

  async function run(router: Router, ctx: RequestContext, agencyFamily: boolean): Promise<Reply> {
    const match = router.match(ctx.method, ctx.path);
    try {
      if (match.kind === 'not-found') throw new ServiceError(EMULATOR_ERRORS.notFound);
      if (match.kind === 'method-not-allowed') throw new ServiceError(EMULATOR_ERRORS.methodNotAllowed);
      ctx.params = match.params;
      return await match.handler(ctx);
    } catch (err) {
      if (err instanceof ClientGone) throw err;
      if (err instanceof ServiceError) {
        const reply = errorReply(err, agencyFamily);
        if (err.def === EMULATOR_ERRORS.bodyTooLarge) reply.headers = { ...reply.headers, connection: 'close' };
        return reply;
      }
      settings.log?.(`emulator: handler error on ${ctx.method} ${ctx.path}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      return errorReply(new ServiceError(ERRORS.internal), agencyFamily);
    }
  }

  return emu;
}

/** `typedJson`: a JSON body must be declared JSON (the service's routes; the admin API takes `curl -d` as it is). */
function makeContext(req: IncomingMessage, method: string, path: string, query: URLSearchParams, emu: EmulatorServer, store: EmulatorStore, typedJson: boolean): RequestContext {
  let bodyPromise: Promise<Buffer> | undefined;
  const body = () => (bodyPromise ??= readBody(req));
  const remote = req.socket.remoteAddress ?? '';
  return {
    method,
    path,
    params: {},
    query,
    headers: req.headers,
    baseUrl: emu.baseUrl,
    store,
    loopback: isLoopback(remote),
    body,
    json: async () => {
      const buf = await body();
      const text = buf.toString('utf8');
      if (text.trim() === '') fail('missingBody');
      // A JSON body must say it is JSON (docs/decisions.md, "A JSON body says it is JSON").
      if (typedJson && !isJsonType(req.headers['content-type'])) fail('invalidType', 'Content-Type: application/json');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        fail('invalidJson');
      }
    },
    multipart: async () => parseMultipart(req.headers, await body()),
    notices: [],
  };
}

/** Whether a Content-Type names JSON: application/json or a `+json` type, with any parameters. */
function isJsonType(contentType: string | undefined): boolean {
  return /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/**
 * Whose bucket a request takes from: the account behind its Bearer token, or
 * the token itself when it is unknown, or one shared bucket for requests
 * without one (the token call).
 */
function accountOf(authorization: string | undefined, store: EmulatorStore): string {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (token === undefined) return '(no token)';
  const account = store.seededTokens.get(token) ?? store.issuedTokens.get(token)?.userId;
  return account !== undefined ? `account ${account}` : `token ${token}`;
}

/** Whether a peer address is on the loopback interface (the admin API answers only those). */
export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');
}

/** Read the body up to MAX_BODY_BYTES; a larger one is drained (or cut off) and answered 413. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > MAX_DRAIN_BYTES) {
      req.socket.destroy();
      reject(new ClientGone());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = declared > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.socket.destroy();
        reject(new ClientGone());
        return;
      }
      if (size > MAX_BODY_BYTES) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) reject(new ServiceError(EMULATOR_ERRORS.bodyTooLarge, `body over ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks, size));
    });
    req.on('aborted', () => reject(new ClientGone()));
    req.on('error', () => reject(new ClientGone()));
  });
}

/** The error body: the management envelope, or `{code, message}` on the agency interface. */
function errorReply(err: ServiceError, agencyFamily: boolean): Reply {
  if (agencyFamily) {
    const { def, detail } = onAgencyInterface(err);
    return { status: def.http, json: { code: def.code, message: formatMessage(def, detail) }, headers: err.headers };
  }
  const json = { error: { code: err.def.code, message: formatMessage(err.def, err.detail) }, status: err.def.http };
  return { status: err.def.http, json, headers: err.headers };
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  const headers: Record<string, string | number> = { ...(reply.headers ?? {}) };
  let payload: Buffer | string = '';
  if (reply.bytes !== undefined) {
    payload = reply.bytes;
    headers['content-type'] = reply.contentType ?? 'application/octet-stream';
  } else if (reply.json !== undefined) {
    payload = JSON.stringify(reply.json);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (reply.status !== 204) headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(reply.status, headers);
  res.end(reply.status === 204 ? undefined : payload);
}
