// What a lock is keyed on: the service a base URL names, whatever its
// spelling. `http://127.0.0.1:8080`, `http://LOCALHOST:8080/` and
// `http://[::1]:8080//` are one service to the brands' data, so they must be
// one lock; two spellings taking two locks let two applies of one brand run
// side by side (issue 35).

import { isLoopbackHost } from '../api/endpoint.js';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * The normalised endpoint of `baseUrl`: `scheme://host:port/path` with the
 * scheme and host in lower case, every loopback name (localhost, 127.0.0.0/8,
 * ::1) as `loopback`, the port always written (80 and 443 by default), and the
 * path without repeated or trailing slashes; no user, query or fragment. A
 * text that is not a URL is kept as it is, trimmed (the client refuses it
 * before any lock is taken).
 */
export function lockEndpoint(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    return baseUrl.trim();
  }
  const scheme = u.protocol.toLowerCase();
  const host = isLoopbackHost(u.hostname) ? 'loopback' : u.hostname.toLowerCase();
  const port = u.port !== '' ? u.port : (DEFAULT_PORTS[scheme] ?? '');
  const path = u.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${scheme}//${host}${port !== '' ? `:${port}` : ''}${path}`;
}
