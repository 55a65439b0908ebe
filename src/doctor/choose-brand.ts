// Which brand `rcsctl doctor` looks at when --brand does not say: the one the
// manifests declare, else the one the account named by RCSCTL_PERSON_ID
// operates (GET /corp/{personId}/brand, a read like every other doctor call).

import { PERSON_ENV } from '../api/brands.js';
import type { Inspector } from '../api/inspect.js';
import type { BrandRef } from '../api/transport.js';
import { brandKeyFromEnv } from '../apply/apply-brands.js';
import { RcsctlError } from '../errors.js';

/** A brand the manifests declare, with its key when they give one. */
export interface DeclaredBrandRef {
  brandId: string;
  brandKey?: string;
}

/** At most this many ids are named in a message. */
const NAMED = 8;
const named = (ids: readonly string[]): string => (ids.length <= NAMED ? ids.join(', ') : `${ids.slice(0, NAMED).join(', ')}, … and ${ids.length - NAMED} more`);

const HOW = `pass --brand ID, run doctor on manifests that declare one brand (rcsctl doctor brands/acme), or set ${PERSON_ENV} to an account that operates one brand`;

/**
 * The brand `--brand` names (with the manifests' key for it, else the
 * environment's), or the one brand the manifests declare; undefined when they
 * declare none. Several brands and no `--brand` is refused: doctor checks one.
 */
export function brandFromManifests(flag: string | undefined, declared: readonly DeclaredBrandRef[], env: Record<string, string | undefined>): BrandRef | undefined {
  const ref = (b: DeclaredBrandRef): BrandRef => (b.brandKey !== undefined ? { id: b.brandId, key: b.brandKey } : brandKeyFromEnv(b.brandId, env));
  if (flag !== undefined) return ref(declared.find((b) => b.brandId === flag) ?? { brandId: flag });
  const [only, ...others] = declared;
  if (only === undefined) return undefined;
  if (others.length > 0) throw new RcsctlError('E_USAGE', `the manifests declare ${declared.length} brands (${named(declared.map((b) => b.brandId))}); doctor checks one: pick it with --brand ID`);
  return ref(only);
}

/**
 * The one brand the account named by RCSCTL_PERSON_ID operates. Refused, with
 * what to do, when the variable is unset, the account operates none or
 * several, or the service refuses the list (`hint` words its code).
 */
export async function brandOfAccount(inspect: Inspector, env: Record<string, string | undefined>, hint: (serviceCode: string) => string | undefined): Promise<BrandRef> {
  const personId = env[PERSON_ENV];
  if (personId === undefined || personId === '') throw new RcsctlError('E_USAGE', `doctor needs a brand: ${HOW}`);
  const a = await inspect.get(`/api/1.1/corp/${encodeURIComponent(personId)}/brand`, { query: { offset: 0, limit: 1000 } });
  if (a.error !== undefined) {
    const advice = hint(a.error.code);
    throw new RcsctlError('E_API', `listing the brands of ${PERSON_ENV}'s account failed: HTTP ${a.error.httpStatus} ${a.error.code} ${a.error.message}${advice !== undefined ? `\n  hint: ${advice}` : ''}`);
  }
  const result = (a.body as { result?: unknown } | undefined)?.result;
  const ids = (Array.isArray(result) ? result : []).flatMap((b) => (typeof (b as { brandId?: unknown }).brandId === 'string' ? [(b as { brandId: string }).brandId] : []));
  const [only, ...others] = ids;
  if (only === undefined) throw new RcsctlError('E_USAGE', `${PERSON_ENV}'s account operates no brand; ${HOW}`);
  if (others.length > 0) throw new RcsctlError('E_USAGE', `${PERSON_ENV}'s account operates ${ids.length} brands (${named(ids)}); doctor checks one: pick it with --brand ID`);
  return brandKeyFromEnv(only, env);
}
