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
import type { BrandPlan, KindName, LiveBrand } from '../plan/types.js';
import type { StepResult } from './execute.js';
import type { IdMap } from '../core/refs.js';
import { docsLink } from '../version.js';

/** The kinds identified by name, which a second process can duplicate. */
export const NAMED_KINDS = ['autoReply', 'logo'] as const;
export type NamedKind = (typeof NAMED_KINDS)[number];

/** One object as a list shows it. */
export interface ListedObject {
  id: string;
  name: string;
  updateDate: string;
  registerDate: string;
}

/** The lists of some named kinds, by kind, each by id. */
export type KindLists = Partial<Record<NamedKind, Map<string, ListedObject>>>;

/** One sign of another process. */
export interface Interference {
  kind: NamedKind;
  /** `duplicate`, `created`, `deleted` or `changed`. */
  what: 'duplicate' | 'created' | 'deleted' | 'changed';
  ids: string[];
  name: string;
  message: string;
}

const LABEL: Record<NamedKind, { one: string; many: string }> = {
  autoReply: { one: 'auto-reply', many: 'auto-replies' },
  logo: { one: 'logo', many: 'logos' },
};

/** The named kinds a plan has steps for: the lists verification reads. */
export function touchedKinds(plan: BrandPlan): NamedKind[] {
  return NAMED_KINDS.filter((k) => plan.steps.some((s) => s.kind === k));
}

/** The lists as the plan read them (auto-reply details carry the list fields). */
export function listsFromLive(live: LiveBrand, kinds: readonly NamedKind[]): KindLists {
  const out: KindLists = {};
  if (kinds.includes('autoReply')) out.autoReply = byId(live.autoReplies.map((a) => ({ id: a.autoReplyMsgId, name: a.autoReplyMsgName, updateDate: a.updateDate, registerDate: a.registerDate })));
  if (kinds.includes('logo')) out.logo = byId(live.logos.map((l) => ({ id: l.fileId, name: l.name, updateDate: l.updateDate, registerDate: l.registerDate })));
  return out;
}

/** Read the lists of `kinds` from the service (one paged list read per kind). */
export async function readKindLists(client: RcsClient, brand: BrandRef, kinds: readonly NamedKind[]): Promise<KindLists> {
  const out: KindLists = {};
  if (kinds.includes('autoReply')) {
    const items: ListedObject[] = [];
    for await (const a of client.autoReplies.list(brand)) items.push({ id: a.autoReplyMsgId, name: a.autoReplyMsgName, updateDate: a.updateDate, registerDate: a.registerDate });
    out.autoReply = byId(items);
  }
  if (kinds.includes('logo')) {
    const items: ListedObject[] = [];
    for await (const l of client.logos.list(brand)) items.push({ id: l.fileId, name: l.name, updateDate: l.updateDate, registerDate: l.registerDate });
    out.logo = byId(items);
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
  for (const kind of NAMED_KINDS) {
    const was = before[kind];
    const now = after[kind];
    if (was === undefined || now === undefined) continue;
    const label = LABEL[kind];
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
        message: `${group.length} ${label.many} are named "${name}" (${listed.join(', ')}); another run may have created one at the same time. Run \`rcsctl apply --dedupe --allow-delete\` to delete the newer identical copies (${docsLink('concurrency.md')})`,
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
