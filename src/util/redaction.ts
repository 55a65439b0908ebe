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
// `<sensitive:NAME:KEYID:HMAC>` in its place (`sealStrings`): keyed, so the
// file is no oracle for guesses (src/util/seal-key.ts), and restored only
// from a value the run knows again.

import type { SealKey } from './seal-key.js';

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

/**
 * A sealed value: `<sensitive:NAME:KEYID:HMAC>`. Files written before sealing
 * was keyed hold `<sensitive:NAME:SHA256>`, matched too (keyId undefined) so
 * that they are refused rather than sent with the marker in place.
 */
const MARKER = /<sensitive:([A-Za-z_][A-Za-z0-9_ -]*):(?:([0-9a-f]{8}):)?([0-9a-f]{64})>/g;

/** A key given now, or made when first needed (a file without secrets never asks for one). */
export type KeySource = SealKey | (() => SealKey);

function keyOf(source: KeySource): SealKey {
  return typeof source === 'function' ? source() : source;
}

/** The marker a sealed file holds in place of `s`: an HMAC of the value under `key` (src/util/seal-key.ts), never a plain hash. */
export function sealMarker(s: Secret, key: SealKey): string {
  return `<sensitive:${s.name.replace(/[^A-Za-z0-9_ -]/g, '_')}:${key.id}:${key.mac(`value\0${s.value}`)}>`;
}

/** Whether `mac` (from a marker) is the MAC of `value` under `key`. */
export function sealedIs(value: string, mac: string, key: SealKey): boolean {
  return key.mac(`value\0${value}`) === mac;
}

/**
 * `value` (any JSON value) with every secret in every string, object keys
 * included, replaced by its marker: for files that must keep the value usable
 * (a saved plan, the live cache) without holding it. The key is asked for only
 * when a secret is found.
 */
export function sealStrings<T>(value: T, secrets: readonly Secret[], key: KeySource): T {
  const list = secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.value.length - a.value.length);
  if (list.length === 0) return value;
  const markers = new Map<Secret, string>();
  const marker = (s: Secret): string => {
    let m = markers.get(s);
    if (m === undefined) markers.set(s, (m = sealMarker(s, keyOf(key))));
    return m;
  };
  return mapStrings(value, (text) => {
    let out = text;
    for (const s of list) if (out.includes(s.value)) out = out.split(s.value).join(marker(s));
    return out;
  }) as T;
}

/**
 * `value` with every marker replaced by what `restore` gives for its name, key
 * id (undefined in an unkeyed marker) and MAC; `missing` names the markers it
 * could not restore (they stay as they are).
 */
export function unsealStrings<T>(value: T, restore: (name: string, keyId: string | undefined, mac: string) => string | undefined): { value: T; missing: string[] } {
  const missing = new Set<string>();
  const out = mapStrings(value, (text) =>
    text.includes('<sensitive:')
      ? text.replace(MARKER, (whole, name: string, keyId: string | undefined, mac: string) => {
          const v = restore(name, keyId, mac);
          if (v === undefined) missing.add(name);
          return v ?? whole;
        })
      : text,
  ) as T;
  return { value: out, missing: [...missing] };
}

/** A restore for `unsealStrings` from the secrets a run knows: the value of that name sealed under `key` to that MAC. */
export function restoreFrom(secrets: readonly Secret[], key: KeySource): (name: string, keyId: string | undefined, mac: string) => string | undefined {
  return (name, keyId, mac) => {
    const k = keyOf(key);
    if (keyId !== k.id) return undefined;
    return secrets.find((s) => s.name.replace(/[^A-Za-z0-9_ -]/g, '_') === name && sealedIs(s.value, mac, k))?.value;
  };
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapStrings(v, fn)]));
  return value;
}
