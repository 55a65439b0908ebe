// Reading manifest files safely: a size cap, bounded aliases, no custom tags,
// and every YAML problem as a diagnostic instead of an exception.
//
// Two readers. The fast one (js-yaml's event parser) builds plain values and
// takes the text only when it is plain data: no tag, anchor, alias or
// directive, every map key text, nothing too deep. Anything else, and any
// text it refuses, goes to the full reader (the `yaml` package's document
// tree), whose diagnostics are the ones users see. The full reader's tree also
// gives every position; for text the fast reader took it is built only when a
// position is first asked for (a diagnostic), so a clean load never builds it.

import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';
import type { Event } from 'js-yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { BRAND_ID } from './owners.js';
import { ParseCache, type PlainDocument } from './parse-cache.js';
import { diagAtOffset, keyPath, lineIndex, type SourceDoc } from './source.js';
import { checkBytes, checkRawText, deepNodeOffset, MAX_DEPTH } from './text-checks.js';
import type { Diagnostic } from './types.js';
import { yamlErrorDiagnostics } from './yaml-errors.js';
import { yamlLib } from './yaml-lib.js';

/**
 * A manifest file larger than this is refused before parsing. 8 MiB holds a
 * brand of 10,000 auto-replies in one file (about 2.3 MB when each is a speech
 * bubble with a chip). Plain data costs little memory (the fast reader builds
 * values only: `rcsctl validate` of that 2.3 MB file peaked at about 145 MB,
 * whole process, /usr/bin/time); text that needs the full reader keeps its
 * YAML node tree, which peaked at about 300 MB for 2.3 MB and 770 MB for 8 MB
 * (see bench/README.md). The alias and custom-tag limits below still apply.
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
  /** Brand ids that documents left out for YAML errors declare above their first error (whose brand the error is). */
  declared?: string[];
}

/** The full reader's options: duplicate keys are checked here (duplicateKeys), merge keys are plain keys. */
const FULL_OPTIONS = { prettyErrors: false, uniqueKeys: false, merge: false } as const;

/**
 * Read and parse one manifest file; never throws. With `cache`, unchanged text
 * the fast reader took before is served from it (parse-cache.ts), and what the
 * fast reader takes now is staged for it.
 */
export async function readManifestFile(absPath: string, file: string, cache?: ParseCache): Promise<ReadResult> {
  const none = lineIndex('');
  try {
    const info = await stat(absPath);
    if (info.size > MAX_MANIFEST_BYTES) {
      return { docs: [], diagnostics: [diagAtOffset(file, none, 'RCS105', 0, `manifest is ${info.size} bytes; the maximum is ${MAX_MANIFEST_BYTES}`)] };
    }
    const bytes = await readFile(absPath);
    // Invalid UTF-8 is an error with its position, never a silent U+FFFD.
    const invalid = checkBytes(bytes, file);
    if (invalid.length > 0) return { docs: [], diagnostics: invalid };
    const text = bytes.toString('utf8');
    if (cache === undefined) return parseManifestText(text, absPath, file);
    const sha256 = ParseCache.hash(bytes);
    const kept = cache.get(absPath, sha256);
    if (kept !== undefined) return { docs: lazyDocs(text, absPath, file, kept), diagnostics: [] };
    return parseManifestText(text, absPath, file, (plain) => cache.stage(absPath, sha256, plain));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return { docs: [], diagnostics: [diagAtOffset(file, none, 'RCS100', 0, `cannot read manifest (${reason})`)] };
  }
}

