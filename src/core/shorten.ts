// Long values as a reviewer sees them. A plan, a drift report or a preview that
// shows a 3 MB description shows its first and last characters, its length and
// a short hash instead: enough to recognise it and to compare it with the file,
// and no one scrolls through megabytes. Only views are shortened: the saved plan
// (`plan --out`) keeps every value whole, since apply sends it.

import { createHash } from 'node:crypto';
import { SENSITIVE } from '../util/redaction.js';

/** A string of more characters than this is shown shortened, in every view and every format. */
export const SHOWN_WHOLE = 300;
/** Characters kept from the start and the end of a shortened string. */
const HEAD = 100;
const TAIL = 40;

/** Sensitive values, longest first: replaced before a long text is cut, so a cut never shows part of one. */
let hidden: string[] = [];

/**
 * Never show `values` in part in a shortened text. The output guard hides a
 * whole value wherever it is printed, but a cut through one would print a part
 * it cannot recognise: so redaction goes first, then shortening. Process-wide,
 * like the guard it completes (the CLI calls it where it tells the guard).
 */
export function hideWhenShortening(values: readonly string[]): void {
  hidden = [...new Set([...hidden, ...values.filter((v) => v.length > 0)])].sort((a, b) => b.length - a.length);
}

/** Whether `text` is shown shortened. */
export function isLong(text: string): boolean {
  return text.length > SHOWN_WHOLE;
}

/**
 * The parts of a long text as shown: its start and end, its length and the
 * first 12 hex digits of its sha256, all of the text with its sensitive values
 * already replaced by `(sensitive)`. A hash or a length of the real text would
 * let anyone holding the rest of the manifest test guesses of a short secret
 * (a 6-digit PIN falls in seconds); of the text as shown, they say nothing of it.
 */
export function shortParts(text: string): { head: string; tail: string; length: number; hash: string } {
  let shown = text;
  for (const h of hidden) if (shown.includes(h)) shown = shown.split(h).join(SENSITIVE);
  let end = HEAD;
  if (isHighSurrogate(shown.charCodeAt(end - 1))) end--;
  let start = Math.max(end, shown.length - TAIL);
  if (isLowSurrogate(shown.charCodeAt(start))) start++;
  return { head: shown.slice(0, end), tail: shown.slice(start), length: shown.length, hash: createHash('sha256').update(shown).digest('hex').slice(0, 12) };
}

/** The note after a shortened text: `(3,145,728 characters, sha256 9f86d081e2a4)`. */
export function shortNote(p: { length: number; hash: string }): string {
  return `(${p.length.toLocaleString('en-US')} characters, sha256 ${p.hash})`;
}

/** `text` itself when short, else `start…end (N characters, sha256 …)`. */
export function shortText(text: string): string {
  if (!isLong(text)) return text;
  const p = shortParts(text);
  return `${p.head}…${p.tail} ${shortNote(p)}`;
}

/** `value` with every long string in it shortened (the same object when none is long, so a plan is not copied for nothing). */
export function shortenLong<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return isLong(value) ? shortText(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const w = walk(v);
      if (w !== v) (out ??= [...value])[i] = w;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const w = walk(v);
    if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = w;
  }
  return out ?? value;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
