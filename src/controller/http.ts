// The controller's HTTP face: POST /webhook for the service's notifications
// (bearer token, source addresses, size, JSON, shape; answered before any
// work), GET /status and /status/BRANDID (JSON), / (the same table as HTML),
// /metrics (Prometheus), /healthz and /readyz. Nothing here reconciles: a
// notification becomes a call to `hooks.notified`.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { RcsctlError } from '../errors.js';
import type { LivenessReport } from './liveness.js';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import { parseNotifications, type Notification } from './notifications.js';
import { FORWARDED_HEADER } from './peers.js';
import { BRAND_PAGE_POLICY } from './brand-page.js';
import { PREVIEW_POLICY } from './page-parts.js';
import { renderStatusPage, STATUS_PAGE_POLICY } from './status-page.js';
import type { BrandStatus, ControllerStatus } from './status.js';

/** The largest webhook body accepted, in bytes, unless told otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** What the HTTP face asks of the controller. */
export interface HttpHooks {
  status(): ControllerStatus;
  brand(brandId: string): (BrandStatus & Record<string, unknown>) | undefined;
  /** A brand's page (/brands/BRANDID), or its preview (`preview`: the brand drawn whole; `changes`: its pending changes); undefined: no such brand here. */
  brandPage(brandId: string, part?: PagePart): string | undefined;
  /** Whether this replica can take webhooks (/readyz), and what it still lacks. */
  readiness(): { ready: boolean; reasons: string[] };
  /** Whether the work loop makes progress (/healthz). */
  liveness(): LivenessReport;
  /** `forwarded`: another replica passed these on (FORWARDED_HEADER, whose value is `via`); never forward them again. */
  notified(notifications: Notification[], forwarded: boolean, via?: string): void;
  /** A control request, authenticated: what to answer. */
  control(action: ControlAction, brandId: string, reason: string | undefined): { status: number; body: unknown };
}

/** What the control API can be asked. */
export const CONTROL_ACTIONS = ['sync', 'suspend', 'resume'] as const;

/** One of CONTROL_ACTIONS. */
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

/** The largest control request body (a suspension's reason). */
const MAX_CONTROL_BODY_BYTES = 4096;

/** How the webhook is guarded. */
export interface WebhookGuard {
  token: string;
  /** CIDRs (`10.0.0.0/8`, `::1/128`, a bare address) that may post; empty: any. */
  allowFrom: string[];
  maxBodyBytes: number;
  /** The bearer token the control API requires (never the webhook's); absent: the API is off. */
  apiToken?: string;
}

/** An address, then optionally `/` and a prefix length in plain decimal (no sign, no leading zero). */
const CIDR = /^([0-9A-Fa-f:.]+)(?:\/(0|[1-9][0-9]{0,2}))?$/;

/**
 * Parse `--allow-from` CIDRs into a list; throws E_USAGE naming the bad one.
 * Only well-formed prefixes are taken: `10.0.0.0/` is not `/0`, and a sign,
 * a second slash or a zone never reach node's BlockList (which asserts).
 */
