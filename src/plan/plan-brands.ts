// Read and plan several brands concurrently: the shared first half of plan,
// apply and drift. Reading touches the network; buildPlan stays pure.

import type { RcsClient } from '../api/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import { buildPlan } from './build-plan.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { PlanOptions } from '../kinds/resource-kind.js';
import { readLive } from './read-live.js';
import { brandLabelOf } from '../kinds/brand-name.js';
import { stateFindings } from './state-findings.js';
import { addUsage, type UsageReads } from './usage.js';
import type { BrandPlan, LiveBrand } from './types.js';
import { toBrandError, type BrandDeclaration, type BrandError, type HintFor } from './brand-error.js';

/** A brand with what was read and what was planned. */
export interface PlannedBrand {
  desired: DesiredBrand;
  live: LiveBrand;
  plan: BrandPlan;
}

/** A brand that could not be read or planned: the others go on without it. */
export interface FailedBrand {
  brandId: string;
  /** Absent when the manifests failed before the brand was built. */
  desired?: DesiredBrand;
  /** An empty plan that carries the error (no steps: nothing can be applied). */
  plan: BrandPlan;
  error: BrandError;
}

/** What planning one brand gave. */
export type BrandOutcome = PlannedBrand | FailedBrand;

/** True when the brand failed. */
export function isFailed(o: BrandOutcome): o is FailedBrand {
  return 'error' in o;
}

/** The FailedBrand for `brandId` with `error`. */
export function failedBrand(brandId: string, error: BrandError, desired?: DesiredBrand): FailedBrand {
  const plan: BrandPlan = { brandId, ...brandLabelOf(desired, undefined), steps: [], unmanaged: [], problems: [], fingerprints: {}, snapshots: {}, error, ...(desired?.owners !== undefined ? { owners: desired.owners } : {}) };
  return desired !== undefined ? { brandId, desired, plan, error } : { brandId, plan, error };
}

/** How to read. */
export interface PlanBrandsOptions {
  concurrency: number;
  cache?: LiveCache;
  /** Choices for the plan (`--cancel-review`). */
  plan?: PlanOptions;
  /** Advice added to a failed brand's error. */
  hintFor?: HintFor;
  onProgress?: (brandId: string, done: number, total: number) => void;
  /** The clock the state findings are taken at (default: now). */
  now?: Date;
  /** Read how often users pressed what each step removes or changes (plan's usage figures). */
  usage?: UsageReads;
  /** The account (personId) kinds read as when the manifests name none: the run's RCSCTL_PERSON_ID. */
  account?: string;
}

/** Read the live state of every brand (concurrently) and plan each; the first failure rejects. */
export async function planBrands(client: RcsClient, brands: DesiredBrand[], opts: PlanBrandsOptions): Promise<PlannedBrand[]> {
  return Promise.all(brands.map((desired) => planOne(client, desired, opts)));
}

/**
 * Read and plan every brand, each on its own: a brand whose reads fail (403,
 * 5xx after retries, no connection) comes back as a FailedBrand and the
 * others are planned in full. Results keep the order of `brands`.
 */
export async function planEachBrand(client: RcsClient, brands: DesiredBrand[], opts: PlanBrandsOptions): Promise<BrandOutcome[]> {
  return Promise.all(
    brands.map(async (desired): Promise<BrandOutcome> => {
      try {
        return await planOne(client, desired, opts);
      } catch (err) {
        return failedBrand(desired.brandId, toBrandError(err, 'read', opts.hintFor, brandDeclaration(desired)), desired);
      }
    }),
  );
}

async function planOne(client: RcsClient, desired: DesiredBrand, opts: PlanBrandsOptions): Promise<PlannedBrand> {
  const live = await readLive(client, brandRef(desired), {
    concurrency: opts.concurrency,
    desired,
    ...(opts.account !== undefined ? { account: opts.account } : {}),
    ...(opts.cache ? { cache: opts.cache } : {}),
    ...(opts.onProgress ? { onProgress: (done: number, total: number) => opts.onProgress?.(desired.brandId, done, total) } : {}),
  });
  const built = buildPlan(desired, live, opts.plan ?? {});
  // The brand as people know it (its name and folder) comes right after its id in every view.
  const { brandId, ...rest } = built;
  const plan: BrandPlan = { brandId, ...brandLabelOf(desired, live), ...rest };
  plan.findings = stateFindings(desired, live, opts.now ?? new Date()).flatMap((r) => r.findings);
  plan.declaredAt = { file: desired.source.file, line: desired.source.line };
  if (desired.owners !== undefined) plan.owners = desired.owners;
  if (opts.usage !== undefined) await addUsage(opts.usage, brandRef(desired), plan, live);
  return { desired, live, plan };
}

/** Where the manifests declare `desired`, for its service errors. */
export function brandDeclaration(desired: Pick<DesiredBrand, 'brandId' | 'source'>): BrandDeclaration {
  return { brandId: desired.brandId, file: desired.source.file, line: desired.source.line };
}

/** The client's brand reference for a desired brand (the key only when the manifest has one). */
export function brandRef(desired: Pick<DesiredBrand, 'brandId' | 'brandKey'>): { id: string; key?: string } {
  return desired.brandKey !== undefined ? { id: desired.brandId, key: desired.brandKey } : { id: desired.brandId };
}
