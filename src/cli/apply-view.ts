// What `rcsctl apply` shows of a run (src/apply/apply-run.ts): the plans, the
// duplicates, the confirmation, each brand's summary line, and the verdict with
// its exit code. The run itself knows no terminal.

import { createInterface } from 'node:readline/promises';
import type { ApplyRunEvents, ApplyRunResult, ApplyRunStatus } from '../apply/apply-run.js';
import { unappliable } from '../apply/apply-brands.js';
import { describeDuplicates } from '../apply/dedupe.js';
import type { StepResult } from '../apply/execute.js';
import { RcsctlError } from '../errors.js';
import { brandErrorText, failedHeadline } from '../render/brand-error.js';
import { renderPlans } from '../render/plan-text.js';
import { makeStyle, type Style } from '../render/style.js';
import { brandResult, type BrandApplyResult } from './apply-result.js';
import type { CommandContext } from './context.js';
import { EXIT_ERROR, EXIT_HELD, EXIT_INTERRUPTED, EXIT_OK, type ExitCode } from './exit-codes.js';
import { renderInterrupted } from './interrupt.js';
import { writeFailures } from './failures.js';
import { drawingStream } from './safe-output.js';

/** The run's events as the terminal shows them; `record` gets each applied brand's result (`--format json`). */
export function applyEvents(ctx: CommandContext, opts: { yes: boolean }, record?: (r: BrandApplyResult) => void): ApplyRunEvents {
  const { io } = ctx;
  const style = makeStyle(ctx.globals().color);
  return {
    duplicates(found) {
      if (found.length === 0) io.stdout.write('Dedupe: no live duplicates of managed names.\n\n');
      for (const f of found) io.stdout.write(`Dedupe ${f.brandId}:\n${describeDuplicates(f).map((l) => `  ${l}\n`).join('')}`);
    },
    deleted(brandId, done) {
      const relinked = done.relinked.length > 0 ? `re-pointed links of ${done.relinked.join(', ')}; ` : '';
      io.stdout.write(`✓ ${brandId}: ${relinked}deleted ${done.deleted.join(', ') || 'nothing'}\n${done.failed.map((l) => `  ! ${l}\n`).join('')}`);
    },
    planned(runs) {
      io.stdout.write(renderPlans(runs.map((r) => r.plan), style));
      for (const [brandId, error] of unappliable(runs)) record?.(brandResult(brandId, [], new Map(), [], error));
    },
    ...(opts.yes ? {} : { confirm: (brandIds: string[], what: string) => confirm(ctx, brandIds, what) }),
    reporterFor: async (plan) => {
      io.stdout.write('\n');
      // listr2 is loaded only when there is something to apply.
      const { makeApplyView } = await import('./apply-reporter.js');
      return makeApplyView(io, style, plan.brandId, plan.steps, ctx.globals().verbose === true);
    },
    outcome(o) {
      if (o.status === 'interrupted') return;
      if (o.status === 'failed') {
        record?.(brandResult(o.brandId, o.results ?? [], new Map(), [], o.error));
        io.stdout.write([style.bold(`Brand ${o.brandId}: ${failedHeadline(o.error)}`), ...brandErrorText(o.error, style)].join('\n') + '\n');
        return;
      }
      const error = o.error ?? (o.unconverged.length > 0 ? { code: 'E_UNCONVERGED', stage: 'verify' as const, message: `${count(o.unconverged.length, 'resource')} not as planned (above)` } : undefined);
      record?.(brandResult(o.brandId, o.results, o.ids, o.unconverged, error));
      io.stdout.write(summaryLine(o.brandId, o.results, o.unconverged.length, style));
    },
  };
}

const EXIT_CODES: Record<ApplyRunStatus, ExitCode> = { nothing: EXIT_OK, applied: EXIT_OK, held: EXIT_HELD, failed: EXIT_ERROR, interrupted: EXIT_INTERRUPTED, 'duplicates-held': EXIT_HELD };

