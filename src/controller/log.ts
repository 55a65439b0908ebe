// One line per event on the given stream: JSON (`--log-format json`, the
// default) or `time level event key=value` text. Every line goes through the
// run's one redaction (src/util/redaction.ts) with every secret the controller
// knows (the service token, the webhook token, brand keys, sensitive manifest
// values), and any Bearer credential, so no secret reaches a log.

import type { Writable } from 'node:stream';
import type { Redaction } from '../util/redaction.js';

/** How lines are written. */
export type LogFormat = 'json' | 'text';

/** Writes one event per line. */
export type Log = (level: 'info' | 'warn' | 'error', event: string, fields?: Record<string, unknown>) => void;

/** A logger on `out` in `format`, scrubbed by `redaction`. */
export function makeLog(out: Writable, format: LogFormat, redaction: Redaction, now: () => Date = () => new Date()): Log {
  return (level, event, fields = {}) => {
    const time = now().toISOString();
    const line =
      format === 'json'
        ? JSON.stringify({ time, level, event, ...fields })
        : `${time} ${level} ${event}${Object.entries(fields)
            .map(([k, v]) => ` ${k}=${typeof v === 'string' ? (/[\s"=]/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`)
            .join('')}`;
    out.write(redaction.text(line) + '\n');
  };
}
