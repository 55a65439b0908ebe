// The plan: ordered, gated steps for one brand, and the versioned plan file.
// Steps are a tagged union on `op`; the applier dispatches on it. The step
// nouns live in src/core/step.ts and are re-exported here.

import type { Finding } from '../core/finding.js';
import type { LiveSnapshot, PlanProblem, Step, Unmanaged } from '../core/step.js';
import type { BrandError } from './brand-error.js';
import type { ShardGaps, ShardOrigin } from './shard.js';
import type { UnmanagedBrand } from './unmanaged-brands.js';
import type { RequestCount } from '../core/requests.js';
import type { PolicyViolation, RunRules } from '../core/policy.js';

export type * from '../core/step.js';
export type { LiveBrand } from '../core/live.js';

/** How a brand's plan was compared with the base (BrandPlan.compared). */
export type BaseComparison =
  /** The base declares the brand: every step and field change has its origin. */
  | { base: 'declared' }
  /** The base does not declare the brand (added by the change): every step is the change's. */
  | { base: 'new' }
  /** The base's manifests of the brand have errors: the steps are not split. */
  | { base: 'failed'; message: string };

/** The plan for one brand. */
export interface BrandPlan {
  brandId: string;
  /** The brand's name (its profile's, declared or live), beside its id in every view; absent when nothing names it. */
  name?: string;
  /** The folder of the manifest that declares the brand; absent when the manifests were not read. */
  folder?: string;
  steps: Step[];
  unmanaged: Unmanaged[];
  problems: PlanProblem[];
  /**
   * The live resources' state findings (rejected, waiting for review, expiring),
   * the ones drift reports, shown beside the steps: a plan with no step can
   * still hold a rejected resource. Absent in plans of older versions.
   */
  findings?: Finding[];
  /** Set when the brand could not be read or planned; the plan then has no steps. */
  error?: BrandError;
  /** Fingerprint (hash of the snapshot) of every live resource a step touches, by address. */
  fingerprints: Record<string, string>;
  /** The state and normalised form each fingerprint was taken of, to say how a stale plan's resource changed. */
  snapshots: Record<string, LiveSnapshot>;
  /** The `moved:` declarations this plan applies: each turns a delete and a create into an update that keeps `liveId`. */
  moves?: { from: string; to: string; liveId: string }[];
  /** Deletes and creates that differ in the name only: the `moved:` entry that would keep the live id. */
  renames?: { from: string; to: string; fromName: string; toName: string }[];
  /** The policy rules this brand breaks (docs/policies.md); an error among them fails the brand: nothing is applied for it. */
  policy?: PolicyViolation[];
  /** The brand's owners as its manifests declare them (`brand.owners`): shown beside the brand. */
  owners?: string[];
  /** Where the manifests declare the brand (its `brand:` line), kept in a saved plan so that apply names it in a service error. */
  declaredAt?: { file: string; line: number };
  /** Set by `plan --compare-to`: how the steps were split into the change's and those undoing changes made outside rcsctl (each step's `origin`). */
  compared?: BaseComparison;
}

/** Counts for the summary line. */
export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  blocked: number;
  review: number;
  unmanaged: number;
}

/** Current plan file format version; apply refuses any other. 2: a menu's steps are create, update and delete (issue 40), no `menu-replace`. */
export const PLAN_FILE_VERSION = 3;

/** The saved plan (`plan --out`). Holds no secret. */
export interface PlanFile {
  version: typeof PLAN_FILE_VERSION;
  rcsctlVersion: string;
  createdAt: string;
  baseUrl: string;
  brands: BrandPlan[];
  /** Set on a view of a plan whose long values were shortened (`plan --format json`): apply refuses it, since it does not hold what to send. */
  shortened?: true;
  /** Set on a plan made with `--shard i/n`: which shard, of which brand list (`report merge` checks them). */
  shard?: ShardOrigin;
  /** Set on a merge of an incomplete shard set (`report merge --allow-partial`): what it lacks. */
  partial?: ShardGaps;
  /** Set when the run stopped before any brand was planned (a manifest error that belongs to no brand): no brand, and apply refuses it. */
  error?: BrandError;
  /** Live brands of the account that no manifest declares (BRAND_UNMANAGED); set when the run checked for them. Apply ignores them. */
  unmanagedBrands?: UnmanagedBrand[];
  /** Policy rules on the whole run that are broken, and rules that could not be evaluated (docs/policies.md); an error among them fails the run: apply sends nothing. */
  policy?: PolicyViolation[];
  /** The rules on the whole run it was checked with (absent without any): `report merge` checks them again over every shard's brands. */
  runRules?: RunRules;
  /** The requests the run that made it sent, and how many were answered 429 (a merge adds the shards'). */
  requests?: RequestCount;
}