/** The verdict of a run on the terminal, and its exit code; `signalName` names the interrupt. */
export function applyVerdict(ctx: CommandContext, r: ApplyRunResult, signalName: string): ExitCode {
  const { io } = ctx;
  const style = makeStyle(ctx.globals().color);
  const s = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
  for (const u of r.unconverged) io.stderr.write(style.red(`verification: ${u.message}\n`));
  switch (r.status) {
    case 'nothing':
      io.stdout.write('\nNothing to apply: the live service matches.\n');
      break;
    case 'duplicates-held':
      io.stdout.write(`\n⏸ ${s(r.duplicatesHeld ?? 0, 'duplicate copy', 'duplicate copies')} held: deletes run only with --allow-delete. Nothing was changed.\n`);
      break;
    case 'interrupted':
      if (r.before === true) io.stderr.write(`\nInterrupted (${signalName}) before any step was sent; nothing was changed.\n`);
      else io.stderr.write(renderInterrupted(signalName, r.interrupted, ctx.globals().verbose === true));
      break;
    case 'failed': {
      const all = r.runs.length;
      // A brand whose re-read did not match (another process's work among it) failed too, though no step did.
      const failed = new Set([...r.failures.keys(), ...r.outcomes.filter((o) => o.status === 'verified' && o.unconverged.length > 0).map((o) => o.brandId)]);
      const brandsFailed = failed.size > 0 ? `; ${failed.size} of ${all} brand${all === 1 ? '' : 's'} failed (above)${failed.size < all ? ', the others were applied' : ''}` : '';
      // stdout's last line counts the failed brands: a log that shows stdout alone must not end on a clean brand's line.
      const ran = ranSteps(r.outcomes.flatMap((o) => o.results ?? []));
      io.stdout.write(style.red(`\nApply failed for ${failed.size} of ${s(all, 'brand')}; ${ran === '' ? 'no step ran' : `steps: ${ran}`}.\n`));
      // A brand that could not be planned had its error and hint in the plan block on stdout: say it once.
      const shown = new Set(r.runs.filter((run) => run.plan.error !== undefined).map((run) => run.plan.brandId));
      writeFailures(
        ctx,
        [...r.failures].filter(([id]) => !shown.has(id)),
        `\nApply failed: ${s(r.stepsFailed, 'step')} failed, ${s(r.unconverged.length, 'resource')} not as planned${brandsFailed}. Fix the cause and run apply again: it picks up where this run stopped.`,
      );
      break;
    }
    case 'held':
      io.stdout.write(style.yellow(`\nApply finished with ${s(r.stepsHeld, 'step')} blocked or held (above); the rest of the live brand matches.\n`));
      break;
    case 'applied':
      io.stdout.write(style.green('\nApply complete: the live service matches the manifests.\n'));
  }
  return EXIT_CODES[r.status];
}

async function confirm(ctx: CommandContext, brandIds: string[], what: string): Promise<void> {
  const { io } = ctx;
  if (io.stdin === undefined || io.stdin.isTTY !== true) {
    throw new RcsctlError('E_CONFIRM', 'refusing to apply without confirmation: there is no terminal to ask on. Review the plan above and run again with --yes, or save it with `rcsctl plan --out FILE` and run `rcsctl apply --plan FILE`.');
  }
  // readline edits the line with cursor controls: it writes beneath the terminal guard.
  const rl = createInterface({ input: io.stdin, output: drawingStream(io.stderr) });
  try {
    const question = what.charAt(0).toUpperCase() + what.slice(1);
    const answer = await rl.question(`\n${question} ${brandIds.join(', ')}? Only 'yes' will be accepted: `);
    if (answer.trim() !== 'yes') throw new RcsctlError('E_CONFIRM', 'apply cancelled; nothing was changed');
  } finally {
    rl.close();
  }
}

/**
 * A brand's line after its steps: `BR…: 16 done, 0 failed, 0 blocked, 0 held, 0 skipped.`;
 * a brand with a failed step or a resource not as planned (verification, or
 * another process's work) reads `BR…: failed: 1 resource not as planned; 49 done.`
 */
function summaryLine(brandId: string, results: StepResult[], unconverged: number, style: Style): string {
  const failedSteps = results.filter((r) => r.status === 'failed').length;
  if (failedSteps === 0 && unconverged === 0) return style.bold(`${brandId}: ${stepCounts(results)}.\n`);
  const why = [...(failedSteps > 0 ? [`${count(failedSteps, 'step')} failed`] : []), ...(unconverged > 0 ? [`${count(unconverged, 'resource')} not as planned`] : [])];
  const ran = ranSteps(results.filter((r) => r.status !== 'failed'));
  return style.red(`${brandId}: failed: ${why.join(', ')}${ran !== '' ? `; ${ran}` : ''}.\n`);
}

/** The statuses that occurred, with their counts: `3 done, 1 held` (empty when no step ran). */
function ranSteps(results: StepResult[]): string {
  return STATUSES.map((st) => [st, results.filter((r) => r.status === st).length] as const)
    .filter(([, n]) => n > 0)
    .map(([st, n]) => `${n} ${st}`)
    .join(', ');
}

const STATUSES = ['done', 'failed', 'blocked', 'held', 'skipped'] as const;

/** `16 done, 0 failed, 0 blocked, 0 held, 0 skipped`. */
function stepCounts(results: StepResult[]): string {
  return STATUSES.map((st) => `${results.filter((r) => r.status === st).length} ${st}`).join(', ');
}

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}
