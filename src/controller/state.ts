// A brand's state as the controller reports it, read off what the lower layers
// found: the plan's steps and gates, the drift findings, the brand's error. No
// rule of reconciliation lives here; this only names the outcome.

import type { BrandOutcome } from '../plan/plan-brands.js';
import { isFailed } from '../plan/plan-brands.js';
import type { BrandDrift, Finding } from '../report/types.js';
import { parseServiceTime } from '../util/time.js';
import { violationText } from '../core/policy.js';

/** The states of a brand, exactly as /status and the metrics name them. */
export const BRAND_STATES = ['in-sync', 'drifted', 'waiting-review', 'blocked', 'failed', 'reconciling'] as const;

/** One of BRAND_STATES. */
export type BrandState = (typeof BRAND_STATES)[number];

/** The states of the service, as /status and rcsctl_service_state name them (src/controller/service-condition.ts). */
export const SERVICE_STATES = ['ok', 'unreachable', 'unauthorized'] as const;

/** One of SERVICE_STATES. */
export type ServiceState = (typeof SERVICE_STATES)[number];

/** What a pass counted. */
export interface PassCounts {
  /** Steps the plan holds (runnable, held by a gate, or blocked). */
  steps: number;
  /** Steps a live state blocks. */
  blocked: number;
  /** Steps that send something to review (held without --allow-review). */
  review: number;
  /** Drift findings of severity error or warning. */
  findings: number;
  /** Resources waiting for an operator's review. */
  waitingReview: number;
  /** Of those, the ones waiting longer than --review-warning. */
  lateReviews: number;
}

/** A brand's state after a pass, and why. */
export interface Classified {
  state: Exclude<BrandState, 'reconciling'>;
  /** Why the brand is not in sync, one line each (steps, gates, findings). */
  reasons: string[];
  counts: PassCounts;
}

/**
 * The state of a planned brand: failed (it could not be read or planned, or
 * its plan has problems), blocked (a policy rule of severity error is broken,
 * or a live state forbids a change), drifted
 * (steps to run, or an error finding such as a rejection), waiting-review
 * (nothing to change, but a resource waits for review), else in-sync.
 */
export function classify(outcome: BrandOutcome, drift: BrandDrift | undefined, now: Date, reviewWarningMs: number): Classified {
  const counts: PassCounts = { steps: 0, blocked: 0, review: 0, findings: 0, waitingReview: 0, lateReviews: 0 };
  if (isFailed(outcome)) return { state: 'failed', reasons: [`${outcome.error.code}: ${outcome.error.message}`], counts };
  const plan = outcome.plan;
  const reasons: string[] = [];
  counts.steps = plan.steps.length;
  for (const step of plan.steps) {
    if (step.gate.type === 'blocked') {
      counts.blocked++;
      reasons.push(`${step.address} ${step.op}: blocked while ${step.gate.state} (${step.gate.reason})`);
    } else if (step.gate.type === 'option') {
      // The controller sets no kind's option: what one gates waits for a person's apply.
      counts.blocked++;
      reasons.push(`${step.address} ${step.op}: runs only with --${step.gate.option}, which the controller never sets (${step.gate.reason})`);
    } else if (step.gate.type === 'review') {
      counts.review++;
      reasons.push(`${step.address} ${step.op}: goes to review (${step.gate.review})`);
    } else {
      reasons.push(`${step.address} ${step.op}`);
    }
  }
  const findings = (drift?.resources ?? []).flatMap((r) => r.findings);
  const waiting = findings.filter(isWaitingReview);
  counts.waitingReview = waiting.length;
  counts.lateReviews = waiting.filter((f) => f.since !== undefined && now.getTime() - parseServiceTime(f.since).getTime() > reviewWarningMs).length;
  const serious = findings.filter((f) => f.severity === 'error');
  counts.findings = findings.filter((f) => f.severity !== 'info').length;
  for (const f of [...serious, ...waiting]) reasons.push(`${f.address}: ${f.message}`);
  if (plan.problems.length > 0) return { state: 'failed', reasons: [...plan.problems.map((p) => `${p.address}: ${p.message}`), ...reasons], counts };
  // The repository's policy rules (docs/policies.md): an error keeps the plan from being applied.
  const policy = (plan.policy ?? []).map((v) => `policy ${v.severity} [${v.rule}]: ${violationText(v)}${v.severity === 'error' ? '; nothing is applied for this brand' : ''}`);
  if ((plan.policy ?? []).some((v) => v.severity === 'error')) return { state: 'blocked', reasons: [...policy, ...reasons], counts };
  reasons.push(...policy);
  if (counts.blocked > 0) return { state: 'blocked', reasons, counts };
  if (counts.steps > 0 || serious.length > 0) return { state: 'drifted', reasons, counts };
  if (waiting.length > 0) return { state: 'waiting-review', reasons, counts };
  return { state: 'in-sync', reasons, counts };
}

/** A finding about a resource waiting for review: the review findings carry its age (`ageDays`), no other does. */
function isWaitingReview(f: Finding): boolean {
  return f.ageDays !== undefined && f.severity !== 'error';
}
