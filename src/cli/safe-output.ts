// Nothing hostile reaches a terminal: every byte the CLI writes passes through
// here, and control characters, escape sequences and bidirectional controls
// from manifests or from the service are shown as visible escapes (`\x1b`,
// `\u202e`) instead of acting on the terminal. Only the colour codes rcsctl
// itself emits (src/render/style.ts, the diagnostics renderer) pass as they are.

import { Writable } from 'node:stream';
import { hideWhenShortening } from '../core/shorten.js';
import { terminalSafe } from '../util/terminal-text.js';
import type { OutStream } from './context.js';

export { escapeUnsafe, terminalSafe } from '../util/terminal-text.js';

/** A stream that writes `terminalSafe` text to `target`; `raw` is the target, for the task-list renderer. */
export class SafeStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  /** Texts never to print, longest first (sensitive values, and their JSON-escaped forms). */
  private hidden: string[] = [];

  /** From now on, print every occurrence of each of `values` as `(sensitive)`. */
  hide(values: readonly string[]): void {
    const forms = values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]).filter((v) => v.length >= 4);
    this.hidden = [...new Set([...this.hidden, ...forms])].sort((a, b) => b.length - a.length);
  }

  constructor(readonly raw: OutStream) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    // Written through at once, so nothing is held back if the process exits next.
    let text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    for (const h of this.hidden) if (text.includes(h)) text = text.split(h).join('(sensitive)');
    this.raw.write(terminalSafe(text));
    done();
  }
}

/** The stream beneath a SafeStream (itself otherwise): for renderers that draw with cursor controls. */
export function rawStream(s: OutStream): OutStream {
  return s instanceof SafeStream ? s.raw : s;
}

/** Hide `values` in everything `io` prints from now on (both streams), and in every shortened long value (redacted before it is cut). */
export function hideInOutput(io: { stdout: OutStream; stderr: OutStream }, values: readonly string[]): void {
  hideWhenShortening(values);
  for (const s of [io.stdout, io.stderr]) if (s instanceof SafeStream) s.hide(values);
}
