// How an apply shows progress: a listr2 task list on a terminal, plain lines in
// CI or when output is not a terminal (one line per step outcome, stable order
// of completion, easy to grep in a log).

import type { WriteStream } from 'node:tty';
import { DefaultRenderer, Listr, ListrLogger, ProcessOutput, type ListrTask } from 'listr2';
import type { ApplyReporter, StepResult } from '../apply/execute.js';
import type { Step } from '../plan/types.js';
import type { CliIO } from './context.js';
import { escapeUnsafe, rawStream } from './safe-output.js';
import type { Style } from '../render/style.js';

/** A reporter plus a promise that settles when its display is finished. */
export interface ApplyView extends ApplyReporter {
  finished(): Promise<void>;
}

const SYMBOL: Record<StepResult['status'], string> = { done: '✓', failed: '✗', blocked: '!', held: '⏸', skipped: '-', cancelled: '-' };

/** The right view for `io`: listr2 on an interactive terminal, plain lines elsewhere. */
export function makeApplyView(io: CliIO, style: Style, brandId: string, steps: Step[]): ApplyView {
  // A terminal that reports no width (some pseudo-terminals) cannot host a live task list.
  const interactive = io.stdout.isTTY === true && io.env.CI === undefined && (io.stdout.columns ?? 0) >= 40;
  return interactive ? listrView(io, brandId, steps) : plainView(io, style);
}

/** One line per finished step. */
export function plainView(io: CliIO, style: Style): ApplyView {
  return {
    start() {},
    finish(r) {
      const paint = r.status === 'done' ? style.green : r.status === 'failed' || r.status === 'blocked' ? style.red : style.yellow;
      io.stdout.write(`${paint(SYMBOL[r.status])} ${r.step.address}: ${r.message}\n`);
    },
    finished: async () => {},
  };
}

/**
 * listr2's default renderer, writing to our stream. listr2 judges the terminal
 * by process.stdout; we have already judged io.stdout, which is what we write to.
 */
class TerminalRenderer extends DefaultRenderer {
  static override nonTTY = true;
}

function listrView(io: CliIO, brandId: string, steps: Step[]): ApplyView {
  const results = new Map<string, { resolve: (r: StepResult) => void; promise: Promise<StepResult> }>();
  const outputs = new Map<string, (text: string) => void>();
  for (const step of steps) {
    let resolve!: (r: StepResult) => void;
    const promise = new Promise<StepResult>((r) => (resolve = r));
    results.set(step.id, { resolve, promise });
  }
  const tasks: ListrTask[] = steps.map((step) => ({
    title: escapeUnsafe(`${step.address} ${step.op}`),
    task: async (_ctx, task) => {
      task.output = 'waiting for its turn';
      outputs.set(step.id, (text) => (task.output = text));
      const result = await (results.get(step.id) as { promise: Promise<StepResult> }).promise;
      task.title = escapeUnsafe(`${step.address}: ${result.message}`);
      if (result.status === 'failed') throw new Error(escapeUnsafe(result.message));
      if (result.status !== 'done') task.skip(escapeUnsafe(`${step.address}: ${result.message}`));
    },
  }));
  // The task list draws with cursor controls, so it writes beneath the terminal guard; its titles are escaped above.
  const processOutput = new ProcessOutput(rawStream(io.stdout) as WriteStream, rawStream(io.stderr) as WriteStream);
  const list = new Listr(tasks, {
    concurrent: true,
    exitOnError: false,
    renderer: TerminalRenderer,
    // rcsctl handles interrupts itself (src/cli/interrupt.ts); listr2's own
    // handler would mark every waiting step as failed.
    registerSignalListeners: false,
    rendererOptions: { logger: new ListrLogger({ useIcons: true, toStderr: [], processOutput }), collapseErrors: false },
  });
  io.stdout.write(`Applying to ${brandId}:\n`);
  const run = list.run().then(
    () => undefined,
    () => undefined,
  );
  return {
    start(step) {
      outputs.get(step.id)?.('running');
    },
    finish(r) {
      results.get(r.step.id)?.resolve(r);
    },
    finished: () => run,
  };
}
