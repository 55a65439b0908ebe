// Progress for long reads: a live line on an interactive terminal; elsewhere (a
// pipe, a CI log, a terminal that reports no width) plain counter lines, so a
// long run is never silent and a log holds no cursor controls.

import type { CliIO } from './context.js';
import { escapeUnsafe, drawingStream } from './safe-output.js';

/** A progress callback and a way to clear its line. */
export interface Progress {
  update(label: string, done: number, total: number): void;
  done(): void;
}

/** Below this many items a read is short: line mode prints nothing for it. */
export const LINE_MODE_MIN_TOTAL = 100;

/** The rate of counter lines: one per tenth of the total, or after this long (ms) with something new. */
export const LINE_MODE_EVERY_MS = 10_000;

/**
 * When a counter line is due, for one long-running count: each tenth of the
 * total, the end, or `LINE_MODE_EVERY_MS` after the last line. At most about a
 * dozen lines per count, whatever its size.
 */
export function lineTicker(total: number, now: () => number = Date.now): (done: number) => boolean {
  const step = Math.max(1, Math.ceil(total / 10));
  let lastDone = 0;
  let lastAt = now();
  return (done) => {
    if (done <= lastDone) return false;
    const due = done === total || Math.floor(done / step) > Math.floor(lastDone / step) || now() - lastAt >= LINE_MODE_EVERY_MS;
    if (!due) return false;
    lastDone = done;
    lastAt = now();
    return true;
  };
}

/** A live line on `io.stderr` when it is an interactive terminal with a width, outside CI; counter lines otherwise. */
export function makeProgress(io: CliIO): Progress {
  const live = io.stderr.isTTY === true && io.env.CI === undefined && (io.stderr.columns ?? 0) > 0;
  return live ? liveProgress(io) : lineProgress(io);
}

function liveProgress(io: CliIO): Progress {
  let last = 0;
  let shown = false;
  // A live line is drawn with \r and erase-line, beneath the terminal guard; the label is escaped instead.
  const out = drawingStream(io.stderr);
  return {
    update(label, done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      out.write(`\r\u001b[2KReading ${escapeUnsafe(label)}: ${done}/${total}`);
    },
    done() {
      if (shown) out.write('\r\u001b[2K');
    },
  };
}

/** `Reading BR.x: 120/1000` lines for long reads (several brands may count at once, each on its own). */
function lineProgress(io: CliIO): Progress {
  const tickers = new Map<string, { total: number; due: (done: number) => boolean }>();
  return {
    update(label, done, total) {
      if (total < LINE_MODE_MIN_TOTAL) return;
      let t = tickers.get(label);
      if (t === undefined || t.total !== total) {
        t = { total, due: lineTicker(total) };
        tickers.set(label, t);
      }
      if (t.due(done)) io.stderr.write(`Reading ${label}: ${done}/${total}\n`);
    },
    done() {},
  };
}
