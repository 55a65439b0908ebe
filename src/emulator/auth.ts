// Who is calling, and may they touch this brand (the service reference,
// Authentication; docs/decisions.md, "Token issuance").

import { fail } from './service-error.js';
import type { RequestContext } from './http-types.js';
import type { StoredAccount, StoredBrand } from './store.js';

/** The account behind the Bearer token: 61003 missing or invalid (the reference's Authentication), 61004 expired. */
export function authenticate(ctx: RequestContext): StoredAccount {
  // No header, another scheme or an unknown token: all one code.
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? '');
  if (m === null) fail('invalidToken');
  const token = m[1] as string;
  const store = ctx.store;
  let userId = store.seededTokens.get(token);
  if (userId === undefined) {
    const issued = store.issuedTokens.get(token);
    if (issued === undefined) fail('invalidToken');
    if (issued.expiresAt <= store.now()) fail('tokenExpired');
    userId = issued.userId;
  }
  const account = store.accounts.get(userId);
  if (account === undefined) fail('invalidToken');
  return account;
}

/**
 * The brand of a brand-scoped call: 403 63001 without a brand role (or for an
 * unknown brand); an agency must send X-RCS-Brandkey (64001), and a wrong key
 * from anyone is 64002.
 */
export function authorizeBrand(ctx: RequestContext, brandId: string): { account: StoredAccount; brand: StoredBrand } {
  const account = authenticate(ctx);
  const brand = ctx.store.brands.get(brandId);
  if (brand === undefined || !account.brands.has(brandId)) fail('noBrandPermission');
  const raw = ctx.headers['x-rcs-brandkey'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (account.role === 'agency') fail('missingBrandKey');
  } else if (key !== brand.brandKey) fail('invalidBrandKey');
  return { account, brand };
}

/** The layout component list is for the agency role only (documented failure 401 61003). */
export function requireAgency(ctx: RequestContext): StoredAccount {
  const account = authenticate(ctx);
  if (account.role !== 'agency') fail('invalidToken');
  return account;
}
