// The way out of a mess two runs at once can leave: live objects of one kind
// sharing a name the manifests manage, linked to each other in any pattern
// (one copy with its reply links, another without). `apply --dedupe` keeps one
// copy of each name, chosen the same way on every run: first one a state
// keeps from being deleted, then the one the other live resources link to,
// then the one closest to the manifest, then the oldest. Every link to a
// deleted copy (another auto-reply's chip, a room's menu item, whatever a
// kind's `liveRefs` names) is re-pointed to the kept one through the kind's
// `relink`, and the other copies are deleted; the normal apply then makes the
// kept copy match the manifest.

import type { BrandRef, RcsClient } from '../api/index.js';
import { NO_GATE, placeholder, type KindName, type Step } from '../core/step.js';
import { KINDS, kindByName, isReferring, liveRefsOf } from '../kinds/index.js';
import type { AnyKind, PlanContext, StepSeed } from '../kinds/resource-kind.js';
import type { DesiredBrand } from '../manifest/types.js';
import { diffObjects } from '../plan/diff.js';
import { orderSteps } from '../plan/order.js';
import { brandRef } from '../plan/plan-brands.js';
import type { LiveBrand } from '../plan/types.js';
import { executePlan } from './execute.js';
import { namedKinds, olderFirst, type NamedKind } from './interference.js';
import { liveOnlyContext } from './stale.js';

/** A copy --dedupe deletes, unless something stops it. */
export interface DuplicateCopy {
  id: string;
  /** Why it stays: a state forbids the delete, or a link to it cannot be re-pointed. */
  kept?: string;
}

/** Live objects sharing one managed name. */
export interface DuplicateGroup {
  kind: KindName;
  name: string;
  /** The copy kept. */
  keep: string;
  /** Why that one: the first rule that told it from the next candidate. */
  why: string;
  copies: DuplicateCopy[];
}

/** Where the kept copy stands on each rule, in the order the rules apply. */
interface Standing {
  id: string;
  /** A state keeps it from being deleted (it would stay anyway). */
  undeletable: boolean;
  /** Live objects outside its group that link to it. */
  linkedFrom: number;
  /** Field differences from the manifest, links compared by the name they point at. */
  distance: number;
  listed: { registerDate: string; id: string };
}

/**
 * Same-named live objects of the named kinds whose name the manifests manage,
 * each with the copy to keep. Pure: the same live brand gives the same choice.
 */
export function findDuplicates(desired: DesiredBrand, live: LiveBrand): DuplicateGroup[] {
  const ctx = liveOnlyContext(live);
  const linkedFrom = referrers(live);
  const sameTarget = canonicalIds(desired, live);
  const planCtx: PlanContext = { brand: desired, live, ref: placeholder, ...ctx };
  const groups: DuplicateGroup[] = [];
  for (const k of namedKinds()) {
    const claimed = claimedNames(k, desired);
    const byName = new Map<string, unknown[]>();
    for (const l of k.live(live)) {
      const name = k.named.listed(l).name;
      if (claimed.has(name)) byName.set(name, [...(byName.get(name) ?? []), l]);
    }
    // By name, so the listing order the service chose changes nothing.
    for (const [name, list] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
      if (list.length < 2) continue;
      const ids = new Set(list.map((l) => k.identity.liveId(l)));
      const standings = list.map((l): Standing => {
        const id = k.identity.liveId(l);
        const want = k.diff.normaliseDesired(claimed.get(name), planCtx, l);
        return {
          id,
          undeletable: k.gates.delete(l).type === 'blocked',
          linkedFrom: [...(linkedFrom.get(`${k.name}:${id}`) ?? [])].filter((r) => !(r.kind === k.name && ids.has(r.id))).length,
          distance: diffObjects(replaceIds(k.diff.normaliseLive(l, ctx), sameTarget), want).length,
          listed: k.named.listed(l),
        };
      });
      const [keep, next] = [...standings].sort(keeperFirst);
      if (keep === undefined || next === undefined) continue;
      const copies = standings.filter((s) => s !== keep).sort((a, b) => olderFirst(a.listed, b.listed));
      groups.push({ kind: k.name, name, keep: keep.id, why: why(keep, next), copies: copies.map((c) => (c.undeletable ? { id: c.id, kept: 'a state keeps it from being deleted' } : { id: c.id })) });
    }
  }
  return groups;
}

