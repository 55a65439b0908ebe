// The one redaction every writer goes through. A run's secrets (credentials in
// play, and values interpolated from sensitive variables) are collected in one
// `Redaction`; the terminal (src/cli/safe-output.ts, the task list and the live
// progress line included) and every file rcsctl writes (src/util/output-file.ts)
// pass their text through `text`, which finds each secret however a format
// escaped it (JSON, HTML, XML, Markdown, Mermaid, DOT, a URL) and prints
// `(sensitive)` instead, as it does for any `Bearer <credential>`. The API
// client (its trace and its errors), the controller's log and the diagnostics
// use the same class with the secrets they hold: one marker, one set of rules.
// Files that must keep a value usable (the saved plan, the live cache) hold
// `<sensitive:NAME:sha256>` in its place (`sealStrings`), restored only from a
// value the run knows again.

import { createHash } from 'node:crypto';

/** What is printed in place of a secret. */
export const SENSITIVE = '(sensitive)';

/** Values shorter than this are not searched for: they would match unrelated text. */
export const MIN_SECRET_LENGTH = 4;

/** A secret: the name shown for it (a variable, or a credential's label) and its value. */
export interface Secret {
  name: string;
  value: string;
}

/** A secret, and how to find it in text. */
interface Known extends Secret {
  /** Finds the value written in any escaping; undefined for a value no format escapes (plain search). */
  pattern?: RegExp;
  /** The longest run of letters and digits: text without it cannot hold the value. */
  probe: string;
}

/** The secrets of one run, and the redaction of text by them. */
export class Redaction {
  private known: Known[] = [];

  constructor(
    /** Told of each secret as it is added: for what must hide it beyond the doors (src/core/shorten.ts cuts long values). */
    private readonly onAdd: (added: Secret[]) => void = () => undefined,
  ) {}

  /** Redact these from now on; short or empty values are ignored. */
  add(secrets: Iterable<Secret>): void {
    const added: Secret[] = [];
    for (const s of secrets) {
      if (s.value.length < MIN_SECRET_LENGTH || this.known.some((k) => k.value === s.value)) continue;
      this.known.push(known(s));
      added.push({ name: s.name, value: s.value });
    }
    if (added.length === 0) return;
    // Longest first, so a secret inside another is not cut out of it first.
    this.known.sort((a, b) => b.value.length - a.value.length);
    this.onAdd(added);
  }

  /** The secrets known so far. */
  secrets(): Secret[] {
    return this.known.map(({ name, value }) => ({ name, value }));
  }

  /** `text` with every secret, in any escaping, and every Bearer credential replaced by `(sensitive)`. */
  text(text: string): string {
    let out = text;
    for (const k of this.known) {
      if (k.probe !== '' && !out.includes(k.probe)) continue;
      out = k.pattern === undefined ? out.split(k.value).join(SENSITIVE) : out.replace(k.pattern, SENSITIVE);
    }
    return /bearer/i.test(out) ? out.replace(BEARER, `$1${SENSITIVE}`) : out;
  }

  /** Whether `text` holds a secret in any escaping. */
  holds(text: string): boolean {
    return this.text(text) !== text;
  }
}

/**
 * A credential after `Bearer` (an Authorization header echoed in an error or a
 * trace), even one the run was never told: a run of token characters with at
 * least one digit or punctuation mark, so prose ("a valid bearer token is
 * required") is left alone.
 */
const BEARER = /\b(Bearer\s+)(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]+/gi;

/** Characters no format rcsctl writes escapes. */
const PLAIN = /^[A-Za-z0-9]$/;

function known(s: Secret): Known {
  const probe = (s.value.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  if ([...s.value].every((c) => PLAIN.test(c))) return { ...s, probe };
  const parts = [...s.value].map((c) => (PLAIN.test(c) ? c : escapedChar(c)));
  return { ...s, probe, pattern: new RegExp(parts.join(''), 'g') };
}

/**
 * A character as any format may write it: itself or an entity (HTML, XML,
 * Mermaid's `#quot;`), a JSON `\u` escape or percent-encoded UTF-8, after up to
 * three backslashes (JSON, DOT and Markdown escapes, nested); white space also
 * as a line break a format draws.
 */
function escapedChar(c: string): string {
  const forms = [
    c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
    '&#?[A-Za-z0-9]{1,8};',
    '#[A-Za-z0-9]{1,8};',
    '(?:\\\\u[0-9a-fA-F]{4}){1,2}',
    '(?:%[0-9a-fA-F]{2}){1,4}',
  ];
  if (/\s/.test(c)) forms.push('\\s+', '<br\\s*/?>', '\\\\[nrt]', '\\+');
  return `\\\\{0,3}(?:${forms.join('|')})`;
}

/** SHA-256 of a value, hex: what a sealed file keeps of it. */
export function secretHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const MARKER = /<sensitive:([A-Za-z_][A-Za-z0-9_ -]*):([0-9a-f]{64})>/g;

/** The marker a sealed file holds in place of `s`. */
export function sealMarker(s: Secret): string {
  return `<sensitive:${s.name.replace(/[^A-Za-z0-9_ -]/g, '_')}:${secretHash(s.value)}>`;
}

/**
 * `value` (any JSON value) with every secret in every string, object keys
 * included, replaced by its marker: for files that must keep the value usable
 * (a saved plan, the live cache) without holding it.
 */
export function sealStrings<T>(value: T, secrets: readonly Secret[]): T {
  const list = secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.value.length - a.value.length);
  if (list.length === 0) return value;
  return mapStrings(value, (text) => {
    let out = text;
    for (const s of list) if (out.includes(s.value)) out = out.split(s.value).join(sealMarker(s));
    return out;
  }) as T;
}

/**
 * `value` with every marker replaced by what `restore` gives for its name and
 * hash; `missing` names the markers it could not restore (they stay as they are).
 */
export function unsealStrings<T>(value: T, restore: (name: string, hash: string) => string | undefined): { value: T; missing: string[] } {
  const missing = new Set<string>();
  const out = mapStrings(value, (text) =>
    text.includes('<sensitive:')
      ? text.replace(MARKER, (whole, name: string, hash: string) => {
          const v = restore(name, hash);
          if (v === undefined) missing.add(name);
          return v ?? whole;
        })
      : text,
  ) as T;
  return { value: out, missing: [...missing] };
}

/** A restore for `unsealStrings` from the secrets a run knows: the value of that name whose hash matches. */
export function restoreFrom(secrets: readonly Secret[]): (name: string, hash: string) => string | undefined {
  return (name, hash) => secrets.find((s) => sealMarker(s) === `<sensitive:${name}:${hash}>`)?.value;
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapStrings(v, fn)]));
  return value;
}
