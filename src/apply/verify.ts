// After the steps, the touched resources are checked against what the plan
// expected of them. Whatever still differs must be explained by a step that did
// not run (blocked, held, skipped or failed); anything else is a verification
// failure naming the resource and its fields.
//
// Verification costs less than a second read of the brand: the list of each
// touched kind is read once (exposed as `TouchedLists`, so other checks can use
// the same reads), and a detail is re-read only where the list cannot vouch
// for the object (docs/apply.md, Verify):
// - a delete is verified by the object's absence from the list;
// - an entry of a kind whose list entries are whole objects (`listing.complete`:
//   logos) is compared as it is;
// - an object of a named kind (auto-replies) created by this run is vouched for
//   by its list entry when it carries the id the create answered, the planned
//   name, and an updateDate equal to its registerDate: nothing has written to
//   it since the create, so it holds what the create sent. Given the live
//   cache, the kind may keep what was sent there under that entry
//   (`listing.remember`), so a no-op apply right after reads no detail;
// - everything else (updates, links, rooms and menus, agency files) is re-read.
// Which kinds have a list, and what it vouches for, the kinds declare
// (`listing`, `named`): nothing here names a kind.

import type { BrandRef, RcsClient } from '../api/index.js';
import { kindByName, isListed, isNamed, isPartlyManaged, isUploaded } from '../kinds/index.js';
import type { LiveCache } from '../kinds/live-cache.js';
import { diffObjects } from '../plan/diff.js';
import type { BrandPlan, FieldChange, KindName, Step } from '../plan/types.js';
import { mapLimit } from '../util/concurrency.js';
import type { StepResult } from './execute.js';
import { kindListsFrom, type KindLists } from './interference.js';
import { resolveRefs, tokenOf, type IdMap } from '../core/refs.js';
import { reread } from './stale.js';

/** A resource still out of line after apply, with no step to explain it. */
export interface Unconverged {
  address: string;
  changes: FieldChange[];
  message: string;
}

/** The list of every touched kind that has one (`listing`), by kind, read once after the run. */
export type TouchedLists = Map<KindName, unknown[]>;

/** What verification read, and how many details it had to re-read (for the benchmarks and tests). */
export interface VerifyReport {
  unconverged: Unconverged[];
  lists: TouchedLists;
  /** Resources verified from a list or an answer, without a detail read. */
  vouched: number;
  /** Resources re-read one by one. */
  reread: number;
}

/** A resource to check: the last step on its address, and the id it has now. */
interface Check {
  step: Step;
  id: string | undefined;
}

/** Which steps verification checks: the last step of every address whose steps all ran. */
export function stepsToVerify(plan: BrandPlan, results: StepResult[]): Step[] {
  const byAddress = new Map<string, { last: Step; allDone: boolean }>();
  plan.steps.forEach((step, i) => {
    const prev = byAddress.get(step.address);
    const done = results[i]?.status === 'done';
    byAddress.set(step.address, { last: step, allDone: (prev?.allDone ?? true) && done });
  });
  // A kind may opt out (an uploaded file is checked through the auto-replies that show it).
  return [...byAddress.values()].filter((e) => e.allDone && !isUploaded(kindByName(e.last.kind))).map((e) => e.last);
}

/** Read the list of each kind among `kinds` that has one (`listing`) once, concurrently. */
export async function readTouchedLists(client: RcsClient, brand: BrandRef, kinds: Iterable<KindName>): Promise<TouchedLists> {
  const listed = [...new Set(kinds)].flatMap((name) => {
    const kind = kindByName(name);
    return isListed(kind) ? [{ name, listing: kind.listing }] : [];
  });
  const read = await Promise.all(listed.map(async ({ name, listing }) => [name, await listing.list(client, brand)] as const));
  return new Map(read);
}

