// Run a brand's plan: steps in dependency order, independent steps concurrently
// (up to `concurrency`), gates honoured. A blocked step is never sent; a held
// one waits for a flag; a step whose dependency did not finish is skipped.
// Failures do not stop independent steps, so one run does as much as it can.

import type { BrandRef, RcsClient } from '../api/index.js';
import { errorMessage } from '../errors.js';
import type { BrandPlan, Step } from '../plan/types.js';
import { wordsFor } from '../kinds/index.js';
import { runStep, type HandlerEnv } from './handlers.js';
import { absenceCheck } from './recheck.js';
import type { IdMap } from '../core/refs.js';
import { optionText, reviewText } from '../core/step.js';

/** How a step ended; `cancelled`: never started, because the run was interrupted. */
export type StepStatus = 'done' | 'failed' | 'blocked' | 'held' | 'skipped' | 'cancelled';

/** The outcome of one step. */
export interface StepResult {
  step: Step;
  status: StepStatus;
  /** What happened, for people: an id created, a reason held, an error message. */
  message: string;
  /** The service id a create or upload produced. */
  id?: string;
  /** The step was running when the interrupt came (it finished, failed, or was still running when the wait ended). */
  inFlightAtInterrupt?: boolean;
}

/** Who may run what . */
export interface GateOptions {
  allowDelete: boolean;
  allowReview: boolean;
  /** A saved plan was reviewed as a whole: its deletes and review steps may run. */
  fromSavedPlan: boolean;
  /** The kinds' own options set for this run (`--allow-…` a kind adds, without dashes): what lifts their `option` gates. */
  options?: readonly string[];
}

/** Progress callbacks, for the listr2 view or plain lines. */
export interface ApplyReporter {
  start(step: Step): void;
  finish(result: StepResult): void;
}

/** Everything a run needs. */
export interface ExecuteOptions extends GateOptions {
  client: RcsClient;
  brand: BrandRef;
  concurrency: number;
  reporter?: ApplyReporter;
  /** Aborted by the first interrupt: no step starts after it. */
  signal?: AbortSignal;
  /** After an interrupt, how long to wait for steps in flight (default 30 s). */
  graceMs?: number;
}

/** Default wait for the requests in flight after an interrupt (*chosen*: a little above one request's timeout and retries). */
export const INTERRUPT_GRACE_MS = 30_000;

/** Why a step may not run now, or undefined when it may. */
export function holdReason(step: Step, opts: GateOptions): { status: 'blocked' | 'held'; message: string } | undefined {
  if (step.gate.type === 'blocked') return { status: 'blocked', message: `blocked (${step.gate.state}): ${step.gate.reason}` };
  // Refused when the plan was made without the option; a fresh plan's option is this run's, a saved plan's was reviewed with it.
  if (step.gate.type === 'option' && step.gate.set !== true) return { status: 'blocked', message: `${optionText(step.gate)} (plan and apply with it)` };
  if (step.gate.type === 'option' && !(opts.options ?? []).includes(step.gate.option) && !opts.fromSavedPlan) {
    return { status: 'held', message: `held: runs only with --${step.gate.option} (${step.gate.reason})` };
  }
  if (step.gate.type === 'review' && !opts.allowReview && !opts.fromSavedPlan) {
    return { status: 'held', message: `held: ${reviewText(step.gate)}; run with --allow-review, or apply a saved plan that holds this step` };
  }
  if (step.gate.type === 'review' && step.gate.withdraws !== undefined && !opts.allowDelete && !opts.fromSavedPlan) {
    return { status: 'held', message: `held: ${step.gate.withdraws}; like a delete, this runs only with --allow-delete (and --allow-review), or from a saved plan` };
  }
  if (step.op === 'delete' && step.declared !== true && !opts.allowDelete && !opts.fromSavedPlan) {
    return { status: 'held', message: 'held: deletes run only with --allow-delete, or from a saved plan that holds them' };
  }
  return undefined;
}

