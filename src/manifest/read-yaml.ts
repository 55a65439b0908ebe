// Reading manifest files safely: a size cap, bounded aliases, no custom tags,
// and every YAML problem as a diagnostic instead of an exception.

import { readFile, stat } from 'node:fs/promises';
import { isAlias, isNode, isScalar, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import { diagAtOffset, type SourceDoc } from './source.js';
import { checkBytes, checkRawText, deepNodeOffset, MAX_DEPTH } from './text-checks.js';
import type { Diagnostic } from './types.js';
import { yamlErrorDiagnostics } from './yaml-errors.js';

/**
 * A manifest file larger than this is refused before parsing. 8 MiB holds a
 * brand of 10,000 auto-replies in one file (about 2.3 MB when each is a speech
 * bubble with a chip). Parsing keeps the YAML node tree for positions, which
 * costs memory: `rcsctl validate` of one file peaked at about 300 MB for 2.3 MB
 * and 770 MB for 8 MB (whole process, measured with /usr/bin/time; see
 * bench/README.md). The alias and custom-tag limits below still apply.
 */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

/** Alias expansions allowed per document; stops "billion laughs" documents. */
export const MAX_ALIAS_COUNT = 100;

// Only the YAML 1.2 core tags; anything else (`!foo`, `!!binary`, `!!js/function`)
// would make the data mean something the schema does not describe.
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** What reading one manifest file gives: its parsed documents and any problems. */
export interface ReadResult {
  docs: SourceDoc[];
  diagnostics: Diagnostic[];
}

/** Read and parse one manifest file; never throws. */
export async function readManifestFile(absPath: string, file: string): Promise<ReadResult> {
  const none = new LineCounter();
  try {
    const info = await stat(absPath);
    if (info.size > MAX_MANIFEST_BYTES) {
      return { docs: [], diagnostics: [diagAtOffset(file, none, 'RCS105', 0, `manifest is ${info.size} bytes; the maximum is ${MAX_MANIFEST_BYTES}`)] };
    }
    const bytes = await readFile(absPath);
    // Invalid UTF-8 is an error with its position, never a silent U+FFFD.
    const invalid = checkBytes(bytes, file);
    if (invalid.length > 0) return { docs: [], diagnostics: invalid };
    return parseManifestText(bytes.toString('utf8'), absPath, file);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return { docs: [], diagnostics: [diagAtOffset(file, none, 'RCS100', 0, `cannot read manifest (${reason})`)] };
  }
}

/** Parse manifest text into documents with positions; never throws. */
export function parseManifestText(text: string, absPath: string, file: string): ReadResult {
  const diagnostics: Diagnostic[] = [];
  const lines = new LineCounter();
  if (text.length > MAX_MANIFEST_BYTES) {
    return { docs: [], diagnostics: [diagAtOffset(file, lines, 'RCS105', 0, `manifest is over ${MAX_MANIFEST_BYTES} bytes`)] };
  }
  // NUL and deep nesting are found before the parser sees the text; positions
  // need the line starts, which the parser would otherwise have recorded.
  if (text.includes('\u0000') || /[[{\-]/.test(text)) {
    const counted = new LineCounter();
    counted.addNewLine(0);
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) counted.addNewLine(at + 1);
    const raw = checkRawText(text, file, counted);
    if (raw.length > 0) return { docs: [], diagnostics: raw };
  }
  let parsed: Document.Parsed[];
  try {
    const all = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false, merge: false });
    // An empty stream comes back as an empty array.
    parsed = [...all];
  } catch (err) {
    return { docs: [], diagnostics: [diagAtOffset(file, lines, 'RCS101', 0, `cannot parse YAML: ${(err as Error).message}`)] };
  }
  const docs: SourceDoc[] = [];
  for (const doc of parsed) {
    const duplicates = duplicateKeys(doc);
    if (doc.errors.length > 0 || duplicates.length > 0) {
      diagnostics.push(...yamlErrorDiagnostics(doc.errors, text, file, lines));
      for (const offset of duplicates) diagnostics.push(diagAtOffset(file, lines, 'RCS102', offset, 'Map keys must be unique'));
      continue;
    }
    const tagDiags = customTags(doc, file, lines);
    if (tagDiags.length > 0) {
      diagnostics.push(...tagDiags);
      continue;
    }
    const deep = deepNodeOffset(doc);
    if (deep >= 0) {
      diagnostics.push(diagAtOffset(file, lines, 'RCS112', deep, `nesting deeper than ${MAX_DEPTH} levels; a manifest needs about 10`));
      continue;
    }
    // An empty document (`---` alone) says nothing.
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      const offset = firstAliasOffset(doc);
      diagnostics.push(diagAtOffset(file, lines, 'RCS104', offset, `too many alias expansions (limit ${MAX_ALIAS_COUNT}): ${firstLine((err as Error).message)}`));
      continue;
    }
    docs.push({ file, absPath, text, lines, doc, value });
  }
  return { docs, diagnostics };
}

// The parser's own duplicate-key check scans the map for every key (O(K²) for
// a map of K keys: seconds for a brand of 10,000 auto-replies), so keys are
// checked here, once per map, with a set. Same rule: scalar keys are equal when
// their values are.
function duplicateKeys(doc: Document.Parsed): number[] {
  const out: number[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key: unknown = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) out.push((pair.key as Node | null)?.range?.[0] ?? map.range?.[0] ?? 0);
        else seen.add(key);
      }
    },
  });
  return out;
}

function customTags(doc: Document.Parsed, file: string, lines: LineCounter): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(doc, (_key, node) => {
    if (isNode(node) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      out.push(diagAtOffset(file, lines, 'RCS103', node.range?.[0] ?? 0, `custom tag ${node.tag} is refused; manifests use plain YAML values`));
    }
  });
  return out;
}

function firstAliasOffset(doc: Document.Parsed): number {
  let offset = doc.contents?.range?.[0] ?? 0;
  let found = false;
  visit(doc, (_key, node) => {
    if (!found && isAlias(node) && node.range) {
      offset = node.range[0];
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return offset;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
