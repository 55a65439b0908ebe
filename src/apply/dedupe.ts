// The way out of a mess two runs at once can leave: live objects of one kind
// sharing a name the manifests manage. `apply --dedupe` keeps the oldest of
// each group and deletes the newer copies that are identical to it (same
// normalised content, same state); a copy that differs is left for a person,
// because rcsctl cannot know which one is meant.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { KindName } from '../core/step.js';
import { kindByName } from '../kinds/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import { brandRef } from '../plan/plan-brands.js';
import type { LiveBrand } from '../plan/types.js';
import { hashValue } from '../util/stable-json.js';
import { namedKinds, olderFirst } from './interference.js';
import { liveOnlyContext } from './stale.js';

/** A newer copy and whether it may be deleted. */
export interface DuplicateCopy {
  id: string;
  /** Same content and state as the one kept. */
  identical: boolean;
}

/** Live objects sharing one managed name. */
export interface DuplicateGroup {
  kind: KindName;
  name: string;
  /** The oldest: kept. */
  keep: string;
  copies: DuplicateCopy[];
}

/** Same-named live objects of the named kinds (auto-replies, logos) whose name the manifests manage. */
export function findDuplicates(desired: DesiredBrand, live: LiveBrand): DuplicateGroup[] {
  const ctx = liveOnlyContext(live);
  const groups: DuplicateGroup[] = [];
  for (const k of namedKinds()) {
    const managed = new Set(k.desired(desired).flatMap((d) => k.named.claimedName(d) ?? []));
    const byName = new Map<string, unknown[]>();
    for (const l of k.live(live)) {
      const name = k.named.listed(l).name;
      if (managed.has(name)) byName.set(name, [...(byName.get(name) ?? []), l]);
    }
    for (const [name, list] of byName) {
      if (list.length < 2) continue;
      const sorted = [...list].sort((a, b) => olderFirst(k.named.listed(a), k.named.listed(b)));
      const fingerprint = (l: unknown): string => hashValue({ state: k.liveState(l) ?? null, value: k.normaliseLive(l, ctx) });
      const first = fingerprint(sorted[0]);
      groups.push({ kind: k.name, name, keep: k.named.listed(sorted[0]).id, copies: sorted.slice(1).map((l) => ({ id: k.named.listed(l).id, identical: fingerprint(l) === first })) });
    }
  }
  return groups;
}

/** One line per copy: what --dedupe does with it. */
export function describeDuplicates(groups: DuplicateGroup[]): string[] {
  return groups.flatMap((g) =>
    g.copies.map((c) =>
      c.identical
        ? `- ${g.kind} "${g.name}" ${c.id}: delete (a newer identical copy of ${g.keep})`
        : `! ${g.kind} "${g.name}" ${c.id}: kept: it differs from ${g.keep}; pin the one the manifest manages with \`id:\` and delete the other yourself`,
    ),
  );
}

/** Delete every identical newer copy; returns the ids deleted (already gone counts as deleted). */
export async function deleteCopies(client: RcsClient, brand: BrandRef, groups: DuplicateGroup[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const g of groups) {
    const listing = kindByName(g.kind).named;
    if (listing === undefined) throw new Error(`kind "${g.kind}" is not identified by name`);
    for (const c of g.copies.filter((x) => x.identical)) {
      await listing.deleteCopy(client, brand, c.id, g.name);
      deleted.push(c.id);
    }
  }
  return deleted;
}

/** One brand's duplicates, as `apply --dedupe` shows them and deletes them. */
export interface BrandDuplicates {
  brandId: string;
  brand: BrandRef;
  groups: DuplicateGroup[];
  /** How many copies are identical to the one kept: what --dedupe deletes. */
  deletable: number;
}

/** The duplicates of every planned brand that has some, in the order given. */
export function duplicatesOf(plans: readonly { desired: DesiredBrand; live: LiveBrand }[]): BrandDuplicates[] {
  return plans.flatMap(({ desired, live }) => {
    const groups = findDuplicates(desired, live);
    if (groups.length === 0) return [];
    const deletable = groups.reduce((n, g) => n + g.copies.filter((c) => c.identical).length, 0);
    return [{ brandId: desired.brandId, brand: brandRef(desired), groups, deletable }];
  });
}

/** Delete the identical copies brand after brand; `onBrand` hears each brand's deleted ids as it is done. */
export async function deleteDuplicates(client: RcsClient, found: readonly BrandDuplicates[], onBrand: (brandId: string, deleted: string[]) => void): Promise<void> {
  for (const f of found) onBrand(f.brandId, await deleteCopies(client, f.brand, f.groups));
}
