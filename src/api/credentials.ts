// Where the Bearer token comes from (docs/decisions.md, "Token issuance"): either a ready
// token, used as is, or a client id and secret exchanged at POST /api/1.1/token.
// An exchanged token is renewed shortly before its expiry and once after the
// service answers 61004; concurrent requests share one renewal, so a burst of
// 50 requests after expiry costs one /token call, not 50.

import type { TokenResponse } from '../contract/wire.js';
import type { Redaction } from '../util/redaction.js';

/** Credentials given to the client: a ready token, or a client id and secret. */
export type Credentials = { token: string } | { clientId: string; clientSecret: string };

/** Supplies the Bearer token for each request. */
export interface TokenSource {
  /** The token to send now; renews first when the current one is about to expire. */
  current(): Promise<string>;
  /**
   * The service said `used` has expired (61004). Returns true when a fresh token
   * can be had (the caller then retries once), false for a ready token.
   */
  expired(used: string): boolean;
}

/** Exchanges a client id and secret for a token (the transport's unauthenticated POST). */
export type TokenExchange = (clientId: string, clientSecret: string) => Promise<TokenResponse>;

/**
 * Renew this long before the announced expiry, so no request leaves with a
 * dying token; a short-lived token is renewed halfway through its life instead.
 */
const RENEW_BEFORE_MS = 60_000;

/** The token source for `credentials`; every secret it sees goes into `redactor`. */
export function createTokenSource(credentials: Credentials, exchange: TokenExchange, redactor: Redaction, now: () => number = Date.now): TokenSource {
  if ('token' in credentials) {
    const token = credentials.token;
    redactor.add([{ name: 'the token', value: token }]);
    return { current: () => Promise.resolve(token), expired: () => false };
  }
  const { clientId, clientSecret } = credentials;
  redactor.add([{ name: 'the client secret', value: clientSecret }]);
  let token: string | undefined;
  // undefined: expiry unknown (or already past by our clock when issued, i.e.
  // the clocks disagree); then we rely on 61004 alone.
  let renewAt: number | undefined;
  let inflight: Promise<string> | undefined;

  const renew = (): Promise<string> => {
    inflight ??= exchange(clientId, clientSecret)
      .then((res) => {
        redactor.add([{ name: 'an issued token', value: res.accessToken }]);
        token = res.accessToken;
        const issuedAt = now();
        const expiresAt = expiryMs(res.expiresIn, issuedAt);
        const lifetime = expiresAt === undefined ? 0 : expiresAt - issuedAt;
        renewAt = expiresAt !== undefined && lifetime > 0 ? expiresAt - Math.min(RENEW_BEFORE_MS, lifetime / 2) : undefined;
        return res.accessToken;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  return {
    current() {
      if (inflight !== undefined) return inflight;
      if (token === undefined || (renewAt !== undefined && now() >= renewAt)) return renew();
      return Promise.resolve(token);
    },
    expired(used) {
      // Only the first request to see the expiry drops the token; the others
      // find a renewal in flight (or done) and share it.
      if (token === used) token = undefined;
      return true;
    },
  };
}

/**
 * Expiry as epoch milliseconds. `expiresIn` is epoch seconds as a string
 * (docs/decisions.md, "Token issuance"); a small number is read as seconds from now, the
 * usual OAuth meaning, in case a deployment follows that instead.
 */
function expiryMs(expiresIn: string, nowMs: number): number | undefined {
  const n = Number(expiresIn);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  return n < 1e9 ? nowMs + n * 1000 : n * 1000;
}
