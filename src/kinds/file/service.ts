// Auto-reply files and the service: the service cannot list them, so the files
// read are those live auto-replies show in their media fields (from the cache
// when it has them: a file never changes). Uploads are content-addressed.

import { RcsApiError, type BrandRef, type RcsClient } from '../../api/index.js';
import type { DesiredBrand } from '../../manifest/types.js';
import type { AutoReplyDetail, AutoReplyFile } from '../../contract/wire.js';
import type { Step, StepFile } from '../../core/step.js';
import { MEDIA_FIELD, mediaFileId } from '../../spec/media.js';
import { mapLimit } from '../../util/concurrency.js';
import { gone, mismatch, uploadOnce } from '../apply-helpers.js';
import { cachePart, type LiveCache } from '../live-cache.js';
import type { Handler, HandlerEnv, KindReader, Reread } from '../resource-kind.js';
import { ERRORS } from '../../contract/codes.js';

/** File details by fileId in the live cache: kept for good, since a file never changes (its name is content-addressed, and the service cannot modify one). */
const FILES = cachePart<AutoReplyFile>('autoReplyFiles');

/** Service codes apply treats as "already as asked". */
export const FILE_CODES = { gone: ERRORS.invalidFileId.code } as const;

/** Reads the files live auto-replies use, once their details are in. */
export const fileReader: KindReader<Map<string, AutoReplyFile>> = {
  after: ['autoReply'],
  list: (env) =>
    readFiles(env.client, env.brand, (env.live.autoReplies as AutoReplyDetail[] | undefined) ?? [], env.concurrency, env.cache, env.desired !== undefined ? mediaFileIds(env.desired) : []),
};

/** The auto-reply file ids a brand's manifests name directly (`media: <fileId>`), not through a file handle. */
export function mediaFileIds(desired: DesiredBrand): string[] {
  const ids = new Set<string>();
  for (const ar of desired.autoReplies.values()) {
    for (const [field, value] of Object.entries(ar.body)) if (MEDIA_FIELD.test(field) && typeof value === 'string' && value !== '') ids.add(value);
  }
  return [...ids];
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
    const cached = cache?.get(brand.id, FILES, id);
    if (cached !== undefined) return cached;
    let file: AutoReplyFile;
    try {
      file = await client.autoReplies.getFile(brand, id);
    } catch (err) {
      if (onlyDesired.has(id) && err instanceof RcsApiError && err.httpStatus >= 400 && err.httpStatus < 500 && err.httpStatus !== 401 && err.httpStatus !== 403 && err.httpStatus !== 429) return undefined;
      throw err;
    }
    cache?.set(brand.id, FILES, file.fileId, file);
    return file;
  });
  return new Map(files.filter((f): f is AutoReplyFile => f !== undefined).map((f) => [f.fileId, f]));
}

/** One file again. */
export async function rereadFile(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<AutoReplyFile> | undefined> {
  const file = await client.autoReplies.getFile(brand, id).catch(gone(FILE_CODES.gone));
  return file === undefined ? undefined : { live: file, ctx: { liveName: () => undefined } };
}

/** The file handlers: upload only (files are never changed or deleted). */
export const fileHandlers: Partial<Record<Step['op'], Handler>> = {
  upload: async (step, env) => {
    if (step.op !== 'upload') throw mismatch(step);
    return { id: await upload(step.file, env) };
  },
};

function upload(file: StepFile, env: HandlerEnv): Promise<string> {
  return uploadOnce(env, file.sha256, file, async (f) => (await env.client.autoReplies.uploadFile(env.brand, f)).fileId);
}