/** Check every resource whose steps all ran against the plan's expectation (reads `lists` when not given). */
export async function verifyApplied(
  client: RcsClient,
  brand: BrandRef,
  plan: BrandPlan,
  results: StepResult[],
  ids: IdMap,
  concurrency: number,
  given?: TouchedLists,
  /** Where the creates vouched for from their list entry are remembered (`listing.remember`). */
  cache?: LiveCache,
): Promise<VerifyReport> {
  const checks: Check[] = stepsToVerify(plan, results).map((step) => ({
    step,
    id: step.liveId ?? ids.get(tokenOf(step)),
  }));
  const lists = given ?? (await readTouchedLists(client, brand, new Set(checks.map((c) => c.step.kind))));
  // The entries of each list by id, for the kinds whose list was read.
  const entries = new Map<KindName, Map<string, unknown>>();
  for (const [name, items] of lists) {
    const kind = kindByName(name);
    if (isListed(kind)) entries.set(name, new Map(items.map((item) => [kind.listing.id(item), item])));
  }
  /** Whether the kind's list holds `id`; undefined when its list was not read. */
  const listed = (kind: KindName, id: string): boolean | undefined => entries.get(kind)?.has(id);

  const out: Unconverged[] = [];
  const toReread: Check[] = [];
  let vouched = 0;
  for (const check of checks) {
    const { step, id } = check;
    if (id === undefined) {
      out.push({ address: step.address, changes: [], message: `${step.address}: no id is known after apply, so it cannot be checked` });
      continue;
    }
    const inList = listed(step.kind, id);
    if (step.op === 'delete' && inList !== undefined) {
      if (inList) out.push(stillExists(step, id));
      vouched++;
      continue;
    }
    if (inList === false) {
      out.push(missing(step, id));
      vouched++;
      continue;
    }
    const kind = kindByName(step.kind);
    const entry = entries.get(step.kind)?.get(id);
    if (entry !== undefined && isListed(kind) && kind.listing.complete === true) {
      vouched++;
      // A complete entry names no other live object: its context has no names to give.
      const found = compare(step, entry, { liveName: () => undefined }, ids, id);
      if (found !== undefined) out.push(found);
      continue;
    }
    const shown = entry !== undefined && step.op === 'create' && isNamed(kind) ? kind.named.listed(entry) : undefined;
    if (shown !== undefined && shown.updateDate === shown.registerDate && shown.name === step.name) {
      vouched++;
      if (cache !== undefined && 'request' in step && isListed(kind)) kind.listing.remember?.(cache, brand.id, entry, resolveRefs(step.request, ids));
      continue;
    }
    toReread.push(check);
  }

  await mapLimit(toReread, concurrency, async ({ step, id }) => {
    const current = await reread(client, brand, step.kind, id as string, step.readAs);
    if (step.op === 'delete') {
      if (current !== undefined) out.push(stillExists(step, id as string));
      return;
    }
    if (current === undefined) {
      out.push(missing(step, id as string));
      return;
    }
    const found = compare(step, current.live, current.ctx, ids, id as string);
    if (found !== undefined) out.push(found);
  });
  return { unconverged: out.sort((a, b) => a.address.localeCompare(b.address)), lists, vouched, reread: toReread.length };
}

function compare(step: Step, live: unknown, ctx: Parameters<ReturnType<typeof kindByName>['diff']['normaliseLive']>[1], ids: IdMap, id: string): Unconverged | undefined {
  if (step.expected === undefined) return undefined;
  const kind = kindByName(step.kind);
  const expected = resolveRefs(step.expected, ids);
  let actual = kind.diff.normaliseLive(live, ctx);
  if (isPartlyManaged(kind)) actual = pick(actual, Object.keys(expected as object));
  const changes = diffObjects(actual, expected);
  if (changes.length === 0) return undefined;
  return { address: step.address, changes, message: `${step.address} (${id}) differs from the manifest after apply: ${changes.map((c) => c.path).join(', ')}` };
}

function stillExists(step: Step, id: string): Unconverged {
  return { address: step.address, changes: [], message: `${step.address} (${id}) still exists after its delete` };
}

function missing(step: Step, id: string): Unconverged {
  return { address: step.address, changes: [], message: `${step.address} (${id}) does not exist after apply` };
}

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}

/** The lists in the form the interference check compares (the named kinds', by id). */
export function kindListsOf(lists: TouchedLists, kinds: readonly KindName[]): KindLists {
  return kindListsFrom(lists, kinds);
}
