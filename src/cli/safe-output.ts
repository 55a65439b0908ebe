// Nothing hostile reaches a terminal: every byte the CLI writes passes through
// here, and control characters, escape sequences and bidirectional controls
// from manifests or from the service are shown as visible escapes (`\x1b`,
// `\u202e`) instead of acting on the terminal. Only the colour codes rcsctl
// itself emits (src/cli/style.ts, the diagnostics renderer) pass as they are.

import { Writable } from 'node:stream';
import { terminalSafe } from '../util/terminal-text.js';
import type { OutStream } from './context.js';

export { escapeUnsafe, terminalSafe } from '../util/terminal-text.js';

/** A stream that writes `terminalSafe` text to `target`; `raw` is the target, for the task-list renderer. */
export class SafeStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  constructor(readonly raw: OutStream) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    // Written through at once, so nothing is held back if the process exits next.
    this.raw.write(terminalSafe(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
    done();
  }
}

/** The stream beneath a SafeStream (itself otherwise): for renderers that draw with cursor controls. */
export function rawStream(s: OutStream): OutStream {
  return s instanceof SafeStream ? s.raw : s;
}
