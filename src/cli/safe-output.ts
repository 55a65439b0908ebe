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

/** A stream that writes `terminalSafe` text to `target`; `raw` is the target, for the task-list renderer. */
export class SafeStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;

  constructor(
    readonly raw: OutStream,
    /** The run's secrets: whatever they hold is printed as `(sensitive)`. */
    private readonly redaction: Redaction,
  ) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    // Written through at once, so nothing is held back if the process exits next.
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.raw.write(terminalSafe(this.redaction.text(text)));
    done();
  }
}

/** The stream beneath a SafeStream (itself otherwise): for renderers that draw with cursor controls. */
export function rawStream(s: OutStream): OutStream {
  return s instanceof SafeStream ? s.raw : s;
}
