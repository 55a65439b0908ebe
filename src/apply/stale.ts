// A saved plan is applied only while the live objects it touches are as they
// were: each is re-read (only those) and its fingerprint compared; objects the
// plan creates must still be absent. A stale plan is refused, naming each
// resource and how it changed.

import { isServiceError, type BrandRef, type RcsClient } from '../api/index.js';
import { kindByName } from '../kinds/index.js';
import type { PlanContext } from '../kinds/kind.js';
import { placeholder } from '../kinds/kind.js';
import { emptyBrand } from '../manifest/build-brand.js';
import { snapshot } from '../plan/build-plan.js';
import { diffObjects, formatValue } from '../plan/diff.js';
import { readFiles } from '../plan/read-live.js';
import type { BrandPlan, KindName, LiveBrand, Step } from '../plan/types.js';
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
    const current = await reread(client, brand, step.kind, step.liveId as string);
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
  const names = (kind: KindName): Map<string, string> => new Map(creates.filter((s) => s.kind === kind).map((s) => [s.name, s.address]));
  const autoReplies = names('autoReply');
  if (autoReplies.size > 0) {
    for await (const item of client.autoReplies.list(brand)) {
      const address = autoReplies.get(item.autoReplyMsgName);
      if (address !== undefined) out.push({ address, how: `now exists (${item.autoReplyMsgId}); the plan would create a second "${item.autoReplyMsgName}"` });
    }
  }
  const logos = names('logo');
  if (logos.size > 0) {
    for await (const logo of client.logos.list(brand)) {
      const address = logos.get(logo.name);
      if (address !== undefined) out.push({ address, how: `now exists (${logo.fileId})` });
    }
  }
  for (const step of creates.filter((s) => s.kind === 'chatbot' || s.kind === 'agencyFile')) {
    const id = step.address.slice(step.kind.length + 1);
    const exists = step.kind === 'chatbot' ? (await reread(client, brand, 'chatbot', id)) !== undefined : (await client.agencyFiles.get(brand, id)) !== undefined;
    if (exists) out.push({ address: step.address, how: 'now exists' });
  }
  return out;
}

/** Read one live object of `kind` with what normalising it needs; undefined when it is gone. */
export async function reread(client: RcsClient, brand: BrandRef, kind: KindName, id: string): Promise<{ live: unknown; ctx: PlanContext } | undefined> {
  const gone = (code: string) => (err: unknown) => {
    if (isServiceError(err, code)) return undefined;
    throw err;
  };
  const live: LiveBrand = { brandId: brand.id, autoReplies: [], files: new Map(), logos: [], chatbots: [], agencyFiles: new Map() };
  let obj: unknown;
  switch (kind) {
    case 'autoReply': {
      const detail = await client.autoReplies.get(brand, id).catch(gone('64108'));
      if (detail !== undefined) live.files = await readFiles(client, brand, [detail], 4);
      obj = detail;
      break;
    }
    case 'logo':
      obj = await client.logos.get(brand, id).catch(gone('64109'));
      break;
    case 'chatbot':
    case 'persistentMenu':
      obj = await client.chatbots.get(brand, id).catch(gone('64105'));
      break;
    case 'agencyFile':
      obj = await client.agencyFiles.get(brand, id);
      break;
    case 'file':
      obj = await client.autoReplies.getFile(brand, id).catch(gone('64109'));
      break;
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
  if (obj === undefined) return undefined;
  return { live: obj, ctx: liveOnlyContext(live) };
}

/** A plan context for normalising live objects only (no manifest at hand). */
export function liveOnlyContext(live: LiveBrand): PlanContext {
  const brand = emptyBrand(live.brandId, { file: '', line: 0, col: 0, path: '' });
  return { brand, live, ref: placeholder, liveFileName: (fileId) => live.files.get(fileId)?.fileName };
}