/** Parse manifest text into documents with positions; never throws. `tookPlain` is given what the fast reader took, when it took the text. */
export function parseManifestText(text: string, absPath: string, file: string, tookPlain?: (plain: PlainDocument[]) => void): ReadResult {
  const diagnostics: Diagnostic[] = [];
  if (text.length > MAX_MANIFEST_BYTES) {
    return { docs: [], diagnostics: [diagAtOffset(file, lineIndex(''), 'RCS105', 0, `manifest is over ${MAX_MANIFEST_BYTES} bytes`)] };
  }
  // NUL and deep nesting are found before the parser sees the text; positions
  // need the line starts, which the parser would otherwise have recorded.
  if (text.includes('\u0000') || /[[{\-]/.test(text)) {
    const raw = checkRawText(text, file, lineIndex(text));
    if (raw.length > 0) return { docs: [], diagnostics: raw };
  }
  const plain = plainDocuments(text);
  if (plain !== undefined) {
    // Staged before anything (interpolation) changes the values in place.
    tookPlain?.(plain);
    return { docs: lazyDocs(text, absPath, file, plain), diagnostics };
  }
  const { isScalar, parseAllDocuments } = yamlLib();
  const lines = new (yamlLib().LineCounter)();
  let parsed: Document.Parsed[];
  try {
    const all = parseAllDocuments(text, { lineCounter: lines, ...FULL_OPTIONS });
    // An empty stream comes back as an empty array.
    parsed = [...all];
  } catch (err) {
    return { docs: [], diagnostics: [diagAtOffset(file, lines, 'RCS101', 0, `cannot parse YAML: ${(err as Error).message}`)] };
  }
  const docs: SourceDoc[] = [];
  let declared: string[] | undefined;
  for (const doc of parsed) {
    const duplicates = duplicateKeys(doc);
    if (doc.errors.length > 0 || duplicates.length > 0) {
      const found = [...yamlErrorDiagnostics(doc.errors, text, file, lines), ...duplicates.map((offset) => diagAtOffset(file, lines, 'RCS102', offset, 'Map keys must be unique'))];
      diagnostics.push(...found);
      const id = idAbove(doc, lines, Math.min(...found.map((d) => d.line)));
      if (id !== undefined) (declared ??= []).push(id);
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
  return declared !== undefined ? { docs, diagnostics, declared } : { docs, diagnostics };
}

/**
 * The `brand.id` of a document that has errors, when it reads as a brand id
 * on a line above `firstErrorLine`: the text above the first error parses as
 * written, so the error is that brand's (one broken brand fails alone).
 */
function idAbove(doc: Document.Parsed, lines: LineCounter, firstErrorLine: number): string | undefined {
  const node = doc.getIn(['brand', 'id'], true) as Node | undefined;
  if (node === undefined || !yamlLib().isScalar(node) || typeof node.value !== 'string' || !BRAND_ID.test(node.value)) return undefined;
  const end = node.range?.[1];
  return end !== undefined && lines.linePos(end).line < firstErrorLine ? node.value : undefined;
}

/**
 * A plain map key the YAML 1.2 core schema reads as something other than a
 * string (null, a boolean, a number): the full reader keeps its type (a
 * chatbot id written unquoted loses its leading zero; RCS214 says so).
 */
const NON_STRING_KEY = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|__proto__)?$/;

/**
 * Text the fast reader leaves alone, where the two readers were seen to
 * differ: a tab anywhere (the full reader refuses tabs as indentation), a
 * block scalar with an explicit indentation indicator (`|2`) or keeping its
 * trailing lines (`|+`: blank lines at the end of the file), and an indented
 * `---` or `...` (text to the full reader, a document marker to js-yaml), and
 * a `%` starting a word (the full reader refuses a plain value starting so),
 * text right after a closing `]` or `}` (js-yaml took `- []k: v` in a
 * block; the `}` of `${env:NAME}` is text, not a flow collection), and a
 * carriage return not followed by a newline (lines are counted at `\n`).
 */
const FULL_READER_ONLY = /\r(?!\n)|\t|(?:^|\s)[|>](?:[-+]?[1-9]|[1-9]?\+)|^[ ]+(?:---|\.\.\.)(?:\s|$)|(?:^|[\s[{,])%|(?:\]|(?<!\$\{[^}\n]*)\})[^\s,\]}:#]/m;

/** What may follow a closing quote: nothing, a space or line end, a flow separator, or a key's colon. */
const AFTER_QUOTE = /^(?:|[\s,\]}:])$/;

