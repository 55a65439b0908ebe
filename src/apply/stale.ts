// A saved plan is applied only while the live objects it touches are as they
// were: each is re-read (only those) and its fingerprint compared; objects the
// plan creates must still be absent. A stale plan is refused, naming each
// resource and how it changed.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { KindName, Step } from '../core/step.js';
import { KINDS, kindByName, tellsCreatedSince } from '../kinds/index.js';
import type { LiveBrand } from '../core/live.js';
import type { LiveContext, Reread } from '../kinds/resource-kind.js';
import { liveContext, snapshot } from '../plan/build-plan.js';
import { formatValue } from '../core/refs.js';
import { diffObjects } from '../plan/diff.js';
import type { BrandPlan } from '../plan/types.js';
import { hashValue } from '../util/stable-json.js';
import { mapLimit } from '../util/concurrency.js';

/** One resource that is not as the plan saw it. */
export interface StaleResource {
  address: string;
  how: string;
}

/** Re-read what `plan` touches and report every resource that changed. */
export async function findStale(client: RcsClient, brand: BrandRef, plan: BrandPlan, concurrency: number): Promise<StaleResource[]> {
  const stale: StaleResource[] = [];
  const touched = plan.steps.filter((s) => s.liveId !== undefined && plan.fingerprints[s.address] !== undefined);
  const unique = [...new Map(touched.map((s) => [s.address, s])).values()];
  await mapLimit(unique, concurrency, async (step) => {
    const current = await reread(client, brand, step.kind, step.liveId as string, step.readAs);
    const before = plan.snapshots[step.address];
    if (current === undefined) {
      stale.push({ address: step.address, how: `no longer exists (${step.liveId})` });
      return;
    }
    const now = snapshot(kindByName(step.kind), current.live, current.ctx);
    if (hashValue(now) === plan.fingerprints[step.address]) return;
    stale.push({ address: step.address, how: describeChange(before?.state ?? null, now.state, before?.value, now.value) });
  });
  stale.push(...(await createdSince(client, brand, plan.steps.filter((s) => s.op === 'create'))));
  return stale.sort((a, b) => a.address.localeCompare(b.address));
}

function describeChange(stateBefore: string | null, stateNow: string | null, before: unknown, now: unknown): string {
  const parts: string[] = [];
  if (stateBefore !== stateNow) parts.push(`state ${stateBefore ?? '(none)'} → ${stateNow ?? '(none)'}`);
  if (before !== undefined) {
    for (const c of diffObjects(before, now)) {
      parts.push(c.type === 'change' ? `${c.path} ${formatValue(c.before)} → ${formatValue(c.after)}` : c.type === 'add' ? `${c.path} added` : `${c.path} removed`);
    }
  }
  return parts.length > 0 ? parts.join('; ') : 'changed since the plan was made';
}

/** Objects the plan would create that exist now (made by someone else, or by an earlier run of this plan). */
async function createdSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<StaleResource[]> {
  const out: StaleResource[] = [];
  for (const kind of KINDS) {
    const mine = creates.filter((s) => s.kind === kind.name);
    if (mine.length === 0) continue;
    if (tellsCreatedSince(kind)) {
      out.push(...(await kind.createdSince(client, brand, mine)));
      continue;
    }
    // Identity is the key in the address (a chatbotId, a fileId): read it.
    for (const step of mine) {
      if ((await kind.read.reread(client, brand, step.address.slice(kind.name.length + 1))) !== undefined) out.push({ address: step.address, how: 'now exists' });
    }
  }
  return out;
}

/** Read one live object of `kind` by its live id (as the account its step recorded), with what normalising it needs; undefined when it is gone. */
export async function reread(client: RcsClient, brand: BrandRef, kind: KindName, id: string, readAs?: string): Promise<Reread<unknown> | undefined> {
  return kindByName(kind).read.reread(client, brand, id, readAs);
}

/** What normalising a live object needs when it was read alone: the names of the live objects the brand read holds. */
export function liveOnlyContext(live: LiveBrand): LiveContext {
  return liveContext(live);
}
