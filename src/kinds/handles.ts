// Local handles for exported resources, derived from their names: slugged to
// the manifest's handle pattern, unique within a section, and stable (the same
// live brand always gives the same handles, because ties are broken in id order).
// Hangul is romanised first (Revised Romanization), so a Korean name gives a
// readable handle as an English one does, not `reply-<id>`.

import { createRequire } from 'node:module';

/** The manifest's handle pattern (schemas/manifest.schema.json, definitions.handle): ASCII letters, so Hangul cannot stay as it is. */
export const HANDLE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MAX = 64;

/** Hangul syllables and jamo (compatibility and conjoining). */
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/;

let romanizer: ((text: string) => string) | undefined;

/**
 * `영업 시간` → `yeongeop sigan`, by the Revised Romanization of Korean with its
 * sound changes (es-hangul's `romanize`); text without Hangul is returned as it is.
 * The library is loaded on the first Hangul name only: most runs never export.
 */
export function romanise(text: string): string {
  if (!HANGUL.test(text)) return text;
  romanizer ??= (createRequire(import.meta.url)('es-hangul') as { romanize: (text: string) => string }).romanize;
  return romanizer(text);
}

/** `Today's menu` → `todays-menu`, `오늘의 메뉴` → `oneurui-menyu`; empty when nothing usable is left. */
export function slug(name: string): string {
  // Romanised before NFKD, which would split each syllable into its jamo.
  return romanise(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, MAX - 4)
    .replace(/-+$/, '');
}

/**
 * Assign handles to `items` (sorted by id first, so the result is stable):
 * the slug of the name, else `<fallback>-<slug of id>`, with `-2`, `-3`… on clashes.
 */
export function assignHandles<T>(items: T[], id: (t: T) => string, name: (t: T) => string, fallback: string): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const item of [...items].sort((a, b) => id(a).localeCompare(id(b)))) {
    const base = slug(name(item)) || `${fallback}-${slug(`x${id(item)}`).slice(1) || 'item'}`.slice(0, MAX - 4);
    let handle = base;
    for (let n = 2; taken.has(handle); n++) handle = `${base}-${n}`;
    taken.add(handle);
    out.set(id(item), handle);
  }
  return out;
}

/** Values that occur more than once (names that cannot identify one object). */
export function shared(values: string[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return twice;
}