/**
 * A plain value that starts its own line below a line holding a comment
 * (`a:` `#x` ` b`): the full reader joins it with the next lines into one
 * key, or into one longer string, where js-yaml reads the value `b`.
 */
function afterCommentLine(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (text.slice(lineStart, start).trim() !== '' || lineStart === 0) return false;
  const above = text.slice(0, lineStart - 1).replace(/(?:\n[ \r]*)+$/, '');
  return above.slice(above.lastIndexOf('\n') + 1).includes('#');
}

/** Floats as the full reader reads them: one too large for a double is Infinity, not a string. */
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

let fast: { lib: typeof JsYaml; schema: JsYaml.Schema } | undefined;

/**
 * js-yaml and the schema the fast reader uses, loaded on the first parse: a
 * run whose manifests all come from the parse cache (parse-cache.ts) never
 * loads it (its module alone is 130 kB, about 40 ms of a cold process).
 */
function fastReader(): { lib: typeof JsYaml; schema: JsYaml.Schema } {
  if (fast === undefined) {
    const lib = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
    const { CORE_SCHEMA, defineScalarTag, floatCoreTag, NOT_RESOLVED } = lib;
    const schema = CORE_SCHEMA.withTags(
      defineScalarTag('tag:yaml.org,2002:float', {
        ...floatCoreTag,
        resolve: (source, explicit, tag) => {
          const value = floatCoreTag.resolve(source, explicit, tag);
          return value === NOT_RESOLVED && FLOAT.test(source) ? parseFloat(source) : value;
        },
      }),
    );
    fast = { lib, schema };
  }
  return fast;
}

/**
 * The values of the non-empty documents of `text`, when it is plain data the
 * fast reader takes whole; undefined sends it to the full reader. Plain data:
 * no directive, tag, anchor or alias; every map key a scalar that reads as a
 * string; no node deeper than MAX_DEPTH; and no error from js-yaml (a
 * duplicate key among them). Scalars resolve by the YAML 1.2 core schema, as
 * the full reader's do (test/manifest/yaml-readers.test.ts compares the two).
 */
export function plainValues(text: string): unknown[] | undefined {
  return plainDocuments(text)?.map((d) => d.value);
}

