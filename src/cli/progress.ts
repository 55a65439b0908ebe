// Progress for long reads: a live line on a terminal, silence in CI or when
// stderr is not a terminal (so logs and captured output stay clean).

import type { CliIO } from './context.js';
import { escapeUnsafe, rawStream } from './safe-output.js';

/** A progress callback and a way to clear its line. */
export interface Progress {
  update(label: string, done: number, total: number): void;
  done(): void;
}

/** Progress on `io.stderr` when it is an interactive terminal outside CI. */
export function makeProgress(io: CliIO): Progress {
  const live = io.stderr.isTTY === true && io.env.CI === undefined;
  let last = 0;
  let shown = false;
  // A live line is drawn with \r and erase-line, beneath the terminal guard; the label is escaped instead.
  const out = rawStream(io.stderr);
  return {
    update(label, done, total) {
      if (!live) return;
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      out.write(`\r\u001b[2KReading ${escapeUnsafe(label)}: ${done}/${total}`);
    },
    done() {
      if (live && shown) out.write('\r\u001b[2K');
    },
  };
}
