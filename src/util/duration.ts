// Durations as people type them on the command line (`30s`, `5m`, `10m`, `14d`).

import { RcsctlError } from '../errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** What the duration is for, in messages, and its upper bound. */
export interface DurationOptions {
  /** The option named in errors (default `--lock-timeout`). */
  option?: string;
  /** The largest duration accepted, in ms (default 24 h). */
  maxMs?: number;
}

/** Parse a duration like `0`, `500ms`, `30s`, `5m`, `1h` or `2d` into milliseconds (a bare number is seconds). */
export function parseDuration(text: string, opts: DurationOptions = {}): number {
  const option = opts.option ?? '--lock-timeout';
  const maxMs = opts.maxMs ?? UNIT_MS.h! * 24;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (m === null) throw new RcsctlError('E_USAGE', `${option} must be a duration like 0, 30s, 5m or 1h, not "${text}"`);
  const ms = Number(m[1]) * UNIT_MS[m[2] ?? 's']!;
  if (ms > maxMs) throw new RcsctlError('E_USAGE', `${option} is at most ${formatMax(maxMs)}, not "${text}"`);
  return Math.round(ms);
}

function formatMax(ms: number): string {
  return ms % UNIT_MS.d! === 0 && ms > UNIT_MS.h! * 24 ? `${ms / UNIT_MS.d!}d` : ms % UNIT_MS.h! === 0 ? `${ms / UNIT_MS.h!}h` : `${ms / 1000}s`;
}
