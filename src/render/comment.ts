// One pull-request comment of a plan and a drift report (`rcsctl report merge
// plan.json drift.json --format markdown`): both heads first, then the plan's
// brands, then the drift the plan does not already show, all within one size
// budget (fit.ts).

import type { PlanFile } from '../plan/types.js';
import type { DriftReport } from '../report/types.js';
import { brandErrorMarkdown, STOPPED_HEADLINE } from './brand-error.js';
import { driftPart } from './drift-markdown.js';
import { fitMarkdown, type Part } from './fit.js';
import { fitOf, planPart, versionFoot } from './plan-markdown.js';

/** Said where the full reports are when no --full-report-url is given. */
const FULL_REPORTS = "the job's output (`rcsctl report merge` of the shards' JSON reports, in any format)";

/** The plan, then its drift, as one comment of at most `maxBytes` bytes. */
export function renderComment(plan: PlanFile, drift: DriftReport, opts: { maxBytes?: number; fullReport?: string; graph?: boolean; previewLink?: string }): string {
  const shownInPlan = new Map(plan.brands.map((b) => [b.brandId, new Set(b.steps.map((s) => s.address))]));
  const planned: Part = planPart(plan.brands, { rcsctlVersion: plan.rcsctlVersion, ...(opts.graph === true ? { graph: true } : {}), ...(opts.previewLink !== undefined ? { previewLink: opts.previewLink } : {}), ...(plan.partial !== undefined ? { partial: plan.partial } : {}), ...(plan.policy !== undefined ? { policy: plan.policy } : {}), ...(plan.unmanagedBrands !== undefined ? { unmanagedBrands: plan.unmanagedBrands } : {}), ...(plan.requests !== undefined ? { requests: plan.requests } : {}) });
  // A shard that stopped on a manifest error of no brand: its error opens the plan.
  if (plan.error !== undefined) planned.head.splice(1, 0, { lines: [...brandErrorMarkdown('manifests', plan.error, STOPPED_HEADLINE), ''] });
  // A live brand no manifest declares is named once: the plan's table of them (with the folders the change removed) holds it.
  const namedInPlan = new Set((plan.unmanagedBrands ?? []).map((u) => u.brandId));
  const unmanagedBrands = drift.unmanagedBrands?.filter((u) => !namedInPlan.has(u.brandId));
  const drifted = driftPart({ ...drift, ...(unmanagedBrands !== undefined ? { unmanagedBrands } : {}) }, { shownInPlan });
  (drifted.head[0] as { lines: string[] }).lines.unshift('');
  const parts = [planned, drifted];
  return fitMarkdown(parts, versionFoot(plan.rcsctlVersion, drift.generatedAt), { ...fitOf(opts), fullReportDefault: FULL_REPORTS });
}
