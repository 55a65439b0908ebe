// Read the live state of one brand: lists, then the details the planner needs,
// `concurrency` at a time over the client's keep-alive pool. The only part of
// planning that touches the network.

import { RcsApiError, type BrandRef, type RcsClient } from '../api/index.js';
import type { AgencyFileInfo, AutoReplyDetail, AutoReplyFile } from '../api/types.js';
import { MEDIA_FIELD } from '../kinds/auto-reply.js';
import { mediaFileId } from '../spec/media.js';
import { mapLimit } from '../util/concurrency.js';
import type { LiveCache } from './live-cache.js';
import type { LiveBrand } from './types.js';

/** How to read. */
export interface ReadLiveOptions {
  concurrency: number;
  /** Agency fileIds to look up (the service has no list of them). */
  agencyFileIds?: string[];
  /** Auto-reply file ids the manifests name directly in media fields: read too, so both sides compare by the same file. */
  fileIds?: string[];
  /** Details whose list `updateDate` is unchanged are taken from here. */
  cache?: LiveCache;
  /** Called as detail reads finish, for progress display. */
  onProgress?: (done: number, total: number) => void;
}

/** Read everything rcsctl manages in one brand. */
export async function readLive(client: RcsClient, brand: BrandRef, opts: ReadLiveOptions): Promise<LiveBrand> {
  const [arList, cbList, logos, agencyFiles] = await Promise.all([
    collect(client.autoReplies.list(brand)),
    collect(client.chatbots.list(brand)),
    collect(client.logos.list(brand)),
    readAgencyFiles(client, brand, opts.agencyFileIds ?? [], opts.concurrency),
  ]);

  const progress = counter(arList.length + cbList.length, opts.onProgress);
  const [autoReplies, chatbots] = await Promise.all([
    mapLimit(arList, opts.concurrency, async (item) => {
      // Only auto-replies are cached: their updateDate moves with every change.
      const cached = opts.cache?.get(brand.id, item.autoReplyMsgId, item.updateDate);
      // The list is fresh: its fields (the state among them) win over a cached detail.
      const detail = cached !== undefined ? { ...cached, ...item } : await client.autoReplies.get(brand, item.autoReplyMsgId);
      if (cached === undefined) opts.cache?.set(brand.id, detail);
      progress();
      return detail;
    }),
    mapLimit(cbList, opts.concurrency, async (item) => {
      const detail = await client.chatbots.get(brand, item.chatbotId);
      progress();
      return detail;
    }),
  ]);
  const files = await readFiles(client, brand, autoReplies, opts.concurrency, opts.cache, opts.fileIds);
  return { brandId: brand.id, autoReplies, files, logos, chatbots, agencyFiles };
}

/**
 * Read the files that live auto-replies show in their media fields, and those
 * the manifests name by id (`desiredIds`), from `cache` when it has them (files
 * never change). A named id the service does not know is left out: the plan
 * shows it as given, and the service's refusal names it.
 */
export async function readFiles(
  client: RcsClient,
  brand: BrandRef,
  autoReplies: AutoReplyDetail[],
  concurrency: number,
  cache?: LiveCache,
  desiredIds: string[] = [],
): Promise<Map<string, AutoReplyFile>> {
  const ids = new Set<string>();
  for (const ar of autoReplies) {
    for (const [field, value] of Object.entries(ar.body ?? {})) if (MEDIA_FIELD.test(field) && typeof value === 'string' && value !== '') ids.add(mediaFileId(value));
  }
  const onlyDesired = new Set(desiredIds.filter((id) => !ids.has(id)));
  const files = await mapLimit([...ids, ...onlyDesired].sort(), concurrency, async (id) => {
    const cached = cache?.getFile(brand.id, id);
    if (cached !== undefined) return cached;
    let file: AutoReplyFile;
    try {
      file = await client.autoReplies.getFile(brand, id);
    } catch (err) {
      if (onlyDesired.has(id) && err instanceof RcsApiError && err.httpStatus >= 400 && err.httpStatus < 500 && err.httpStatus !== 401 && err.httpStatus !== 403 && err.httpStatus !== 429) return undefined;
      throw err;
    }
    cache?.setFile(brand.id, file);
    return file;
  });
  return new Map(files.filter((f): f is AutoReplyFile => f !== undefined).map((f) => [f.fileId, f]));
}

async function readAgencyFiles(client: RcsClient, brand: BrandRef, ids: string[], concurrency: number): Promise<Map<string, AgencyFileInfo | null>> {
  const infos = await mapLimit(ids, concurrency, (id) => client.agencyFiles.get(brand, id));
  return new Map(ids.map((id, i) => [id, infos[i] ?? null]));
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of it) out.push(item);
  return out;
}

function counter(total: number, onProgress?: (done: number, total: number) => void): () => void {
  let done = 0;
  return () => {
    done++;
    onProgress?.(done, total);
  };
}