/** plainValues, with each document's key offsets (SourceDoc.keyOffsets). */
function plainDocuments(text: string): PlainDocument[] | undefined {
  if (FULL_READER_ONLY.test(text)) return undefined;
  const { lib, schema } = fastReader();
  const { EVENT_ID, SCALAR_STYLE } = lib;
  let events: Event[];
  try {
    events = lib.parseEvents(text, {});
  } catch {
    return undefined;
  }
  // Per open collection: is it a map, how many nodes it holds so far (keys and
  // values alternate), its path while within the top two levels, and its last key.
  const open: { map: boolean; n: number; path?: string[]; key?: string }[] = [];
  const offsets: Map<string, number>[] = [];
  let depth = 0;
  for (const e of events) {
    switch (e.type) {
      case EVENT_ID.DOCUMENT:
        if (e.directives.length > 0) return undefined;
        open.push({ map: false, n: 0, path: [] });
        offsets.push(new Map());
        continue;
      case EVENT_ID.POP:
        if (open.pop() !== undefined && open.length > 0) depth = Math.max(0, depth - 1);
        continue;
      case EVENT_ID.ALIAS:
        return undefined;
      default:
    }
    if (e.anchorStart >= 0 || e.tagStart >= 0) return undefined;
    const parent = open[open.length - 1];
    const isKey = parent !== undefined && parent.map && parent.n % 2 === 0;
    if (parent !== undefined) parent.n++;
    if (e.type === EVENT_ID.SCALAR) {
      // A document that is one scalar is no manifest: the full reader says so.
      if (!(parent?.map ?? true) && open.length === 1 && e.valueStart >= 0) return undefined;
      if (isKey && e.style === SCALAR_STYLE.PLAIN && (e.valueStart < 0 || !e.fast || NON_STRING_KEY.test(text.slice(e.valueStart, e.valueEnd)))) return undefined;
      if (depth + 1 > MAX_DEPTH) return undefined;
      // Text right after a closing quote (`- 'x'k: 1`): js-yaml reads `k` as a new key, the full reader refuses it.
      if ((e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED) && !AFTER_QUOTE.test(text.charAt(e.valueEnd + 1))) return undefined;
      if (!isKey && e.style === SCALAR_STYLE.PLAIN && e.valueStart >= 0 && afterCommentLine(text, e.valueStart)) return undefined;
      if (isKey && parent?.path !== undefined) {
        // A key written as it reads: it starts at its first character, or at its opening quote.
        const quoted = e.style === SCALAR_STYLE.SINGLE_QUOTED || e.style === SCALAR_STYLE.DOUBLE_QUOTED;
        parent.key = e.fast && (quoted || e.style === SCALAR_STYLE.PLAIN) ? text.slice(e.valueStart, e.valueEnd) : undefined;
        if (parent.key !== undefined) offsets[offsets.length - 1]?.set(keyPath([...parent.path, parent.key]), quoted ? e.valueStart - 1 : e.valueStart);
      }
      continue;
    }
    // A sequence or a map: never a key, never deeper than the limit.
    if (isKey || ++depth > MAX_DEPTH) return undefined;
    const path = parent?.path === undefined ? undefined : parent.map ? (parent.key !== undefined && parent.path.length === 0 ? [parent.key] : undefined) : parent.path;
    open.push(path !== undefined && e.type === EVENT_ID.MAPPING ? { map: true, n: 0, path } : { map: e.type === EVENT_ID.MAPPING, n: 0 });
  }
  let values: unknown[];
  try {
    values = lib.constructFromEvents(events, { source: text, schema });
  } catch {
    return undefined;
  }
  // An empty document (`---` alone, or `~`) says nothing.
  return values.flatMap((value, i) => (value === null || value === undefined ? [] : [{ value, keyOffsets: offsets[i] ?? new Map<string, number>() }]));
}

/**
 * Documents the fast reader took: the value and the line index now (the keys
 * of the top two levels have their offsets, so each resource's location needs
 * no tree); the full reader's tree on first use, one parse for the whole file.
 */
function lazyDocs(text: string, absPath: string, file: string, plain: PlainDocument[]): SourceDoc[] {
  let tree: Document.Parsed[] | undefined;
  const full = (): Document.Parsed[] => {
    if (tree === undefined) {
      const { isScalar, parseAllDocuments } = yamlLib();
      // The same non-empty documents, in the same order, as the fast reader gave.
      tree = [...parseAllDocuments(text, FULL_OPTIONS)].filter((d) => !(d.contents === null || (isScalar(d.contents) && d.contents.value === null)));
    }
    return tree;
  };
  const lines = lineIndex(text);
  return plain.map(({ value, keyOffsets, checkedBefore }, i) => ({
    file,
    absPath,
    text,
    value,
    lines,
    keysAreText: true,
    keyOffsets,
    ...(checkedBefore === true ? { checkedBefore } : {}),
    get doc() {
      // The full reader always finds as many documents; an empty one is only a guard.
      return full()[i] ?? yamlLib().parseDocument('');
    },
  }));
}

// The parser's own duplicate-key check scans the map for every key (O(K²) for
// a map of K keys: seconds for a brand of 10,000 auto-replies), so keys are
// checked here, once per map, with a set. Same rule: scalar keys are equal when
// their values are.
function duplicateKeys(doc: Document.Parsed): number[] {
  const { isScalar, visit } = yamlLib();
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
  const { isNode, visit } = yamlLib();
  const out: Diagnostic[] = [];
  visit(doc, (_key, node) => {
    if (isNode(node) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      out.push(diagAtOffset(file, lines, 'RCS103', node.range?.[0] ?? 0, `custom tag ${node.tag} is refused; manifests use plain YAML values`));
    }
  });
  return out;
}

function firstAliasOffset(doc: Document.Parsed): number {
  const { isAlias, visit } = yamlLib();
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
