// `apply --format json`: what happened to every step and the ids learnt, for
// scripts and CI. The human view (plan, progress, verdict) goes to stderr; this
// document alone goes to stdout.

import type { RequestCount } from '../core/requests.js';
import type { StepResult } from '../apply/execute.js';
import type { IdMap } from '../core/refs.js';
import type { Unconverged } from '../apply/verify.js';
import type { ShardOrigin } from '../plan/shard.js';
import { errorMessage, RcsctlError } from '../errors.js';
import { VERSION } from '../version.js';
import { EXIT_ERROR, EXIT_HELD, type ExitCode } from './exit-codes.js';

/** One brand's outcome. */
export interface BrandApplyResult {
  brandId: string;
  steps: { id: string; address: string; kind: string; op: string; status: StepResult['status']; message: string; liveId?: string }[];
  /** Ids the service gave to what this run created, by reference (`autoReply:hours` → `ARM…`). */
  ids: Record<string, string>;
  /** Resources whose re-read did not match the plan. */
  unconverged: { address: string; message: string }[];
  /** Set when the brand failed: it could not be planned, a step failed, or what it touched is not as planned. */
  error?: { code: string; stage: string; message: string };
}

/** The run's counts: brands and failed brands, and the steps by status. */
export interface ApplySummary {
  brands: number;
  failedBrands: number;
  steps: Record<StepResult['status'], number>;
}

/** The whole result document. */
export interface ApplyResult {
  version: 1;
  rcsctlVersion: string;
  outcome: 'applied' | 'held' | 'failed' | 'nothing-to-do' | 'error';
  exitCode: ExitCode;
  summary: ApplySummary;
  brands: BrandApplyResult[];
  /** Set on a run with `--shard i/n` (or of a sharded saved plan): which shard, of which brand list. */
  shard?: ShardOrigin;
  /** The requests the run sent, and how many were answered 429. */
  requests?: RequestCount;
  error?: { code: string; message: string };
}

/** The entry of one brand, from what executePlan and verifyApplied returned; `error` when it failed. */
export function brandResult(brandId: string, results: StepResult[], ids: IdMap, unconverged: Unconverged[], error?: BrandApplyResult['error']): BrandApplyResult {
  return {
    brandId,
    steps: results.map((r) => {
      const liveId = r.id ?? r.step.liveId;
      return { id: r.step.id, address: r.step.address, kind: r.step.kind, op: r.step.op, status: r.status, message: r.message, ...(liveId !== undefined ? { liveId } : {}) };
    }),
    ids: Object.fromEntries([...ids.entries()].sort(([a], [b]) => a.localeCompare(b))),
    unconverged: unconverged.map((u) => ({ address: u.address, message: u.message })),
    ...(error !== undefined ? { error: { code: error.code, stage: error.stage, message: error.message } } : {}),
  };
}

/** The counts of `brands`. */
export function applySummary(brands: BrandApplyResult[]): ApplySummary {
  const steps: ApplySummary['steps'] = { done: 0, failed: 0, blocked: 0, held: 0, skipped: 0, cancelled: 0 };
  for (const b of brands) for (const s of b.steps) steps[s.status]++;
  return { brands: brands.length, failedBrands: brands.filter((b) => b.error !== undefined).length, steps };
}

/** The document for a run that ended with `exitCode` (or threw `err`); `shard` when it ran one shard. */
export function applyResult(brands: BrandApplyResult[], exitCode: ExitCode, err?: unknown, shard?: ShardOrigin, requests?: RequestCount): ApplyResult {
  const outcome: ApplyResult['outcome'] =
    err !== undefined ? 'error' : exitCode === EXIT_ERROR ? 'failed' : exitCode === EXIT_HELD ? 'held' : brands.every((b) => b.steps.length === 0) ? 'nothing-to-do' : 'applied';
  const doc: ApplyResult = { version: 1, rcsctlVersion: VERSION, outcome, exitCode: err !== undefined ? EXIT_ERROR : exitCode, summary: applySummary(brands), brands };
  if (shard !== undefined) doc.shard = shard;
  if (requests !== undefined) doc.requests = requests;
  if (err !== undefined) doc.error = { code: err instanceof RcsctlError ? err.code : 'E_INTERNAL', message: errorMessage(err) };
  return doc;
}

