// The drift report: what `rcsctl drift` found, per brand and per resource, in
// one shape that every renderer (text, json, markdown, junit) reads. The JSON
// form is this shape as is (schemas/drift-report.schema.json).

import type { DriftOptions, Finding } from '../core/finding.js';
import type { KindName, PlanProblem } from '../core/step.js';

export { DEFAULT_DRIFT_OPTIONS, type DriftOptions, type Finding, type FindingCode, type Severity } from '../core/finding.js';
import type { BrandError } from '../plan/brand-error.js';
import type { ShardGaps, ShardOrigin } from '../plan/shard.js';
import type { UnmanagedBrand } from '../plan/unmanaged-brands.js';
import type { RequestCount } from '../core/requests.js';
export type { UnmanagedBrand } from '../plan/unmanaged-brands.js';

/** Current drift report format version. */
export const DRIFT_REPORT_VERSION = 1;

/** Whether a resource is declared and live. */
export type ResourceStatus = 'managed' | 'missing' | 'unmanaged';

/** One resource of a brand and its findings (empty when in sync). */
export interface ResourceDrift {
  address: string;
  kind: KindName;
  name: string;
  liveId?: string;
  status: ResourceStatus;
  /** The live state (approvalResult or status), when live. */
  state?: string;
  findings: Finding[];
}

/** Counts over a brand or the whole report. */
export interface DriftSummary {
  resources: number;
  inSync: number;
  changed: number;
  missing: number;
  unmanaged: number;
  errors: number;
  warnings: number;
  infos: number;
}

/** The whole report's counts: every brand's added up, and how many brands there are and how many failed. */
export interface ReportSummary extends DriftSummary {
  brands: number;
  /** Brands that could not be checked or compared (an error or plan problems); their resources are not counted. */
  failedBrands: number;
}

/** One brand of the report. */
export interface BrandDrift {
  brandId: string;
  /** The brand's name (its profile's, declared or live), beside its id in every view; absent when nothing names it. */
  name?: string;
  /** The folder of the manifest that declares the brand; absent when the manifests were not read. */
  folder?: string;
  /** The brand's owners as its manifests declare them (`brand.owners`): shown beside the brand, as a plan shows them. */
  owners?: string[];
  /** True when no finding of severity error or warning and no problem. */
  clean: boolean;
  summary: DriftSummary;
  /** Problems that stopped the brand from being compared (plan errors). */
  problems: PlanProblem[];
  /** Agency files the manifests do not name, which the service cannot list. */
  notes: string[];
  resources: ResourceDrift[];
  /** Set when the brand could not be checked at all (403, no connection, broken manifests); it has no resources then. */
  error?: BrandError;
}

/** The whole report. */
export interface DriftReport {
  version: typeof DRIFT_REPORT_VERSION;
  rcsctlVersion: string;
  /** When the report was made (ISO 8601, UTC). */
  generatedAt: string;
  options: DriftOptions;
  clean: boolean;
  summary: ReportSummary;
  brands: BrandDrift[];
  /** Set on a report made with `--shard i/n`: which shard, of which brand list (`report merge` checks them). */
  shard?: ShardOrigin;
  /** Set on a merge of an incomplete shard set (`report merge --allow-partial`): what it lacks. */
  partial?: ShardGaps;
  /** Set when the run stopped before any brand was checked (a manifest error that belongs to no brand): no brand is listed, and it is not clean. */
  error?: BrandError;
  /** Live brands of the account that no manifest declares (BRAND_UNMANAGED, a warning each: the report is not clean); set when the run checked for them. */
  unmanagedBrands?: UnmanagedBrand[];
  /** The requests the run sent, and how many were answered 429 (a merge adds the shards'). */
  requests?: RequestCount;
}
