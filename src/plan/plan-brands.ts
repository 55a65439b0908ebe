// Read and plan several brands concurrently: the shared first half of plan,
// apply and drift. Reading touches the network; buildPlan stays pure.

import type { RcsClient } from '../api/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import { buildPlan } from './build-plan.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { PlanOptions } from '../kinds/resource-kind.js';
import { readLive } from './read-live.js';
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
  /** Choices for the plan (`--cancel-review`). */
  plan?: PlanOptions;
  onProgress?: (brandId: string, done: number, total: number) => void;
}

/** Read the live state of every brand (concurrently) and plan each. */
export async function planBrands(client: RcsClient, brands: DesiredBrand[], opts: PlanBrandsOptions): Promise<PlannedBrand[]> {
  return Promise.all(
    brands.map(async (desired) => {
      const live = await readLive(client, brandRef(desired), {
        concurrency: opts.concurrency,
        desired,
        ...(opts.cache ? { cache: opts.cache } : {}),
        ...(opts.onProgress ? { onProgress: (done: number, total: number) => opts.onProgress?.(desired.brandId, done, total) } : {}),
      });
      return { desired, live, plan: buildPlan(desired, live, opts.plan ?? {}) };
    }),
  );
}

/** The client's brand reference for a desired brand (the key only when the manifest has one). */
export function brandRef(desired: Pick<DesiredBrand, 'brandId' | 'brandKey'>): { id: string; key?: string } {
  return desired.brandKey !== undefined ? { id: desired.brandId, key: desired.brandKey } : { id: desired.brandId };
}
