// Each brand's pass history: what every pass was started by, how it ended,
// at which manifest revision, and in apply mode each step with its address,
// operation, changed fields (before and after) and result. Kept in memory
// only, the last `size` entries per brand (a ring): a restarted controller
// starts a new history, as it starts a new /status (docs/controller.md,
// "History"). Values are kept shortened as every view shows them
// (src/core/shorten.ts), and every reader serves them through the one
// redaction, so a sensitive value never leaves the process.
//
// Quiet passes fold: a pass that applied nothing and ended exactly as the
// entry before it (same outcome, trigger kinds, revision and error) adds to
// that entry's count instead of pushing an applied change out of the ring
// (docs/decisions.md, "Controller history").

import type { StepResult } from '../apply/execute.js';
import type { FieldChange } from '../core/step.js';
import { shortenLong } from '../core/shorten.js';
import type { Revision } from './revision.js';
import type { BrandState } from './state.js';

/** Why a pass ran. Marks that arrive before a pass starts coalesce into it, so a pass may have several. */
export type Trigger =
  | { kind: 'notification'; type: string; method?: string }
  | { kind: 'resync' }
  | { kind: 'retry' }
  | { kind: 'manual' }
  | { kind: 'window' }
  | { kind: 'resumed' }
  | { kind: 'manifests' }
  | { kind: 'lock' };

/** One field a step changed, shortened as the plan shows it. */
export interface ChangeRecord {
  path: string;
  type: FieldChange['type'];
  before?: unknown;
  after?: unknown;
}

/** One step an apply ran (or held, or skipped), and what came of it. */
export interface StepRecord {
  address: string;
  op: string;
  /** `done`, `failed`, `blocked`, `held`, `skipped` or `cancelled`, as `rcsctl apply` reports it. */
  result: string;
  /** What happened, for people: an id created, why it was held, the service's error. */
  message: string;
  changes: ChangeRecord[];
  /** Changes left out of `changes` (more than CHANGES_KEPT, or past the pass's CHANGES_PER_PASS). */
  changesOmitted?: number;
}

/** How a pass ended: its brand's state, or `error` (the token refused), `locked` (another run held the brand) or `stopped` (the shutdown). */
export type PassResult = Exclude<BrandState, 'reconciling'> | 'error' | 'locked' | 'stopped';

/** One pass of a brand (or several alike, folded: `count`). */
export interface PassRecord {
  /** When the pass started (ISO 8601); folded: the first of them. */
  startedAt: string;
  durationMs: number;
  mode: 'observe' | 'apply';
  triggers: Trigger[];
  outcome: PassResult;
  /** The manifest revision the pass worked from; absent when the manifests are not a checkout rcsctl can read. */
  revision?: Revision;
  /** Steps the plan held (observe mode: what an apply would run). */
  planned: number;
  /** Apply mode: every step the apply ran, held or skipped. */
  steps?: StepRecord[];
  /** Steps left out of `steps` (more than STEPS_KEPT). */
  stepsOmitted?: number;
  error?: { code: string; message: string };
  /** The requests the pass sent and how many were answered 429; folded: added up. */
  requests?: { requests: number; rateLimited: number };
  /** Passes folded into this entry (absent: one). */
  count?: number;
  /** Folded: when the last of them started. */
  lastStartedAt?: string;
}

/** Entries kept per brand unless told otherwise (`--history`). */
export const DEFAULT_HISTORY_SIZE = 20;
/** The most `--history` takes: with STEPS_KEPT and CHANGES_KEPT it bounds a brand's history's memory. */
export const MAX_HISTORY_SIZE = 1000;
/** Steps kept per pass: a pass of more is summed up by `stepsOmitted` (*chosen*: a whole-brand first apply is the only such pass). */
export const STEPS_KEPT = 200;
/** Changes kept per step (*chosen*: more is a rewrite, and the plan shows it whole). */
export const CHANGES_KEPT = 50;
/** Changes kept per pass, over all its steps (*chosen*): with values shortened, an entry holds about 0.6 MiB at most (bench/controller-page.ts). */
export const CHANGES_PER_PASS = 500;
/** Coalesced triggers kept per pass (*chosen*: a burst of notifications is one pass, not a list of them). */
const TRIGGERS_KEPT = 10;

