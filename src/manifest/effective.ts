// What a brand's documents add up to (issue 37): the effective manifest
// `rcsctl render` prints (bases, overrides, variables and generator rows
// resolved; every document of the brand merged into one), and, field by
// field, the file and line that set each value (`render --explain`). Generic:
// sections are the documents' keys, never a kind's name.

import { jsonPointer, offsetOf, position, type Place, type SourceDoc } from './source.js';

const FRAME = new Set(['apiVersion', 'kind', 'brand', 'prune']);

/** One brand's effective manifest: one Brand document, sections merged by key in load order. */
export function effectiveManifest(brandId: string, docs: readonly SourceDoc[]): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: 'rcsctl/v1', kind: 'Brand', brand: { id: brandId } };
  const prune: unknown[] = [];
  for (const src of docs) {
    const v = src.value as Record<string, unknown>;
    const key = (v.brand as { key?: unknown } | undefined)?.key;
    if (key !== undefined) (out.brand as Record<string, unknown>).key = key;
    for (const p of Array.isArray(v.prune) ? v.prune : []) if (!prune.includes(p)) prune.push(p);
  }
  if (prune.length > 0) out.prune = prune;
  for (const src of docs) {
    for (const [k, v] of Object.entries(src.value as Record<string, unknown>)) {
      if (FRAME.has(k)) continue;
      const had = out[k];
      out[k] = isMap(had) && isMap(v) ? { ...had, ...v } : v;
    }
  }
  return out;
}

/** One field of a resource and what set it. */
export interface Explained {
  /** JSON pointer in the effective manifest: `/autoReplies/welcome/body/title`. */
  path: string;
  value: unknown;
  /** Where the value is written, and how it got there (the brand's own text, a base, an override, a generator row). */
  at: Place;
  /** The variables the value interpolates, each with where it was given. */
  variables: { name: string; at: Place }[];
}

/**
 * Every field of the resource `section/key` of a brand, with the file and line
 * that set it; undefined when no document of the brand declares it.
 */
export function explainResource(docs: readonly SourceDoc[], section: string, key: string): Explained[] | undefined {
  const src = docs.find((d) => isMap((d.value as Record<string, unknown>)[section]) && key in ((d.value as Record<string, Record<string, unknown>>)[section] as object));
  if (src === undefined) return undefined;
  const out: Explained[] = [];
  const walk = (value: unknown, path: (string | number)[]): void => {
    if (isMap(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
      return;
    }
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((v, i) => walk(v, [...path, i]));
      return;
    }
    const pointer = jsonPointer(path);
    const placed = src.composed?.place(path);
    const at: Place = placed ?? { file: src.file, ...position(src.lines, offsetOf(src, path)), how: src.composed !== undefined ? 'base' : 'brand' };
    // An override replaced the base's text, and the variables in it.
    out.push({ path: pointer, value, at, variables: placed?.how === 'override' ? [] : [...(src.composed?.variables.get(pointer) ?? [])] });
  };
  walk((src.value as Record<string, Record<string, unknown>>)[section]?.[key], [section, key]);
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
