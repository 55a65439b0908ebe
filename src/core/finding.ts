// Findings: what a person should know about a resource, and what to do about
// it. The drift report is made of them; each kind contributes the findings
// about its live state, so the noun sits below both.

import { docsLink } from '../version.js';
import type { FieldChange, Gate } from './step.js';

/** How much a finding matters: error and warning count as drift (exit 2); info does not. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A finding code; each has a section in docs/troubleshooting.md. The generic
 * codes are `CONTENT_FINDING_CODES`; each kind declares its own state codes
 * (`findingCodes`), and the drift report schema lists them all (a test keeps
 * it current).
 */
export type FindingCode = string;

/** The codes of content differences, which every kind can have. */
export const CONTENT_FINDING_CODES = ['DRIFT_CHANGED', 'DRIFT_MISSING', 'DRIFT_UNMANAGED', 'DRIFT_PRUNE'] as const;

/** The codes about a whole brand of the account rather than a resource of a declared brand (src/plan/unmanaged-brands.ts). */
export const BRAND_FINDING_CODES = ['BRAND_UNMANAGED'] as const;

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
  /** Where the finding is explained: an absolute link to `troubleshooting.md#<code in lower case>` in the docs (`--docs-url`). */
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

/** Thresholds that decide severities. */
export interface DriftOptions {
  /** Agency files whose sendable window ends within this many days are reported (warning). */
  expiryWarningDays: number;
  /** Reviews waiting longer than this many days are reported as warnings instead of info. */
  reviewWarningDays: number;
}

/** Default thresholds (documented in docs/drift.md). */
export const DEFAULT_DRIFT_OPTIONS: DriftOptions = { expiryWarningDays: 30, reviewWarningDays: 14 };

/** The troubleshooting page and anchor of a finding code, relative to the docs folder. */
export function helpAnchor(code: FindingCode): string {
  return `troubleshooting.md#${code.toLowerCase()}`;
}

/** The absolute help link of a finding code, in the docs at `docsUrl` (default: the package's homepage). */
export function helpLink(code: FindingCode, docsUrl?: string): string {
  return docsLink(helpAnchor(code), docsUrl);
}

/** A finding with its help link filled in (the published docs; drift's `--docs-url` re-points it). */
export function finding(code: FindingCode, severity: Severity, address: string, message: string, action: string, extra: Partial<Finding> = {}): Finding {
  return { code, severity, address, message, action, help: helpLink(code), ...extra };
}