/** A step's changes as the history keeps them. */
export function changeRecords(changes: readonly FieldChange[], limit = CHANGES_KEPT): { changes: ChangeRecord[]; changesOmitted?: number } {
  const kept = changes.slice(0, Math.max(0, Math.min(limit, CHANGES_KEPT))).map((c) => ({ path: c.path, type: c.type, ...('before' in c ? { before: shortenLong(c.before) } : {}), ...('after' in c ? { after: shortenLong(c.after) } : {}) }));
  return { changes: kept, ...(changes.length > kept.length ? { changesOmitted: changes.length - kept.length } : {}) };
}

/** A step's result as the history and the log keep it. */
export function stepRecord(r: StepResult, changesLeft?: number): StepRecord {
  return { address: r.step.address, op: r.step.op, result: r.status, message: r.message, ...changeRecords(r.step.changes, changesLeft) };
}

/** The steps a pass ran, as its history entry holds them (apply mode): at most STEPS_KEPT, with CHANGES_PER_PASS changes among them. */
export function stepsOf(results: StepResult[] | undefined): { steps?: StepRecord[]; stepsOmitted?: number } {
  if (results === undefined) return {};
  let left = CHANGES_PER_PASS;
  const steps = results.slice(0, STEPS_KEPT).map((r) => {
    const rec = stepRecord(r, left);
    left -= rec.changes.length;
    return rec;
  });
  return { steps, ...(results.length > STEPS_KEPT ? { stepsOmitted: results.length - STEPS_KEPT } : {}) };
}

/** A trigger as one short label for a log line: `notification autoreplymsg modified`, `resync`. */
export function triggerLabel(t: Trigger): string {
  return t.kind === 'notification' ? ['notification', t.type, ...(t.method !== undefined ? [t.method] : [])].join(' ') : t.kind;
}

/** Triggers without repeats, at most TRIGGERS_KEPT. */
export function distinctTriggers(triggers: readonly Trigger[]): Trigger[] {
  const seen = new Set<string>();
  const out: Trigger[] = [];
  for (const t of triggers) {
    const key = JSON.stringify(t);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
    if (out.length === TRIGGERS_KEPT) break;
  }
  return out;
}

/** The last `size` passes of one brand, newest last. */
export class PassHistory {
  private readonly entries: PassRecord[] = [];

  constructor(private readonly size: number) {}

  /** Add a pass: folded into the last entry when it is a quiet repeat of it, else appended (the oldest dropped past `size`). */
  add(pass: PassRecord): void {
    const last = this.entries.at(-1);
    if (last !== undefined && foldable(last, pass)) {
      last.count = (last.count ?? 1) + 1;
      last.lastStartedAt = pass.startedAt;
      last.durationMs = pass.durationMs;
      if (pass.requests !== undefined) last.requests = { requests: (last.requests?.requests ?? 0) + pass.requests.requests, rateLimited: (last.requests?.rateLimited ?? 0) + pass.requests.rateLimited };
      return;
    }
    this.entries.push(pass);
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size);
  }

  /** The entries, newest first (copies). */
  list(): PassRecord[] {
    return this.entries.map((e) => ({ ...e })).reverse();
  }
}

/** Whether `next` is a pass that changed nothing and ended as `last` did. */
function foldable(last: PassRecord, next: PassRecord): boolean {
  const quiet = (p: PassRecord): boolean => (p.steps ?? []).length === 0;
  return quiet(last) && quiet(next) && signature(last) === signature(next);
}

/** What two passes must share to fold: mode, outcome, what the plan held, the trigger kinds, the revision and the error. */
function signature(p: PassRecord): string {
  return JSON.stringify([p.mode, p.outcome, p.planned, p.triggers.map((t) => t.kind).sort(), p.revision?.commit, p.error?.code, p.error?.message]);
}
