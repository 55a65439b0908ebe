// Nothing hostile reaches a terminal: every byte the CLI writes passes through
// here, and control characters, escape sequences and bidirectional controls
// from manifests or from the service are shown as visible escapes (`\x1b`,
// `\u202e`) instead of acting on the terminal. Only the colour codes rcsctl
// itself emits (src/render/style.ts, the diagnostics renderer) pass as they are.
// Both streams share the run's Redaction (src/util/redaction.ts), the one
// every output file goes through too: no secret is printed, in any escaping.

import { Writable } from 'node:stream';
import type { Redaction } from '../util/redaction.js';
import { terminalSafe } from '../util/terminal-text.js';
import type { OutStream } from './context.js';

export { escapeUnsafe, terminalSafe } from '../util/terminal-text.js';

/** A stream that writes `terminalSafe` text to `target`; `drawing` writes to it redacted only, for the renderers that draw. */
export class SafeStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  /** The same target behind the redaction but not the terminal guard (see `drawingStream`). */
  readonly drawing: DrawingStream;

  constructor(
    readonly raw: OutStream,
    /** The run's secrets: whatever they hold is printed as `(sensitive)`. */
    private readonly redaction: Redaction,
  ) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
    this.drawing = new DrawingStream(raw, redaction);
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    // Written through at once, so nothing is held back if the process exits next;
    // through `drawing`, so that while the task list holds the terminal (listr2
    // buffers what its stream is given) these lines wait their turn as well.
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.drawing.write(terminalSafe(this.redaction.text(text)));
    done();
  }
}

/**
 * A terminal writer for what draws with cursor controls (the task list, the
 * live progress line, the confirmation prompt): its control sequences pass,
 * since the caller escapes the text it draws (`escapeUnsafe`), but every
 * byte still goes through the run's redaction. Its size is the terminal's,
 * as own properties, because listr2 copies the stream's fields it draws by.
 */
export class DrawingStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  readonly rows: number | undefined;

  constructor(
    private readonly target: OutStream,
    private readonly redaction: Redaction,
  ) {
    super({ decodeStrings: false });
    this.isTTY = target.isTTY;
    this.columns = target.columns;
    this.rows = (target as { rows?: number }).rows;
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.target.write(this.redaction.text(text));
    done();
  }
}

/** Where a renderer that draws with cursor controls writes: past the terminal guard, never past the redaction. */
export function drawingStream(s: OutStream): OutStream & { rows?: number } {
  return s instanceof SafeStream ? s.drawing : s;
}