/** Run every step of `plan`; results come back in plan order, with the ids learnt. */
export async function executePlan(plan: BrandPlan, opts: ExecuteOptions): Promise<{ results: StepResult[]; ids: IdMap }> {
  const ids: IdMap = new Map();
  const env: HandlerEnv = { client: opts.client, brand: opts.brand, ids, uploads: new Map(), absence: absenceCheck(opts.client, opts.brand) };
  const slots = semaphore(opts.concurrency);
  const results = new Map<string, Promise<StepResult>>();
  const report = (r: StepResult): StepResult => {
    opts.reporter?.finish(r);
    return r;
  };

  // Steps come in a valid order, so every dependency's promise exists already.
  for (const step of plan.steps) {
    const deps = step.dependsOn.map((id) => results.get(id)).filter((p): p is Promise<StepResult> => p !== undefined);
    results.set(
      step.id,
      (async (): Promise<StepResult> => {
        const done = await Promise.all(deps);
        if (opts.signal?.aborted === true) return report(cancelled(step));
        const hold = holdReason(step, opts);
        if (hold !== undefined) return report({ step, ...hold });
        const unfinished = done.find((r) => r.status !== 'done');
        if (unfinished !== undefined) {
          return report({ step, status: 'skipped', message: `skipped: waits for ${unfinished.step.address}, which ${unfinished.status === 'failed' ? 'failed' : `was ${unfinished.status}`}` });
        }
        return slots(async () => {
          // A step waiting for a slot when the interrupt came never starts.
          if (opts.signal?.aborted === true) return report(cancelled(step));
          opts.reporter?.start(step);
          const running = (async (): Promise<StepResult> => {
            try {
              const outcome = await runStep(step, env);
              if (outcome.id !== undefined && step.produces !== undefined) ids.set(step.produces, outcome.id);
              const base = doneMessage(step, outcome.id);
              const message = outcome.note !== undefined ? `${base} (${outcome.note})` : base;
              return { step, status: 'done', message, ...(outcome.id !== undefined ? { id: outcome.id } : {}) };
            } catch (err) {
              return { step, status: 'failed', message: `failed: ${errorMessage(err)}` };
            }
          })();
          return report(await boundedAfterInterrupt(step, running, opts.signal, opts.graceMs ?? INTERRUPT_GRACE_MS));
        });
      })(),
    );
  }
  return { results: await Promise.all(plan.steps.map((s) => results.get(s.id) as Promise<StepResult>)), ids };
}

function cancelled(step: Step): StepResult {
  return { step, status: 'cancelled', message: 'not started: the run was interrupted' };
}

/**
 * The step's result; once `signal` aborts, waited for at most `graceMs` more.
 * A step still running then is reported as failed with an unknown outcome
 * (its request may yet land; the next plan shows whether it did).
 */
async function boundedAfterInterrupt(step: Step, running: Promise<StepResult>, signal: AbortSignal | undefined, graceMs: number): Promise<StepResult> {
  if (signal === undefined) return running;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const gaveUp = new Promise<StepResult>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve({ step, status: 'failed', message: `outcome unknown: still in flight ${Math.round(graceMs / 1000)}s after the interrupt`, inFlightAtInterrupt: true }), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const result = await Promise.race([running.then((r) => ((settled = true), r)), gaveUp]);
    return signal.aborted && settled ? { ...result, inFlightAtInterrupt: true } : result;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function doneMessage(step: Step, id: string | undefined): string {
  const words = wordsFor(step);
  if (words !== undefined) return words.done;
  const suffix = id !== undefined && step.op !== 'link' ? ` (${id})` : '';
  switch (step.op) {
    case 'upload':
      return `uploaded${suffix}`;
    case 'create':
      return `created${suffix}`;
    case 'update':
      return 'updated';
    case 'link':
      return 'linked';
    case 'delete':
      return 'deleted';
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

/** A counting semaphore: at most `n` of the given functions run at once, in arrival order. */
function semaphore(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
