// Auto-replies and the service: reading (the list, then details, from the live
// cache when the list item is unchanged), re-reading by id, and the
// apply handlers with their idempotency codes.

import type { BrandRef, RcsClient } from '../../api/index.js';
import type { AutoReplyDetail, AutoReplyListItem, AutoReplyRequest } from '../../contract/wire.js';
import { resolveRefs, tokenOf } from '../../core/refs.js';
import type { Step } from '../../core/step.js';
import { RcsctlError } from '../../errors.js';
import { collect, createOnce, gone, liveIdOf, requestOf, tolerate } from '../apply-helpers.js';
import { readFiles } from '../file/service.js';
import { isListedVersion } from '../cache-trust.js';
import type { DetailReader, Handler, KindListing, NamedListing, Reread } from '../resource-kind.js';
import { cacheCreated, cacheDetail, cachedDetail, retainDetails } from './cache.js';
import type { DesiredAutoReply } from './types.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked". */
export const AUTO_REPLY_CODES = { gone: ERRORS.invalidAutoReplyMsgId.code, noChange: ERRORS.noChanges.code } as const;

/** Reads every auto-reply: the list, and each detail as soon as its page is listed. */
export const autoReplyReader: DetailReader<AutoReplyListItem, AutoReplyDetail> = {
  items: (env) => env.client.autoReplies.list(env.brand),
  detail: async (env, item) => {
    // Only auto-replies are cached: a detail is served only for the very list item it was read with.
    const cached = env.cache === undefined ? undefined : cachedDetail(env.cache, env.brand.id, item);
    // The list is fresh: its fields win over a cached detail (they are equal when the cache serves it).
    if (cached !== undefined && isListedVersion(cached, cached.autoReplyMsgId, item, item.autoReplyMsgId)) return { ...cached, ...item };
    const detail = await env.client.autoReplies.get(env.brand, item.autoReplyMsgId);
    if (env.cache !== undefined) cacheDetail(env.cache, env.brand.id, detail);
    return detail;
  },
  section: (env, listed, details) => {
    // Entries of auto-replies deleted on the service go, so the cache does not grow forever.
    if (env.cache !== undefined) retainDetails(env.cache, env.brand.id, new Set(listed.map((a) => a.autoReplyMsgId)));
    return details;
  },
};

/** The auto-reply list, as verification reads it after apply (entries are not whole auto-replies). */
export const autoReplyList: KindListing<AutoReplyListItem> = {
  list: (client, brand) => collect(client.autoReplies.list(brand)),
  id: (a) => a.autoReplyMsgId,
  // Only when the creator was the last writer too: the entry is the create's own.
  remember: (cache, brandId, item, sent) => {
    if (item.updateId === item.registerId) cacheCreated(cache, brandId, item, sent as AutoReplyRequest);
  },
};

/** Auto-replies are found by name, which the service does not keep unique. */
export const autoReplyNamed: NamedListing<DesiredAutoReply, AutoReplyDetail, AutoReplyListItem> = {
  plural: 'auto-replies',
  list: autoReplyList.list,
  listed: (a: AutoReplyListItem) => ({ id: a.autoReplyMsgId, name: a.autoReplyMsgName, updateDate: a.updateDate, registerDate: a.registerDate }),
  claimedName: (d) => (d.id === undefined ? d.name : undefined),
};

/** One auto-reply again, with the files its media fields name. */
export async function rereadAutoReply(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<AutoReplyDetail> | undefined> {
  const detail = await client.autoReplies.get(brand, id).catch(gone(AUTO_REPLY_CODES.gone));
  if (detail === undefined) return undefined;
  const files = await readFiles(client, brand, [detail], 4);
  return { live: detail, ctx: { liveName: (kind, fileId) => (kind === 'file' ? files.get(fileId)?.fileName : undefined) } };
}

/** Auto-replies a saved plan would create that exist now, by name. */
export async function autoRepliesCreatedSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<{ address: string; how: string }[]> {
  const names = new Map(creates.map((s) => [s.name, s.address]));
  const out: { address: string; how: string }[] = [];
  for await (const item of client.autoReplies.list(brand)) {
    const address = names.get(item.autoReplyMsgName);
    if (address !== undefined) out.push({ address, how: `now exists (${item.autoReplyMsgId}); the plan would create a second "${item.autoReplyMsgName}"` });
  }
  return out;
}

/** The auto-reply handlers. */
export const autoReplyHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await env.absence?.assertAbsent('autoReply', req.autoReplyMsgName, step.address);
    return createOnce(
      () => env.client.autoReplies.create(env.brand, req).then((r) => r.autoReplyMsgId),
      async () => {
        // The plan saw no auto-reply with this name: one now is the one we made.
        const found: string[] = [];
        for await (const item of env.client.autoReplies.list(env.brand)) if (item.autoReplyMsgName === req.autoReplyMsgName) found.push(item.autoReplyMsgId);
        if (found.length > 1) throw new RcsctlError('E_APPLY_AMBIGUOUS', `after a lost answer, ${found.length} auto-replies are named "${req.autoReplyMsgName}" (${found.join(', ')}); pin the right one with \`id:\` and delete the other`);
        return found[0];
      },
    );
  },
  update: async (step, env) => {
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await tolerate(env.client.autoReplies.update(env.brand, liveIdOf(step), req), [AUTO_REPLY_CODES.noChange]);
    return {};
  },
  link: async (step, env) => {
    const id = env.ids.get(tokenOf(step));
    if (id === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `${step.address}: its create step produced no id`);
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await tolerate(env.client.autoReplies.update(env.brand, id, req), [AUTO_REPLY_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    await tolerate(env.client.autoReplies.delete(env.brand, liveIdOf(step), step.name), [AUTO_REPLY_CODES.gone]);
    return {};
  },
};