/** The order of the rules: a copy no one may delete, linked to, closest to the manifest, oldest. */
function keeperFirst(a: Standing, b: Standing): number {
  return Number(b.undeletable) - Number(a.undeletable) || b.linkedFrom - a.linkedFrom || a.distance - b.distance || olderFirst(a.listed, b.listed);
}

function why(keep: Standing, next: Standing): string {
  if (keep.undeletable !== next.undeletable) return 'a state keeps it from being deleted';
  if (keep.linkedFrom !== next.linkedFrom) return `other resources link to it (${keep.linkedFrom}; ${next.id}: ${next.linkedFrom})`;
  if (keep.distance !== next.distance) return `closest to the manifest (${keep.distance} difference${keep.distance === 1 ? '' : 's'}; ${next.id}: ${next.distance})`;
  return 'the oldest';
}

/** Who links to what: `kind:id` of the target → the live objects (kind and id) whose `liveRefs` name it. */
function referrers(live: LiveBrand): Map<string, Set<{ kind: KindName; id: string }>> {
  const out = new Map<string, Set<{ kind: KindName; id: string }>>();
  for (const kind of KINDS) {
    for (const l of kind.live(live)) {
      const from = { kind: kind.name, id: kind.identity.liveId(l) };
      for (const token of new Set(liveRefsOf(kind, l))) out.set(token, (out.get(token) ?? new Set()).add(from));
    }
  }
  return out;
}

/**
 * Live id → the placeholder of the resource it is (`<ref:autoReply:b>`): each
 * object the manifests match, and every copy of a managed name. A live link
 * to any copy of B then reads as a link to B, as the manifest writes it.
 */
function canonicalIds(desired: DesiredBrand, live: LiveBrand): Map<string, string> {
  const out = new Map<string, string>();
  // Kinds without a reader share another kind's objects (menus are rooms): their ids are that kind's.
  for (const k of KINDS.filter((x) => x.read !== undefined)) {
    for (const [d, l] of k.diff.match(k.desired(desired), k.live(live), desired).pairs) out.set(k.identity.liveId(l), placeholder(k.name, k.identity.key(d)));
  }
  for (const k of namedKinds()) {
    const claimed = claimedNames(k, desired);
    for (const l of k.live(live)) {
      const d = claimed.get(k.named.listed(l).name);
      if (d !== undefined) out.set(k.identity.liveId(l), placeholder(k.name, k.identity.key(d)));
    }
  }
  return out;
}

/** The desired objects of a named kind by the name each claims (those pinned by id claim none). */
function claimedNames(k: NamedKind, desired: DesiredBrand): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const d of k.desired(desired)) {
    const name = k.named.claimedName(d);
    if (name !== undefined) out.set(name, d);
  }
  return out;
}

function replaceIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, ids));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIds(v, ids)]));
  return value;
}

/**
 * The steps that clear `groups`: each live object that links to a copy
 * (and is not one) written back pointing at the kept one, then each copy
 * deleted once nothing points at it. A copy something links to that its kind
 * cannot re-point is kept, and says why.
 */
export function dedupeSteps(live: LiveBrand, groups: DuplicateGroup[]): Step[] {
  const to = new Map<string, string>();
  for (const g of groups) for (const c of g.copies) if (c.kept === undefined) to.set(`${g.kind}:${c.id}`, g.keep);
  const relinks: Step[] = [];
  const liveRefs = new Map<string, string[]>();
  for (const kind of KINDS) {
    if (!isReferring(kind)) continue;
    for (const l of kind.live(live)) {
      const id = kind.identity.liveId(l);
      if (to.has(`${kind.name}:${id}`)) continue;
      const refs = kind.liveRefs(l).filter((t) => to.has(t));
      if (refs.length === 0) continue;
      const step = kind.relink(l, to, seedFor(kind, id, kind.identity.liveName(l), refs.map((t) => ({ path: 'link', type: 'change' as const, before: t.slice(t.indexOf(':') + 1), after: to.get(t) }))));
      if (step === undefined) {
        for (const t of refs) keepCopy(groups, t, `${kind.label} ${id} links to it, and rcsctl cannot re-point that link`);
        continue;
      }
      step.id = `${step.address}:${step.op}`;
      liveRefs.set(step.id, refs);
      relinks.push(step);
    }
  }
  const deletes: Step[] = groups.flatMap((g) => {
    const kind = kindByName(g.kind);
    return g.copies.filter((c) => c.kept === undefined).map((c): Step => ({ ...seedFor(kind, c.id, g.name, []), id: `${g.kind}.${c.id}:delete`, op: 'delete', liveId: c.id, gate: { type: 'destructive' } }));
  });
  return orderSteps([...relinks, ...deletes], { after: new Map(), liveRefs });
}

