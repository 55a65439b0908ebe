// Brands a seed does not know yet, added for the manifests at hand: `--sandbox`
// and `rcsctl emulator --brands-from` seed every brand the manifests declare, so
// that your own brand works locally without writing a seed first.

import { createHash } from 'node:crypto';
import type { Seed, SeedAccount } from './seed.js';

/** A brand as a manifest declares it: its id and, when given, its key. */
export interface DeclaredBrand {
  brandId: string;
  brandKey?: string;
}

/** The user id of the master account added to a seed that has none with a token. */
export const SANDBOX_USER = 'rcsctl-sandbox';

/** A seed ready for a sandbox, and the token of the master account to use it with. */
export interface SandboxSeed {
  seed: Seed;
  token: string;
}

/**
 * `seed` plus every brand of `declared` it lacks, each with the manifest's key
 * (or one derived from the id), a representative role for the seed's first
 * master account with a token (one with `fallbackToken` is added when there is
 * none), and a place among the brands of the seed's first agency, when it has
 * one: the service notifies an agency of its brands' changes only, and a brand
 * of no agency left the controller deaf to it (issue 35). The seed passed in
 * is not changed.
 */
export function withDeclaredBrands(seed: Seed, declared: DeclaredBrand[], fallbackToken: string): SandboxSeed {
  const accounts: SeedAccount[] = seed.accounts.map((a) => ({ ...a, brands: [...(a.brands ?? [])] }));
  let master = accounts.find((a) => a.role === 'master' && a.token !== undefined);
  if (master === undefined) {
    master = { userId: SANDBOX_USER, role: 'master', token: fallbackToken, brands: [] };
    accounts.push(master);
  }
  const known = new Set(seed.brands.map((b) => b.brandId));
  const added = dedupe(declared).filter((d) => !known.has(d.brandId));
  const granted = new Set((master.brands ?? []).map((b) => b.brandId));
  for (const d of added) if (!granted.has(d.brandId)) master.brands?.push({ brandId: d.brandId, role: 'representative' });
  const agencies = (seed.messaging?.agencies ?? []).map((a, i) => (i === 0 ? { ...a, brands: [...new Set([...(a.brands ?? []), ...added.map((d) => d.brandId)])] } : a));
  return {
    seed: {
      ...seed,
      accounts,
      brands: [...seed.brands, ...added.map((d) => ({ brandId: d.brandId, brandKey: d.brandKey ?? derivedKey(d.brandId) }))],
      ...(seed.messaging !== undefined ? { messaging: { ...seed.messaging, agencies } } : {}),
    },
    token: master.token ?? fallbackToken,
  };
}

function dedupe(declared: DeclaredBrand[]): DeclaredBrand[] {
  const byId = new Map<string, DeclaredBrand>();
  for (const d of declared) if (!byId.has(d.brandId)) byId.set(d.brandId, d);
  return [...byId.values()];
}

/** An 18-character brand key, the same for the same brand id on every run. */
function derivedKey(brandId: string): string {
  return 'BK.' + createHash('sha256').update(brandId).digest('hex').slice(0, 15);
}
