// What `rcsctl apply` shows of a run (src/apply/apply-run.ts): the plans, the
// duplicates, the confirmation, each brand's summary line, and the verdict with
// its exit code. The run itself knows no terminal.

import { createInterface } from 'node:readline/promises';
import type { ApplyRunEvents, ApplyRunResult, ApplyRunStatus } from '../apply/apply-run.js';
import { describeDuplicates } from '../apply/dedupe.js';
import type { StepResult } from '../apply/execute.js';
import { RcsctlError } from '../errors.js';
import { brandErrorText, failedHeadline } from '../render/brand-error.js';
import { renderPlan } from '../render/plan-text.js';
import { makeStyle, type Style } from '../render/style.js';
import { brandResult, type BrandApplyResult } from './apply-result.js';
import type { CommandContext } from './context.js';
import { EXIT_ERROR, EXIT_HELD, EXIT_INTERRUPTED, EXIT_OK, type ExitCode } from './exit-codes.js';
import { renderInterrupted } from './interrupt.js';
import { writeFailures } from './plan-run.js';
import { rawStream } from './safe-output.js';

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
    planned: (runs) => void io.stdout.write(runs.map((r) => renderPlan(r.plan, style)).join('\n')),
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
        io.stdout.write([style.bold(`Brand ${o.brandId}: ${failedHeadline(o.error)}`), ...brandErrorText(o.error, style)].join('\n') + '\n');
        return;
      }
      record?.(brandResult(o.brandId, o.results, o.ids, o.unconverged));
      io.stdout.write(summaryLine(o.brandId, o.results, style));
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
      const brandsFailed = r.failures.size > 0 ? `; ${r.failures.size} of ${all} brand${all === 1 ? '' : 's'} failed (above), the others were applied` : '';
      writeFailures(
        ctx,
        [...r.failures],
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
  const rl = createInterface({ input: io.stdin, output: rawStream(io.stderr) });
  try {
    const question = what.charAt(0).toUpperCase() + what.slice(1);
    const answer = await rl.question(`\n${question} ${brandIds.join(', ')}? Only 'yes' will be accepted: `);
    if (answer.trim() !== 'yes') throw new RcsctlError('E_CONFIRM', 'apply cancelled; nothing was changed');
  } finally {
    rl.close();
  }
}

function summaryLine(brandId: string, results: StepResult[], style: Style): string {
  const count = (st: StepResult['status']): number => results.filter((r) => r.status === st).length;
  const parts = [`${count('done')} done`, `${count('failed')} failed`, `${count('blocked')} blocked`, `${count('held')} held`, `${count('skipped')} skipped`];
  const text = `${brandId}: ${parts.join(', ')}.\n`;
  return count('failed') > 0 ? style.red(text) : style.bold(text);
}
