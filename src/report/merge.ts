// Combining the JSON reports of CI shards into one: drift reports
// (`drift --format json`) or plans (`plan --format json` / `--out`), each
// shard holding a disjoint set of brands. The merged report is what one
// unsharded run would have given: brands in brand-id order, totals added up.

import { RcsctlError } from '../errors.js';
import type { PlanFile } from '../plan/types.js';
import { checkShardSet, describeGaps } from './shard-set.js';
import { addRequests } from '../core/requests.js';
import { reportSummary } from './build-drift.js';
import type { DriftReport, UnmanagedBrand } from './types.js';

/** The shards' requests added up (absent when no shard counted). */
function requestsOf(counts: Parameters<typeof addRequests>[0]): { requests?: NonNullable<ReturnType<typeof addRequests>> } {
  const sum = addRequests(counts);
  return sum === undefined ? {} : { requests: sum };
}

/** The shards' unmanaged brands (each shard names those that hash to it), in brand-id order; undefined when no shard checked. */
function mergeUnmanaged(lists: (UnmanagedBrand[] | undefined)[]): { unmanagedBrands?: UnmanagedBrand[] } {
  if (lists.every((l) => l === undefined)) return {};
  const byId = new Map<string, UnmanagedBrand>();
  for (const l of lists) for (const b of l ?? []) if (!byId.has(b.brandId)) byId.set(b.brandId, b);
  return { unmanagedBrands: [...byId.values()].sort((a, b) => a.brandId.localeCompare(b.brandId)) };
}

/** A shard's report as read: a drift report or a plan, with where it came from. */
export type ShardReport = { kind: 'drift'; file: string; report: DriftReport } | { kind: 'plan'; file: string; report: PlanFile };

/** What a merge gives: one drift report or one plan. */
export type MergedReport = { kind: 'drift'; report: DriftReport } | { kind: 'plan'; report: PlanFile };

/**
 * Merge shard reports of one kind; throws E_MERGE when they do not belong
 * together, or when the shard set is not whole (a shard missing, given twice
 * or from another split) unless `allowPartial`: then the reports that fit are
 * merged and the result says what it lacks (`partial`).
 */
export function mergeReports(given: ShardReport[], opts: { allowPartial?: boolean } = {}): MergedReport {
  const first = given[0];
  if (first === undefined) throw new RcsctlError('E_USAGE', 'report merge needs at least one report');
  const other = given.find((p) => p.kind !== first.kind);
  if (other !== undefined) throw new RcsctlError('E_MERGE', `${first.file} is a ${first.kind} report but ${other.file} is a ${other.kind} report; merge reports of one kind`);
  const { kept: parts, gaps } = checkShardSet(given);
  if (gaps !== undefined && opts.allowPartial !== true) {
    throw new RcsctlError('E_MERGE', `the reports are not one whole set of shards: ${describeGaps(gaps)}. Give each shard's report once, or merge what there is with --allow-partial (the result says it is partial)`);
  }
  const merged = mergeWhole(parts);
  if (gaps !== undefined) merged.report.partial = gaps;
  return merged;
}

function mergeWhole(parts: ShardReport[]): MergedReport {
  const first = parts[0] as ShardReport;
  const seen = new Map<string, string>();
  for (const p of parts) {
    for (const b of p.report.brands) {
      const before = seen.get(b.brandId);
      if (before !== undefined) throw new RcsctlError('E_MERGE', `brand ${b.brandId} is in both ${before} and ${p.file}: the shards overlap (give each job another --shard i/n of the same n)`);
      seen.set(b.brandId, p.file);
    }
  }
  if (first.kind === 'drift') return { kind: 'drift', report: mergeDrift(parts as Extract<ShardReport, { kind: 'drift' }>[]) };
  return { kind: 'plan', report: mergePlans(parts as Extract<ShardReport, { kind: 'plan' }>[]) };
}