export function allowList(cidrs: string[]): BlockList | undefined {
  if (cidrs.length === 0) return undefined;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const m = CIDR.exec(cidr.trim());
    const addr = m?.[1] ?? '';
    const type = isIP(addr);
    const max = type === 6 ? 128 : 32;
    const prefix = m?.[2] === undefined ? max : Number(m[2]);
    if (m === null || type === 0 || prefix > max) throw new RcsctlError('E_USAGE', `--allow-from must be an address or CIDR like 10.0.0.0/8 or ::1/128, not "${cidr}"`);
    list.addSubnet(addr, prefix, type === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** What a brand's page may be asked for besides the page itself. */
export type PagePart = 'preview' | 'changes';

/** What a request's target asks for: a route of ours, or a path no well-formed request has. */
export type Target = { path: string; brandId?: string; action?: ControlAction; part?: PagePart } | { malformed: string };

/**
 * Route on the raw request target, never a normalised one: `/webhook/../status`,
 * `/webhook/%2e%2e/status` and `//status` are malformed, not the status page
 * (URL parsing would resolve the dots and read `//status` as a host), and a
 * broken percent escape is the client's error, not ours.
 */
export function targetOf(raw: string): Target {
  const path = raw.split('?')[0] ?? '';
  if (!path.startsWith('/')) return { malformed: 'the path must start with /' };
  if (path === '/') return { path };
  const segments = path.slice(1).split('/');
  const decoded: string[] = [];
  for (const seg of segments) {
    let d: string;
    try {
      d = decodeURIComponent(seg);
    } catch {
      return { malformed: 'a broken percent escape' };
    }
    if (d === '' || d === '.' || d === '..') return { malformed: 'an empty or dot segment' };
    if (/[\/\\\u0000-\u001f\u007f]/.test(d)) return { malformed: 'an encoded slash or control character' };
    decoded.push(d);
  }
  if (decoded.length === 2 && decoded[0] === 'status' && segments[0] === 'status') return { path: '/status/', brandId: decoded[1] };
  const action = CONTROL_ACTIONS.find((a) => a === segments[2]);
  if (decoded.length === 3 && segments[0] === 'brands' && action !== undefined) return { path: '/brands/', brandId: decoded[1], action };
  // A brand's page, and its previews.
  if (segments[0] === 'brands' && decoded.length === 2) return { path: '/brands/', brandId: decoded[1] };
  if (segments[0] === 'brands' && decoded.length === 3 && (segments[2] === 'preview' || segments[2] === 'changes')) return { path: '/brands/', brandId: decoded[1], part: segments[2] };
  return { path };
}

/** The HTTP server (not yet listening). */
export function makeServer(hooks: HttpHooks, guard: WebhookGuard, metrics: ControllerMetrics, log: Log, redact: (text: string) => string = (text) => text): Server {
  // Every body served goes through the run's redaction, as every file and log line does.
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => sendJson(res, status, body, headers, redact);
  const allowed = allowList(guard.allowFrom);
  const tokenDigest = digest(guard.token);
  const control = controlApi(hooks, guard.apiToken, log, send);
  const server = createServer((req, res) => {
    res.on('finish', () => metrics.request(res.statusCode));
    void handle(req, res).catch((err: unknown) => {
      log('error', 'http.error', { path: req.url, message: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.end();
    });
  });
  // A slow or silent client never holds a socket for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = targetOf(req.url ?? '/');
    if ('malformed' in target) return send(res, 400, { error: `malformed path: ${target.malformed}` }, { connection: 'close' });
    const path = target.path;
    if (path === '/webhook') {
      if (req.method !== 'POST') return send(res, 405, { error: 'POST only' }, { allow: 'POST' });
      return webhook(req, res);
    }
    if (target.action !== undefined && target.brandId !== undefined) {
      if (req.method !== 'POST') return send(res, 405, { error: 'POST only' }, { allow: 'POST' });
      return control(req, res, target.action, target.brandId);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'GET only' }, { allow: 'GET' });
    if (path === '/healthz') {
      const live = hooks.liveness();
      return send(res, live.ok ? 200 : 503, live);
    }
    if (path === '/readyz') {
      const r = hooks.readiness();
      return send(res, r.ready ? 200 : 503, r);
    }
    if (path === '/metrics') {
      const text = await metrics.text();
      res.writeHead(200, { 'content-type': metrics.contentType });
      res.end(redact(text));
      return;
    }
    if (path === '/status') return send(res, 200, hooks.status());
    if (path === '/status/' && target.brandId !== undefined) {
      const brand = hooks.brand(target.brandId);
      return brand !== undefined ? send(res, 200, brand) : send(res, 404, { error: 'no such brand here' });
    }
    if (path === '/') return sendPage(res, renderStatusPage(hooks.status()), STATUS_PAGE_POLICY, redact);
    if (path === '/brands/' && target.brandId !== undefined) {
      const html = hooks.brandPage(target.brandId, target.part);
      if (html === undefined) return send(res, 404, { error: 'no such brand here' });
      return sendPage(res, html, target.part !== undefined ? PREVIEW_POLICY : BRAND_PAGE_POLICY, redact);
    }
    send(res, 404, { error: 'not found' });
  }

  async function webhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const from = clientAddress(req);
    // Refused requests queue nothing, and their bodies are never read.
    if (allowed !== undefined && !allowed.check(from, isIP(from) === 6 ? 'ipv6' : 'ipv4')) {
      log('warn', 'webhook.refused', { from, reason: 'source address outside --allow-from' });
      return send(res, 403, { error: 'source address not allowed' }, { connection: 'close' });
    }
    const auth = req.headers.authorization ?? '';
    const given = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    if (given === undefined || !timingSafeEqual(digest(given), tokenDigest)) {
      log('warn', 'webhook.refused', { from, reason: given === undefined ? 'no bearer token' : 'wrong bearer token' });
      return send(res, 401, { error: 'a valid bearer token is required' }, { 'www-authenticate': 'Bearer', connection: 'close' });
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return malformed(res, from, 415, `content type ${type === '' ? '(none)' : type}, not application/json`);
    const body = await readBody(req, guard.maxBodyBytes);
    if (body === 'too-large') return malformed(res, from, 413, `body over ${guard.maxBodyBytes} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return malformed(res, from, 400, 'body is not JSON');
    }
    const result = parseNotifications(parsed);
    if ('error' in result) return malformed(res, from, 400, result.error);
    // Answer first: the work happens later, on the queue.
    send(res, 200, { accepted: result.notifications.length });
    const via = req.headers[FORWARDED_HEADER];
    hooks.notified(result.notifications, via !== undefined, typeof via === 'string' ? via : undefined);
  }

  function malformed(res: ServerResponse, from: string, status: number, why: string): void {
    log('warn', 'webhook.malformed', { from, status, reason: why });
    send(res, status, { error: why }, { connection: 'close' });
  }

  return server;
}

/** The control API's handler: its own token (compared in constant time, never logged), then the controller's answer. */
function controlApi(hooks: HttpHooks, apiToken: string | undefined, log: Log, send: (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void) {
  const apiDigest = apiToken !== undefined ? digest(apiToken) : undefined;
  return async function control(req: IncomingMessage, res: ServerResponse, action: ControlAction, brandId: string): Promise<void> {
    const from = clientAddress(req);
    if (apiDigest === undefined) {
      log('warn', 'api.refused', { from, action, brand: brandId, reason: 'the control API is off (no API token)' });
      return send(res, 403, { error: 'the control API is off: start the controller with RCSCTL_CONTROLLER_TOKEN or --api-token-file' }, { connection: 'close' });
    }
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    if (given === undefined || !timingSafeEqual(digest(given), apiDigest)) {
      log('warn', 'api.refused', { from, action, brand: brandId, reason: given === undefined ? 'no bearer token' : 'wrong bearer token' });
      return send(res, 401, { error: 'a valid bearer token is required' }, { 'www-authenticate': 'Bearer', connection: 'close' });
    }
    let reason: string | undefined;
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type === 'application/json') {
      const body = await readBody(req, MAX_CONTROL_BODY_BYTES);
      if (body === 'too-large') return send(res, 413, { error: `body over ${MAX_CONTROL_BODY_BYTES} bytes` }, { connection: 'close' });
      let parsed: unknown;
      try {
        parsed = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
      } catch {
        return send(res, 400, { error: 'body is not JSON' }, { connection: 'close' });
      }
      const r = (parsed as { reason?: unknown } | null)?.reason;
      if (r !== undefined && typeof r !== 'string') return send(res, 400, { error: 'reason must be a string' }, { connection: 'close' });
      reason = r;
    } else req.resume();
    const answer = hooks.control(action, brandId, reason);
    send(res, answer.status, answer.body);
  };
}

/** A page for a person: HTML under its own policy, through the one redaction. */
function sendPage(res: ServerResponse, html: string, policy: string, redact: (text: string) => string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  res.end(redact(html));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The peer address, IPv4-mapped IPv6 as IPv4 (so `127.0.0.1/32` matches a dual-stack socket). */
function clientAddress(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > max) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>, redact: (text: string) => string): void {
  const text = redact(JSON.stringify(body, null, 2) + '\n');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}
