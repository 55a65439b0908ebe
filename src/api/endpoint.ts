// Base URLs: parsed once, checked for plain http to a non-loopback host before
// any request is sent, and split into the origin (one undici Pool each) and a
// path prefix (for a service mounted below the root).

import { RcsctlError } from '../errors.js';

/** A checked base URL. */
export interface Endpoint {
  /** `https://host:port`, the Pool key. */
  origin: string;
  /** Path prefix without trailing slash, `''` for the root. */
  prefix: string;
}

/** True for 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Parse `url` (named `what` in messages, e.g. `base URL`). Plain http is refused
 * unless the host is loopback or `insecureHttp` is set: the Bearer token would
 * otherwise cross the network in clear text.
 */
export function parseEndpoint(url: string, what: string, insecureHttp: boolean): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RcsctlError('E_CONFIG', `the ${what} "${url}" is not a valid URL (expected e.g. https://api.example.com)`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new RcsctlError('E_CONFIG', `the ${what} must not carry a user name or password; use RCSCTL_TOKEN or client credentials`);
  }
  if (parsed.protocol === 'http:') {
    if (!insecureHttp && !isLoopbackHost(parsed.hostname)) {
      throw new RcsctlError(
        'E_INSECURE_HTTP',
        `refusing plain http:// to ${parsed.host}: the access token would travel unencrypted; use https:// or pass --insecure-http`,
      );
    }
  } else if (parsed.protocol !== 'https:') {
    throw new RcsctlError('E_CONFIG', `the ${what} must start with https:// (or http:// for a loopback host), not ${parsed.protocol}//`);
  }
  return { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, '') };
}