function keepCopy(groups: DuplicateGroup[], token: string, reason: string): void {
  for (const g of groups) for (const c of g.copies) if (`${g.kind}:${c.id}` === token) c.kept ??= reason;
}

function seedFor(kind: AnyKind, id: string, name: string, changes: Step['changes']): StepSeed {
  const address = `${kind.name}.${id}`;
  return { id: `${address}:relink`, kind: kind.name, address, name, gate: NO_GATE, changes, dependsOn: [], produces: `${kind.name}:${id}` };
}

/** One brand's duplicates, as `apply --dedupe` shows and clears them. */
export interface BrandDuplicates {
  brandId: string;
  brand: BrandRef;
  groups: DuplicateGroup[];
  /** Re-pointed links, then deletes, in run order. */
  steps: Step[];
  /** How many copies the steps delete. */
  deletable: number;
}

/** The duplicates of every planned brand that has some, in the order given. */
export function duplicatesOf(plans: readonly { desired: DesiredBrand; live: LiveBrand }[]): BrandDuplicates[] {
  return plans.flatMap(({ desired, live }) => {
    const groups = findDuplicates(desired, live);
    if (groups.length === 0) return [];
    const steps = dedupeSteps(live, groups);
    return [{ brandId: desired.brandId, brand: brandRef(desired), groups, steps, deletable: steps.filter((s) => s.op === 'delete').length }];
  });
}

/** One line per copy and per re-pointed link: what --dedupe does. */
export function describeDuplicates(found: BrandDuplicates): string[] {
  const lines = found.groups.flatMap((g) => [
    `= ${g.kind} "${g.name}" ${g.keep}: kept: ${g.why}`,
    ...g.copies.map((c) => (c.kept === undefined ? `- ${g.kind} "${g.name}" ${c.id}: delete (a copy of ${g.keep})` : `! ${g.kind} "${g.name}" ${c.id}: kept: ${c.kept}`)),
  ]);
  for (const s of found.steps) if (s.op !== 'delete') lines.push(`~ ${s.kind} "${s.name}" ${s.liveId ?? s.address}: re-point ${s.changes.map((c) => `${String(c.before)} → ${String(c.after)}`).join(', ')}`);
  return lines;
}

/** What clearing one brand did. */
export interface DedupeOutcome {
  deleted: string[];
  relinked: string[];
  /** One line per step that did not run or failed. */
  failed: string[];
}

/** Clear each brand's duplicates, brand after brand; `onBrand` hears each brand's outcome as it is done. */
export async function deleteDuplicates(client: RcsClient, found: readonly BrandDuplicates[], onBrand: (brandId: string, outcome: DedupeOutcome) => void): Promise<void> {
  for (const f of found) {
    const plan = { brandId: f.brandId, steps: f.steps, unmanaged: [], problems: [], fingerprints: {}, snapshots: {} };
    const { results } = await executePlan(plan, { client, brand: f.brand, concurrency: 4, allowDelete: true, allowReview: false, fromSavedPlan: false });
    const done = (op: 'delete' | 'relink'): string[] => results.filter((r) => r.status === 'done' && (r.step.op === 'delete') === (op === 'delete')).map((r) => r.step.liveId ?? r.step.address);
    onBrand(f.brandId, { deleted: done('delete'), relinked: done('relink'), failed: results.filter((r) => r.status !== 'done').map((r) => `${r.step.address}: ${r.message}`) });
  }
}
