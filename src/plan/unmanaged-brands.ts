// Brands nobody declares (issue 38): the brands the account can see (its brand
// list, GET /corp/{personId}/brand) that no manifest of the repository
// declares. Deleting a brand's folder deletes nothing live; without this list
// its resources would stay live and unmonitored, and a plan would read clean.
// `plan` and `drift` of a whole repository report each one as a
// BRAND_UNMANAGED finding (docs/drift.md, "Brands nobody declares").

import type { RcsClient } from '../api/index.js';
import { finding, type Finding } from '../core/finding.js';
import { inShard, type Shard } from './shard.js';

/** A live brand of the account that no manifest declares. */
export interface UnmanagedBrand {
  brandId: string;
  /** The brand's name in the account's list (null when the list gives none). */
  name: string | null;
  /** The accounts whose brand list holds it. */
  accounts: string[];
  /** True when rcsctl's live cache on this machine holds the brand: it was planned before, so its folder was removed (or renamed). */
  declaredBefore: boolean;
  finding: Finding;
}

/** What to look for. */
export interface UnmanagedBrandsQuery {
  /** The accounts (personId) whose brand lists are read: RCSCTL_PERSON_ID and every `brandProfile.account` of the manifests. */
  accounts: string[];
  /** Every brand id the manifests declare (before any selection). */
  declared: readonly string[];
  /** Brands declared as deliberately unmanaged (`--unmanaged-brand`): never reported. */
  ignored: readonly string[];
  /** With `--shard`, only the brands of this shard (each unmanaged brand is named by exactly one shard). */
  shard?: Shard;
  /** Whether rcsctl's live cache holds the brand (it was planned on this machine before). */
  cached?: (brandId: string) => boolean;
  /** Filled with the name the lists give each declared brand: what people call it, for a brand whose manifests declare no profile. */
  names?: Map<string, string>;
}

/**
 * Read each account's brand list once and return the brands none of the
 * manifests declares, sorted by id. A list that cannot be read is an error for
 * the caller to report (the run's brands are planned all the same).
 */
export async function findUnmanagedBrands(client: RcsClient, q: UnmanagedBrandsQuery): Promise<UnmanagedBrand[]> {
  const declared = new Set(q.declared);
  const ignored = new Set(q.ignored);
  const found = new Map<string, { name: string | null; accounts: string[] }>();
  for (const account of [...new Set(q.accounts)].sort()) {
    for (const b of await client.brands.list(account)) {
      if (q.names !== undefined && declared.has(b.brandId) && b.name !== null && b.name !== '' && b.name !== b.brandId && !q.names.has(b.brandId)) q.names.set(b.brandId, b.name);
      if (declared.has(b.brandId) || ignored.has(b.brandId) || !inShard(b.brandId, q.shard)) continue;
      const seen = found.get(b.brandId) ?? { name: b.name, accounts: [] };
      seen.accounts.push(account);
      found.set(b.brandId, seen);
    }
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([brandId, { name, accounts }]) => {
      const declaredBefore = q.cached?.(brandId) === true;
      return { brandId, name, accounts, declaredBefore, finding: unmanagedBrandFinding(brandId, name, declaredBefore) };
    });
}

/**
 * The BRAND_UNMANAGED finding of a brand the base declares and the change no
 * longer does (`plan --compare-to`): its manifests were removed, nothing is
 * deleted, and `stays` says what it holds live (or why that is not known).
 */
export function removedBrandFinding(brandId: string, name: string | null, declaredAt: { file: string; line: number }, stays: string): Finding {
  const named = name !== null && name !== '' ? ` "${name}"` : '';
  return finding(
    'BRAND_UNMANAGED',
    'warning',
    `brand.${brandId}`,
    `brand ${brandId}${named} is declared by the base (${declaredAt.file}:${declaredAt.line}) and by no manifest of this change: its folder was removed, and nothing is deleted. Everything it holds stays live and unmonitored: ${stays}.`,
    `To delete what it holds, decommission it on purpose (docs/drift.md, "Brands nobody declares"); to leave it live on purpose, mark it with --unmanaged-brand ${brandId}; otherwise keep its folder.`,
  );
}

/** The BRAND_UNMANAGED finding of one brand. */
export function unmanagedBrandFinding(brandId: string, name: string | null, declaredBefore: boolean): Finding {
  const named = name !== null && name !== '' ? ` "${name}"` : '';
  const before = declaredBefore ? ' It was planned from this repository before (rcsctl\'s cache holds it): its folder was removed or renamed.' : '';
  return finding(
    'BRAND_UNMANAGED',
    'warning',
    `brand.${brandId}`,
    `brand ${brandId}${named} is live and the account can see it, but no manifest declares it: everything it holds stays live and unmonitored.${before}`,
    `Declare it (rcsctl export --brand ${brandId} writes its manifests), decommission it on purpose (docs/drift.md, "Brands nobody declares"), or mark it deliberately unmanaged with --unmanaged-brand ${brandId}.`,
  );
}
