// How an apply shows progress: a listr2 task list on a terminal, in plan order,
// whose finished tasks collapse into a counter line on long runs; plain lines in
// CI or when output is not a terminal (one line per step outcome, in order of
// completion, easy to grep in a log), with a counter line now and then on long
// runs. Steps an interrupt kept from starting are counted in one line, not
// listed (unless --verbose): a run stopped early can leave thousands.

import type { WriteStream } from 'node:tty';
import { DefaultRenderer, Listr, ListrLogger, ProcessOutput, type ListrTask } from 'listr2';
import type { ApplyReporter, StepResult } from '../apply/execute.js';
import type { Step } from '../plan/types.js';
import type { CliIO } from './context.js';
import { lineTicker, LINE_MODE_MIN_TOTAL } from './progress.js';
import { escapeUnsafe, drawingStream } from './safe-output.js';
import type { Style } from '../render/style.js';

/** A reporter plus a promise that settles when its display is finished. */
export interface ApplyView extends ApplyReporter {
  finished(): Promise<void>;
}

const SYMBOL: Record<StepResult['status'], string> = { done: '✓', failed: '✗', blocked: '!', held: '⏸', skipped: '-', cancelled: '-' };

/** The right view for `io`: listr2 on an interactive terminal, plain lines elsewhere; `verbose` lists each step never started. */
export function makeApplyView(io: CliIO, style: Style, brandId: string, steps: Step[], verbose = false): ApplyView {
  // A terminal that reports no width (some pseudo-terminals) cannot host a live task list.
  const interactive = io.stdout.isTTY === true && io.env.CI === undefined && (io.stdout.columns ?? 0) >= 40;
  if (!interactive) return plainView(io, style, steps.length, verbose);
  const rows = (drawingStream(io.stdout) as { rows?: number }).rows;
  return listrView(io, brandId, steps, steps.length > collapseAfter(rows));
}

/**
 * Up to how many steps the task list shows every step: what fits the
 * terminal's height (with room for the lines around it), at least 10; 20 when
 * the terminal does not say. Longer runs collapse finished steps into a counter.
 */
export function collapseAfter(rows: number | undefined): number {
  return rows === undefined || rows <= 0 ? 20 : Math.max(10, rows - 8);
}

/**
 * What a run has come to, for the counter lines: `120/1000 steps finished (118
 * done, 2 failed)`; once an interrupt kept steps from starting, `stopped early:
 * 42/200 steps finished (42 done); 158 never started`.
 */
class Tally {
  readonly by: Record<StepResult['status'], number> = { done: 0, failed: 0, blocked: 0, held: 0, skipped: 0, cancelled: 0 };
  finished = 0;
  constructor(readonly total: number) {}
  add(r: StepResult): void {
    this.by[r.status]++;
    this.finished++;
  }
  line(): string {
    const notDone = this.by.blocked + this.by.held + this.by.skipped;
    const parts = [`${this.by.done} done`, ...(this.by.failed > 0 ? [`${this.by.failed} failed`] : []), ...(notDone > 0 ? [`${notDone} blocked, held or skipped`] : [])];
    const ran = `${this.finished - this.by.cancelled}/${this.total} steps finished (${parts.join(', ')})`;
    return this.by.cancelled === 0 ? ran : `stopped early: ${ran}; ${this.by.cancelled} never started`;
  }
}

/**
 * One line per finished step; on a long run (100 steps or more) also a counter
 * line, `… applied 120/1000 steps finished (120 done)`, at each tenth of the
 * run or every 10 s, so a log shows how far it has come. Steps never started
 * (interrupted) get one line at the end, `… stopped early: …`; `verbose` also
 * lists them one by one.
 */
export function plainView(io: CliIO, style: Style, total = 0, verbose = false): ApplyView {
  const tally = new Tally(total);
  const due = total >= LINE_MODE_MIN_TOTAL ? lineTicker(total) : () => false;
  return {
    start() {},
    finish(r) {
      tally.add(r);
      if (r.status === 'cancelled') {
        if (verbose) io.stdout.write(`${style.yellow(SYMBOL.cancelled)} ${r.step.address}: ${r.message}\n`);
        return;
      }
      const paint = r.status === 'done' ? style.green : r.status === 'failed' || r.status === 'blocked' ? style.red : style.yellow;
      io.stdout.write(`${paint(SYMBOL[r.status])} ${r.step.address}: ${r.message}\n`);
      // Once steps are kept from starting, the line at the end says how far the run came.
      if (tally.by.cancelled === 0 && due(tally.finished)) io.stdout.write(`… applied ${tally.line()}\n`);
    },
    finished: async () => {
      if (tally.by.cancelled === 0) return;
      io.stdout.write(style.yellow(`… ${tally.line()}: the run was interrupted${verbose ? '' : ' (--verbose lists them)'}\n`));
    },
  };
}