function mergeDrift(parts: Extract<ShardReport, { kind: 'drift' }>[]): DriftReport {
  const first = (parts[0] as (typeof parts)[number]).report;
  for (const p of parts) {
    if (JSON.stringify(p.report.options) !== JSON.stringify(first.options)) {
      throw new RcsctlError('E_MERGE', `${p.file} was made with other drift options (${JSON.stringify(p.report.options)}) than ${parts[0]?.file} (${JSON.stringify(first.options)})`);
    }
  }
  const brands = parts.flatMap((p) => p.report.brands).sort((a, b) => a.brandId.localeCompare(b.brandId));
  // A shard that stopped (a manifest error of no brand) keeps the merged report from reading clean.
  const stopped = parts.find((p) => p.report.error !== undefined)?.report.error;
  const summary = reportSummary(brands);
  const unmanaged = mergeUnmanaged(parts.map((p) => p.report.unmanagedBrands));
  return {
    version: first.version,
    rcsctlVersion: first.rcsctlVersion,
    generatedAt: parts.map((p) => p.report.generatedAt).sort().at(-1) ?? first.generatedAt,
    options: first.options,
    clean: stopped === undefined && brands.every((b) => b.clean) && (unmanaged.unmanagedBrands ?? []).length === 0,
    summary,
    brands,
    ...(stopped !== undefined ? { error: stopped } : {}),
    ...unmanaged,
    ...requestsOf(parts.map((p) => p.report.requests)),
  };
}

/** A plan's run rules and labels, in a few words. */
function runRulesOf(plan: PlanFile): string {
  const r = plan.runRules;
  if (r === undefined) return 'none';
  return `${r.rules.map((x) => x.name).join(', ')}${r.labels.length > 0 ? ` (labels ${r.labels.join(', ')})` : ''}`;
}

function mergePlans(parts: Extract<ShardReport, { kind: 'plan' }>[]): PlanFile {
  const first = (parts[0] as (typeof parts)[number]).report;
  for (const p of parts) {
    if (p.report.baseUrl !== first.baseUrl) throw new RcsctlError('E_MERGE', `${p.file} was planned against ${p.report.baseUrl}, ${parts[0]?.file} against ${first.baseUrl}`);
    // The run rules are checked again over the merge (src/policy/run-rules.ts): every shard must have had the same ones, for the same request.
    if (JSON.stringify(p.report.runRules ?? null) !== JSON.stringify(first.runRules ?? null)) {
      throw new RcsctlError('E_MERGE', `${p.file} was checked with other policy rules on the whole run (or other labels) than ${parts[0]?.file}: ${runRulesOf(p.report)} against ${runRulesOf(first)}; make every shard's plan from one commit and one request`);
    }
  }
  // The merge is the whole set: no part's shard is its own.
  const { shard: _, error: __, unmanagedBrands: ___, policy: ____, ...whole } = first;
  // Each shard checked the run rules on its own brands: the merge keeps every shard's verdicts, until the run rules (`runRules`) are checked again over the whole (checkRunRulesAgain).
  const policy = parts.flatMap((p) => p.report.policy ?? []);
  // A shard stopped by a manifest error of no brand: the merge is no plan to apply either.
  const stopped = parts.find((p) => p.report.error !== undefined)?.report.error;
  return {
    ...whole,
    createdAt: parts.map((p) => p.report.createdAt).sort()[0] ?? first.createdAt,
    brands: parts.flatMap((p) => p.report.brands).sort((a, b) => a.brandId.localeCompare(b.brandId)),
    // A part that is a shortened view makes the whole one: it must stay unappliable.
    ...(parts.some((p) => p.report.shortened === true) ? { shortened: true as const } : {}),
    ...(stopped !== undefined ? { error: stopped } : {}),
    ...mergeUnmanaged(parts.map((p) => p.report.unmanagedBrands)),
    ...(policy.length > 0 ? { policy } : {}),
    ...requestsOf(parts.map((p) => p.report.requests)),
  };
}
