// Interrupts during apply, the way Terraform takes them: the first SIGINT or
// SIGTERM stops new steps from starting and lets the requests in flight finish
// (bounded); a second one stops at once. In-process runs (tests) interrupt
// through io.signal instead.

import { setMaxListeners } from 'node:events';
import type { CliIO } from './context.js';
import { EXIT_INTERRUPTED } from './exit-codes.js';

/** A watch over interrupts; dispose when the graceful part is over. */
export interface InterruptWatch {
  /** Aborted on the first interrupt. */
  signal: AbortSignal;
  /** The signal's name (`SIGINT`, `SIGTERM`), once interrupted. */
  readonly received: string | undefined;
  dispose(): void;
}

/** Watch for interrupts; `graceMs` is only for the message. */
export function watchInterrupts(io: CliIO, graceMs: number): InterruptWatch {
  const controller = new AbortController();
  // Every step in flight listens (as many as --concurrency allows): not a leak.
  setMaxListeners(0, controller.signal);
  let received: string | undefined;
  const onSignal = (name: string): void => {
    if (received === undefined) {
      received = name;
      io.stderr.write(
        `\n${name} received: no new step will start. Waiting up to ${Math.round(graceMs / 1000)}s for the requests in flight; ` +
          `interrupt again to stop at once.\n`,
      );
      controller.abort(name);
      return;
    }
    io.stderr.write(`\n${name} received again: stopping at once. Requests in flight may still land; run rcsctl plan to see where the brand stands.\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  const onAbort = (): void => onSignal('interrupt');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  if (io.signal?.aborted === true) onAbort();
  else io.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      io.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves on SIGINT or SIGTERM, or when io.signal aborts (in-process runs): how long-running commands (emulator, controller) wait to stop. */
export function untilStopped(io: CliIO): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (io.signal?.aborted === true) stop();
    else io.signal?.addEventListener('abort', stop);
  });
}

/** One brand's part of an interrupted apply. */
export interface InterruptedBrand {
  brandId: string;
  /** The results, or undefined when the brand's turn never came. */
  results?: readonly { step: { address: string; op: string }; status: string; message: string; inFlightAtInterrupt?: boolean }[];
  /** The steps of a brand whose turn never came. */
  steps: readonly { address: string; op: string }[];
}

/** Lines shown per group before "… and N more". */
const LIST_LIMIT = 20;

/**
 * What was done, what was in flight and what never started: the steps never
 * started are counted, and listed only when `verbose` (an interrupt early in a
 * long run leaves thousands). The last line says the run stopped early.
 */
export function renderInterrupted(signalName: string, brands: InterruptedBrand[], verbose = false): string {
  const out: string[] = [`\nInterrupted (${signalName}).`];
  const list = (title: string, lines: string[], limit = LIST_LIMIT): void => {
    if (lines.length === 0) return;
    out.push(`  ${title}:`);
    out.push(...lines.slice(0, limit).map((l) => `    ${l}`));
    if (lines.length > limit) out.push(`    … and ${lines.length - limit} more`);
  };
  let never = 0;
  let total = 0;
  for (const b of brands) {
    const results = b.results ?? [];
    const done = results.filter((r) => r.status === 'done' && r.inFlightAtInterrupt !== true);
    const inFlight = results.filter((r) => r.inFlightAtInterrupt === true);
    const notStarted = b.results === undefined ? b.steps.map((s) => `${s.address} ${s.op}`) : results.filter((r) => r.status === 'cancelled').map((r) => `${r.step.address} ${r.step.op}`);
    const other = results.filter((r) => r.inFlightAtInterrupt !== true && r.status !== 'done' && r.status !== 'cancelled');
    never += notStarted.length;
    total += b.steps.length;
    const listed = verbose || notStarted.length === 0 ? '' : ' (--verbose lists them)';
    out.push(`${b.brandId}: ${done.length} done, ${inFlight.length} in flight, ${notStarted.length} never started${listed}${other.length > 0 ? `, ${other.length} failed, held or skipped` : ''}.`);
    list('done', done.map((r) => `✓ ${r.step.address}: ${r.message}`));
    list('in flight when interrupted', inFlight.map((r) => `${r.status === 'done' ? '✓' : '✗'} ${r.step.address}: ${r.message}`));
    if (verbose) list('never started', notStarted, Infinity);
  }
  out.push(`Apply stopped early (${signalName}): ${never} of ${total} step${total === 1 ? '' : 's'} never started. Run apply again to finish: it plans from the live state and does only what is left.`);
  return out.join('\n') + '\n';
}
