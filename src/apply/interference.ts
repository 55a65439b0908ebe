// Another process at work on the same brand (a second CI job, a person in the
// console, another machine): the service has no lock, so rcsctl detects it.
// The lists of the kinds a run touched are compared before and after the run;
// anything that appeared, vanished or changed without one of this run's steps
// doing it, and any name now held twice, fails the verification (exit 1).
//
// The comparison is a pure function of two list snapshots, so a verification
// that already reads the lists can feed them in; `readKindLists` reads them
// when nothing else has.

import type { BrandRef, RcsClient } from '../api/index.js';
import { KINDS, kindByName, type AnyKind, isNamed, type Named } from '../kinds/index.js';
import type { ListedObject } from '../kinds/resource-kind.js';
import type { BrandPlan, KindName, LiveBrand } from '../plan/types.js';
import type { StepResult } from './execute.js';
import type { IdMap } from '../core/refs.js';
import { docsLink } from '../version.js';

export type { ListedObject };

/** The lists of some named kinds (those that declare `named`), by kind name, each by id. */
export type KindLists = Partial<Record<KindName, Map<string, ListedObject>>>;

/** One sign of another process. */
export interface Interference {
  kind: KindName;
  /** `duplicate`, `created`, `deleted` or `changed`. */
  what: 'duplicate' | 'created' | 'deleted' | 'changed';
  ids: string[];
  name: string;
  message: string;
}

/** A kind identified by a name the service does not keep unique, which a second process can duplicate. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type NamedKind = AnyKind & Named<any, any>;

/** The registered kinds that declare `named`, in registry order. */
export function namedKinds(): NamedKind[] {
  return KINDS.filter((k) => isNamed(k));
}

function named(kind: KindName): NamedKind['named'] {
  const k = kindByName(kind);
  if (!isNamed(k)) throw new Error(`kind "${kind}" is not identified by name`);
  return k.named;
}

/** The named kinds a plan has steps for: the lists verification reads. */
export function touchedKinds(plan: BrandPlan): KindName[] {
  return namedKinds()
    .filter((k) => plan.steps.some((s) => s.kind === k.name))
    .map((k) => k.name);
}

/** The lists as the plan read them (live objects carry the list fields). */
export function listsFromLive(live: LiveBrand, kinds: readonly KindName[]): KindLists {
  const out: KindLists = {};
  for (const name of kinds) {
    const kind = kindByName(name);
    out[name] = byId(kind.live(live).map((l) => named(name).listed(l)));
  }
  return out;
}

/** Lists already read (list entries by kind), in the form the comparison takes. */
export function kindListsFrom(items: ReadonlyMap<KindName, readonly unknown[]>, kinds: readonly KindName[]): KindLists {
  const out: KindLists = {};
  for (const name of kinds) {
    const list = items.get(name);
    if (list !== undefined) out[name] = byId(list.map((i) => named(name).listed(i)));
  }
  return out;
}

/** Read the lists of `kinds` from the service (one paged list read per kind). */
export async function readKindLists(client: RcsClient, brand: BrandRef, kinds: readonly KindName[]): Promise<KindLists> {
  const out: KindLists = {};
  for (const name of kinds) {
    const listing = named(name);
    out[name] = byId((await listing.list(client, brand)).map((i) => listing.listed(i)));
  }
  return out;
}

/**
 * Compare the lists before and after a run. What this run's steps created,
 * updated or deleted is expected to change; anything else is someone else's.
 */
export function findInterference(before: KindLists, after: KindLists, plan: BrandPlan, results: StepResult[], ids: IdMap): Interference[] {
  const out: Interference[] = [];
  const ours = new Set<string>([...ids.values()]);
  for (const r of results) if (r.step.liveId !== undefined) ours.add(r.step.liveId);
  for (const r of results) if (r.id !== undefined) ours.add(r.id);
  for (const { name: kind, label: one, named: { plural: many } } of namedKinds()) {
    const was = before[kind];
    const now = after[kind];
    if (was === undefined || now === undefined) continue;
    const label = { one, many };
    for (const [id, obj] of now) {
      const prior = was.get(id);
      if (prior === undefined && !ours.has(id)) {
        out.push({ kind, what: 'created', ids: [id], name: obj.name, message: `${label.one} "${obj.name}" (${id}) was created by someone else during this run` });
      } else if (prior !== undefined && !ours.has(id) && prior.updateDate !== obj.updateDate) {
        out.push({ kind, what: 'changed', ids: [id], name: obj.name, message: `${label.one} "${obj.name}" (${id}) was changed by someone else during this run (updated ${prior.updateDate} → ${obj.updateDate})` });
      }
    }
    for (const [id, obj] of was) {
      if (!now.has(id) && !ours.has(id)) out.push({ kind, what: 'deleted', ids: [id], name: obj.name, message: `${label.one} "${obj.name}" (${id}) was deleted by someone else during this run` });
    }
    for (const [name, group] of duplicateNames(now)) {
      // Duplicates that were there before the run are the plan's to report.
      if (group.every((o) => was.has(o.id))) continue;
      const listed = group.map((o) => o.id);
      out.push({
        kind,
        what: 'duplicate',
        ids: listed,
        name,
        message: `${group.length} ${label.many} are named "${name}" (${listed.join(', ')}); another run may have created one at the same time. Run \`rcsctl apply --dedupe --allow-delete\` to keep one, re-point links to it and delete the others (${docsLink('concurrency.md')})`,
      });
    }
  }
  return out;
}

/** Names held by more than one object, oldest object first in each group. */
export function duplicateNames(list: Map<string, ListedObject>): Map<string, ListedObject[]> {
  const byName = new Map<string, ListedObject[]>();
  for (const o of list.values()) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  return new Map([...byName].filter(([, g]) => g.length > 1).map(([n, g]) => [n, g.sort(olderFirst)]));
}

/** Oldest first: by registration time, then by id (the service hands out ids in order). */
export function olderFirst(a: { registerDate: string; id: string }, b: { registerDate: string; id: string }): number {
  return a.registerDate.localeCompare(b.registerDate) || a.id.localeCompare(b.id);
}

function byId(items: ListedObject[]): Map<string, ListedObject> {
  return new Map(items.map((i) => [i.id, i]));
}
