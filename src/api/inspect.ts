// Read-only raw access to the service, for `rcsctl doctor`: GET requests and
// the token call, answered as status and body (service errors included) so
// that what the service said can be compared with what rcsctl assumes.

import type { Credentials } from './credentials.js';
import { RcsApiError } from './errors.js';
import { API_PREFIX } from './resource.js';
import type { BrandRef, Transport } from './transport.js';

/** A raw answer: HTTP status and parsed body, or the service error. */
export interface RawAnswer {
  status: number;
  body: unknown;
  error?: { httpStatus: number; code: string; message: string };
}

/** GETs and the token call; nothing that writes. */
export interface Inspector {
  get(path: string, opts?: { query?: Record<string, string | number>; brand?: BrandRef }): Promise<RawAnswer>;
  /** POST /api/1.1/token with the configured client id and secret; undefined when a ready token is configured. */
  issueToken(): Promise<RawAnswer> | undefined;
}

/** The inspector over `transport`. */
export function inspector(transport: Transport, credentials: Credentials): Inspector {
  return {
    async get(path, opts = {}) {
      try {
        const res = await transport.send({
          method: 'GET',
          path,
          ...(opts.query !== undefined ? { query: opts.query } : {}),
          ...(opts.brand !== undefined ? { brand: opts.brand } : {}),
          label: { operation: 'read', entity: path },
        });
        return { status: res.status, body: res.body };
      } catch (err) {
        return rawError(err);
      }
    },
    issueToken() {
      if (!('clientId' in credentials)) return undefined;
      const { clientId, clientSecret } = credentials;
      return transport
        .send({ method: 'POST', path: `${API_PREFIX}/token`, json: { clientId, clientSecret }, auth: false, idempotent: true, label: { operation: 'get an access token' } })
        .then((res) => ({ status: res.status, body: res.body }), rawError);
    },
  };
}

/** A service error as a raw answer; anything else (network, timeout) is thrown on. */
function rawError(err: unknown): RawAnswer {
  if (err instanceof RcsApiError) return { status: err.httpStatus, body: undefined, error: { httpStatus: err.httpStatus, code: err.serviceCode, message: err.serviceMessage } };
  throw err;
}