/**
 * listr2's default renderer, writing to our stream. listr2 judges the terminal
 * by process.stdout; we have already judged io.stdout, which is what we write to.
 */
class TerminalRenderer extends DefaultRenderer {
  static override nonTTY = true;
}

/**
 * On a collapsed list, at most this many failed steps stay in view while it
 * runs; when more failed, all of them are listed as plain lines after it.
 */
const FAILED_IN_VIEW = 3;

function listrView(io: CliIO, brandId: string, steps: Step[], collapse: boolean): ApplyView {
  const results = new Map<string, { resolve: (r: StepResult) => void; promise: Promise<StepResult> }>();
  const outputs = new Map<string, (text: string) => void>();
  for (const step of steps) {
    let resolve!: (r: StepResult) => void;
    const promise = new Promise<StepResult>((r) => (resolve = r));
    results.set(step.id, { resolve, promise });
  }
  // A collapsed list shows the counter, the steps running and the latest failures; the rest are counted.
  const tally = new Tally(steps.length);
  const running = new Set<string>();
  const failedInView: string[] = [];
  const failures: StepResult[] = [];
  const shown = (id: string): boolean => running.has(id) || failedInView.includes(id);
  let counter: { title: string } | undefined;
  let allFinished!: () => void;
  const everyStep = new Promise<void>((r) => (allFinished = r));
  const tasks: ListrTask[] = steps.map((step) => ({
    title: escapeUnsafe(`${step.address} ${step.op}`),
    task: async (_ctx, task) => {
      task.output = running.has(step.id) ? 'running' : 'waiting for its turn';
      outputs.set(step.id, (text) => (task.output = text));
      const result = await (results.get(step.id) as { promise: Promise<StepResult> }).promise;
      task.title = escapeUnsafe(`${step.address}: ${result.message}`);
      if (result.status === 'failed') throw new Error(escapeUnsafe(result.message));
      if (result.status !== 'done') task.skip(escapeUnsafe(`${step.address}: ${result.message}`));
    },
  }));
  if (collapse) {
    tasks.unshift({
      title: tally.line(),
      task: async (_ctx, task) => {
        counter = task;
        task.title = tally.line();
        await everyStep;
        task.title = tally.line();
        if (tally.by.failed > 0) throw new Error(tally.by.failed > FAILED_IN_VIEW ? 'every failed step is listed below' : 'the failed steps are listed below it');
      },
    });
  }
  // The task list draws with cursor controls, so it writes beneath the terminal guard; its titles are escaped above.
  const processOutput = new ProcessOutput(drawingStream(io.stdout) as WriteStream, drawingStream(io.stderr) as WriteStream);
  const list = new Listr(tasks, {
    concurrent: true,
    exitOnError: false,
    renderer: TerminalRenderer,
    // rcsctl handles interrupts itself (src/cli/interrupt.ts); listr2's own
    // handler would mark every waiting step as failed.
    registerSignalListeners: false,
    rendererOptions: { logger: new ListrLogger({ useIcons: true, toStderr: [], processOutput }), collapseErrors: false },
  });
  if (collapse) {
    // listr2 draws only the tasks whose isEnabled() is true (and runs them whatever it says once they are
    // checked); on a collapsed list a step's task is drawn while it runs, or when it is among the latest failures.
    list.tasks.forEach((t, i) => {
      const step = i === 0 ? undefined : steps[i - 1];
      if (step !== undefined) t.isEnabled = () => shown(step.id);
    });
  }
  io.stdout.write(`Applying to ${brandId}:\n`);
  const run = list.run().then(
    () => undefined,
    () => undefined,
  );
  return {
    start(step) {
      running.add(step.id);
      outputs.get(step.id)?.('running');
    },
    finish(r) {
      running.delete(r.step.id);
      if (r.status === 'failed') {
        failures.push(r);
        failedInView.push(r.step.id);
        if (failedInView.length > FAILED_IN_VIEW) failedInView.shift();
      }
      tally.add(r);
      if (counter !== undefined) counter.title = tally.line();
      results.get(r.step.id)?.resolve(r);
      if (tally.finished === tally.total) allFinished();
    },
    finished: async () => {
      await run;
      // The list kept only the latest failures in view: name every one of them.
      if (failures.length > FAILED_IN_VIEW) {
        io.stdout.write(`Failed steps (${failures.length}):\n${failures.map((f) => `${SYMBOL.failed} ${f.step.address}: ${f.message}\n`).join('')}`);
      }
    },
  };
}
