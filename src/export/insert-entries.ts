// Adding entries to an existing manifest file without disturbing the rest of
// it. The file is read as YAML documents (the `yaml` package's Document API)
// only to find where each section starts and ends; the new entries are then
// spliced into the text there, so every other byte (comments, blank lines,
// quoting, flow style) stays as written. Each entry is appended to its
// section; a section the file lacks is placed among the others in the
// manifest's section order. The result is parsed again and must equal the old
// content plus the additions, or nothing is written.

import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, parseAllDocuments, type Pair, type YAMLMap } from 'yaml';
import { RcsctlError } from '../errors.js';
import type { Addition } from './adopt.js';
import { flowSmallMaps } from './write-export.js';

interface Splice {
  at: number;
  text: string;
  order: number;
}

/**
 * `text` (the manifest file `file`) with `additions` added to the document of
 * brand `brandId`. `sectionOrder` gives each known section's place;
 * `comment` goes above each added entry.
 */
export function insertEntries(text: string, file: string, brandId: string, additions: Addition[], sectionOrder: Map<string, number>, comment: string): string {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) throw new RcsctlError('E_MANIFEST', `${file} is not valid YAML; nothing was changed`);
  const index = docs.findIndex((d) => d.getIn(['brand', 'id']) === brandId);
  const doc = docs[index];
  if (doc === undefined || !isMap(doc.contents)) throw new RcsctlError('E_MANIFEST', `${file} has no document for brand ${brandId}; nothing was changed`);
  const root = doc.contents as YAMLMap;

  const splices: Splice[] = [];
  const sections = [...new Set(additions.map((a) => a.section))];
  for (const section of sections) {
    const entries = additions.filter((a) => a.section === section);
    const order = entries[0]?.order ?? 1000;
    const existing = root.get(section, true);
    if (isMap(existing) && !existing.flow && existing.items.length > 0 && existing.range) {
      for (const a of entries) if (existing.has(a.handle)) throw new RcsctlError('E_EXPORT_DECLARED', `${file} already has ${section}.${a.handle}; nothing was changed`);
      const first = existing.items[0] as Pair;
      const indent = isScalar(first.key) && first.key.range ? column(text, first.key.range[0]) : 2;
      const at = existing.range[2];
      const lead = text[at - 1] === '\n' ? '' : '\n';
      splices.push({ at, text: lead + entries.map((a) => '\n' + render(a, indent, comment)).join(''), order });
    } else if (existing === undefined) {
      const body = `${section}:\n${entries.map((a, i) => (i > 0 ? '\n' : '') + render(a, 2, comment)).join('')}`;
      splices.push(newSection(text, root, order, sectionOrder, body));
    } else {
      throw new RcsctlError('E_MANIFEST', `${file}: \`${section}:\` is empty or written in flow style; write it as a block map (or remove it) and run the command again; nothing was changed`);
    }
  }
  let out = text;
  // From the end of the file backwards, so earlier offsets stay valid; at one place, in section order.
  for (const s of splices.sort((a, b) => b.at - a.at || b.order - a.order)) out = out.slice(0, s.at) + s.text + out.slice(s.at);

  const after = parseAllDocuments(out);
  const expected = docs.map((d) => d.toJS() as unknown);
  const target = expected[index] as Record<string, Record<string, unknown> | undefined>;
  for (const a of additions) target[a.section] = { ...(target[a.section] ?? {}), [a.handle]: a.entry };
  if (!Array.isArray(after) || !isDeepStrictEqual(after.map((d) => d.toJS() as unknown), expected)) {
    throw new Error(`rcsctl: editing ${file} would change more than the added entries; nothing was changed`);
  }
  return out;
}

/** One entry as block YAML, indented by `indent`, with the comment above it. */
function render(a: Addition, indent: number, comment: string): string {
  const doc = new Document({ [a.handle]: a.entry });
  flowSmallMaps(doc);
  const pad = ' '.repeat(indent);
  const lines = [`# ${comment}`, ...doc.toString({ lineWidth: 0 }).replace(/\n$/, '').split('\n')];
  return lines.map((l) => (l === '' ? l : pad + l)).join('\n') + '\n';
}

/** Where a new section goes: before the first later section (and the comments above it), else at the end. */
function newSection(text: string, root: YAMLMap, order: number, sectionOrder: Map<string, number>, body: string): Splice {
  const next = root.items.find((p) => {
    const key = isScalar(p.key) ? String(p.key.value) : undefined;
    const o = key !== undefined ? sectionOrder.get(key) : undefined;
    return o !== undefined && o > order;
  });
  const keyStart = next !== undefined && isScalar(next.key) && next.key.range ? next.key.range[0] : undefined;
  if (keyStart === undefined) {
    const end = root.range ? root.range[2] : text.length;
    return { at: end, text: (text[end - 1] === '\n' ? '' : '\n') + '\n' + body, order };
  }
  let at = text.lastIndexOf('\n', keyStart - 1) + 1;
  // Comment lines right above the next section's key belong to it.
  for (;;) {
    const prev = text.lastIndexOf('\n', at - 2) + 1;
    if (at === 0 || !text.slice(prev, at).trimStart().startsWith('#')) break;
    at = prev;
  }
  return { at, text: body + '\n', order };
}

/** The column of `offset` in `text`. */
function column(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}
