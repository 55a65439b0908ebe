// The drift report: what `rcsctl drift` found, per brand and per resource, in
// one shape that every renderer (text, json, markdown, junit) reads. The JSON
// form is this shape as is (schemas/drift-report.schema.json).

import type { FieldChange, Gate, KindName, PlanProblem } from '../plan/types.js';

/** Current drift report format version. */
export const DRIFT_REPORT_VERSION = 1;

/** How much a finding matters: error and warning count as drift (exit 2); info does not. */
export type Severity = 'error' | 'warning' | 'info';

/** Every finding code; each has a section in docs/troubleshooting.md. */
export type FindingCode =
  | 'DRIFT_CHANGED'
  | 'DRIFT_MISSING'
  | 'DRIFT_UNMANAGED'
  | 'DRIFT_PRUNE'
  | 'AUTO_REPLY_PROCESSING'
  | 'AUTO_REPLY_SAVED'
  | 'ROOM_REJECTED'
  | 'LOGO_REJECTED'
  | 'ROOM_REVIEW_PENDING'
  | 'LOGO_REVIEW_PENDING'
  | 'ROOM_REGISTRATION_PENDING'
  | 'LOGO_REGISTRATION_PENDING'
  | 'LOGO_NOT_APPROVED'
  | 'AGENCY_FILE_EXPIRING'
  | 'AGENCY_FILE_EXPIRED';

/** One thing a person should know about a resource, and what to do about it. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Address of the resource (`autoReply.hours`, `chatbot.0212345678`). */
  address: string;
  /** What is wrong, in one sentence. */
  message: string;
  /** What a person should do about it, in one sentence. */
  action: string;
  /** Where the finding is explained: `docs/troubleshooting.md#<code in lower case>`. */
  help: string;
  /** Field-level differences (DRIFT_CHANGED, DRIFT_MISSING, DRIFT_PRUNE). */
  changes?: FieldChange[];
  /** The gate apply would meet for this change. */
  gate?: Gate;
  /** The live state (approvalResult or status) the finding is about. */
  state?: string;
  /** Reason the reviewer gave (rejections). */
  approvalReason?: string | null;
  /** Service time the current state began (updateDate), for waiting findings. */
  since?: string;
  /** Whole days since `since`. */
  ageDays?: number;
  /** End of an agency file's sendable window (service time). */
  expiryDate?: string;
  /** Whole days from the report time to `expiryDate` (negative once past). */
  daysLeft?: number;
}

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

/** One brand of the report. */
export interface BrandDrift {
  brandId: string;
  /** True when no finding of severity error or warning and no problem. */
  clean: boolean;
  summary: DriftSummary;
  /** Problems that stopped the brand from being compared (plan errors). */
  problems: PlanProblem[];
  /** Agency files the manifests do not name, which the service cannot list. */
  notes: string[];
  resources: ResourceDrift[];
}

/** The whole report. */
export interface DriftReport {
  version: typeof DRIFT_REPORT_VERSION;
  rcsctlVersion: string;
  /** When the report was made (ISO 8601, UTC). */
  generatedAt: string;
  options: DriftOptions;
  clean: boolean;
  summary: DriftSummary;
  brands: BrandDrift[];
}

/** Thresholds that decide severities. */
export interface DriftOptions {
  /** Agency files whose sendable window ends within this many days are reported (warning). */
  expiryWarningDays: number;
  /** Reviews waiting longer than this many days are reported as warnings instead of info. */
  reviewWarningDays: number;
}

/** Default thresholds (documented in docs/drift.md). */
export const DEFAULT_DRIFT_OPTIONS: DriftOptions = { expiryWarningDays: 30, reviewWarningDays: 14 };
