// Read and plan several brands concurrently: the shared first half of plan,
// apply and drift. Reading touches the network; buildPlan stays pure.

import type { RcsClient } from '../api/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import { buildPlan } from './build-plan.js';
import type { LiveCache } from './live-cache.js';
import { readLive } from './read-live.js';
import { MEDIA_FIELD } from '../kinds/auto-reply.js';
import type { BrandPlan, LiveBrand } from './types.js';

/** A brand with what was read and what was planned. */
export interface PlannedBrand {
  desired: DesiredBrand;
  live: LiveBrand;
  plan: BrandPlan;
}

/** How to read. */
export interface PlanBrandsOptions {
  concurrency: number;
  cache?: LiveCache;
  onProgress?: (brandId: string, done: number, total: number) => void;
}

/** Read the live state of every brand (concurrently) and plan each. */
export async function planBrands(client: RcsClient, brands: DesiredBrand[], opts: PlanBrandsOptions): Promise<PlannedBrand[]> {
  return Promise.all(
    brands.map(async (desired) => {
      const live = await readLive(client, brandRef(desired), {
        concurrency: opts.concurrency,
        agencyFileIds: [...desired.agencyFiles.keys()],
        fileIds: mediaFileIds(desired),
        ...(opts.cache ? { cache: opts.cache } : {}),
        ...(opts.onProgress ? { onProgress: (done: number, total: number) => opts.onProgress?.(desired.brandId, done, total) } : {}),
      });
      return { desired, live, plan: buildPlan(desired, live) };
    }),
  );
}

/** The client's brand reference for a desired brand (the key only when the manifest has one). */
export function brandRef(desired: Pick<DesiredBrand, 'brandId' | 'brandKey'>): { id: string; key?: string } {
  return desired.brandKey !== undefined ? { id: desired.brandId, key: desired.brandKey } : { id: desired.brandId };
}

/** The auto-reply file ids a brand's manifests name directly (`media: <fileId>`), not through a file handle. */
export function mediaFileIds(desired: DesiredBrand): string[] {
  const ids = new Set<string>();
  for (const ar of desired.autoReplies.values()) {
    for (const [field, value] of Object.entries(ar.body)) if (MEDIA_FIELD.test(field) && typeof value === 'string' && value !== '') ids.add(value);
  }
  return [...ids];
}
