// What the fast YAML reader made of each manifest file, kept between runs in
// the cache directory (beside the live cache), so a repeat run of unchanged
// manifests reads JSON instead of YAML: for 1,000 auto-replies (230 kB) the
// YAML costs about 100 ms of CPU on a cold process, the JSON a few ms.
//
// An entry is a pure function of the file's bytes and of the reader's code:
// it is keyed by the manifest's path (one entry per path, so the directory
// does not grow as a file is edited), and served only for the same SHA-256 of
// the bytes read by the same reader (rcsctl's version, and a hash of the
// reader's own built modules, so a changed reader never takes an old entry).
// Everything after parsing (interpolation, schema, files, references, lint,
// credentials) runs on the served values exactly as on freshly parsed ones.
// Only text the fast reader took whole is kept (the full reader keeps its node
// tree), and only plain JSON values (no infinity, no NaN, no -0). Entries are
// written after the load, for files that produced no diagnostic, and never for
// a document with a literal `brand.key` (only `${env:NAME}` is kept) or with a
// value the run holds secret written out (a credential, or a sensitive
// variable's value): the cache holds neither. Such a file is parsed each time.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePrivateFileAtomic } from '../util/atomic-write.js';
import { VERSION } from '../version.js';

/** A document the fast reader took: its value, and where its top two levels of keys start. */
export interface PlainDocument {
  value: unknown;
  keyOffsets: Map<string, number>;
  /** From the cache: the entry was kept clean, and nothing in the value is interpolated (SourceDoc.checkedBefore). */
  checkedBefore?: boolean;
}

interface Entry {
  reader: string;
  sha256: string;
  /** No value holds `${`: interpolation leaves every one as it is. */
  verbatim: boolean;
  values: unknown[];
  keyOffsets: [string, number][][];
}

/** The modules whose code decides what the fast reader makes of a text, and what the text and schema checks find in it. */
const READER_MODULES = ['read-yaml', 'text-checks', 'source', 'schema-check', 'manifest-validator.generated'];

let readerKey: string | null | undefined;

/** rcsctl's version and a hash of the reader's built modules; null (no caching) when they cannot be read. */
function reader(): string | null {
  if (readerKey === undefined) {
    try {
      const hash = createHash('sha256').update(VERSION);
      // The built .js files, or the .ts sources when run from them (tests).
      const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
      for (const m of READER_MODULES) hash.update(readFileSync(fileURLToPath(new URL(`./${m}${ext}`, import.meta.url))));
      readerKey = `${VERSION}:${hash.digest('hex').slice(0, 16)}`;
    } catch {
      readerKey = null;
    }
  }
  return readerKey;
}

/** The hashes of composed documents that checked clean (one file: not one per path, as there is no path). */
const COMPOSED_FILE = 'composed.json';

/** A literal value at `brand.key` (a key from `${env:NAME}` is the reference, not the key). */
const ENV_ONLY = /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/;

/** The parsed manifests kept in `dir` (the cache directory). */
export class ParseCache {
  private readonly staged = new Map<string, string>();
  /** Composed documents checked this run: the hash of each value, and the files its findings would name. */
  private readonly composedStaged = new Map<string, string[]>();
  private composedKept: Set<string> | undefined;

  constructor(private readonly dir: string) {}

  /** SHA-256 of a file's bytes, the entry's check. */
  static hash(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** The documents kept for `absPath`, when its bytes are still `sha256` and the reader is this one. */
  get(absPath: string, sha256: string): PlainDocument[] | undefined {
    if (reader() === null) return undefined;
    try {
      const entry = JSON.parse(readFileSync(this.path(absPath), 'utf8')) as Entry;
      if (entry.sha256 !== sha256 || entry.reader !== reader() || !Array.isArray(entry.values) || entry.values.length !== entry.keyOffsets.length) return undefined;
      return entry.values.map((value, i) => ({ value, keyOffsets: new Map(entry.keyOffsets[i]), checkedBefore: entry.verbatim === true }));
    } catch {
      // Missing, unreadable or not an entry: parse the file.
      return undefined;
    }
  }

  /**
   * Remember what the fast reader made of `absPath` (before interpolation
   * changes the values); written by `save` only if the file stays clean.
   */
  stage(absPath: string, sha256: string, docs: PlainDocument[]): void {
    const key = reader();
    if (key === null || docs.some((d) => literalBrandKey(d.value))) return;
    let plain = true;
    let verbatim = true;
    const values = JSON.stringify(
      docs.map((d) => d.value),
      (_k, v: unknown) => {
        if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) plain = false;
        if (typeof v === 'string' && v.includes('${')) verbatim = false;
        return v;
      },
    );
    if (!plain) return;
    const keyOffsets = JSON.stringify(docs.map((d) => [...d.keyOffsets]));
    this.staged.set(absPath, `{"reader":${JSON.stringify(key)},"sha256":${JSON.stringify(sha256)},"verbatim":${String(verbatim)},"values":${values},"keyOffsets":${keyOffsets}}`);
  }

  /**
   * The key of a document composition built (a base's document for one
   * brand, compose.ts): the hash of its value, or undefined when a value holds
   * `${` (interpolation may find something in it) or the reader is unknown.
   */
  composedKey(value: unknown): string | undefined {
    if (reader() === null || literalBrandKey(value)) return undefined;
    const text = JSON.stringify(value);
    return text.includes('${') ? undefined : createHash('sha256').update(text).digest('hex').slice(0, 32);
  }

  /**
   * Whether a composed document of this very value passed the text and
   * schema checks at the last load that found nothing in the files it is
   * made of: a composed document has no bytes of its own to key an entry by,
   * so its value's hash is the key (SourceDoc.checkedBefore).
   */
  composedClean(key: string): boolean {
    if (this.composedKept === undefined) {
      this.composedKept = new Set();
      try {
        const kept = JSON.parse(readFileSync(join(this.dir, 'manifests', COMPOSED_FILE), 'utf8')) as { reader?: unknown; keys?: unknown };
        if (kept.reader === reader() && Array.isArray(kept.keys)) for (const k of kept.keys) if (typeof k === 'string') this.composedKept.add(k);
      } catch {
        // None kept yet, or unreadable: check every composed document.
      }
    }
    return this.composedKept.has(key);
  }

  /** Remember a composed document checked this run; kept by `save` if every file in `files` (where its findings would be) stays clean. */
  stageComposed(key: string, files: string[]): void {
    this.composedStaged.set(key, files);
  }

  /**
   * Write the staged entries of `clean` files that hold no secret, each
   * atomically, and the composed documents whose files all stayed clean (this
   * run's only: the list does not grow); a cache that cannot be written is
   * skipped. `cleanFile` answers for the files as shown (composed documents').
   */
  save(clean: (absPath: string) => boolean, holdsSecret: (text: string) => boolean = () => false, cleanFile: (shown: string) => boolean = () => false): void {
    const todo = [...this.staged].filter(([absPath, text]) => clean(absPath) && !holdsSecret(text));
    const composed = [...this.composedStaged].filter(([, files]) => files.every(cleanFile)).map(([key]) => key);
    const hadComposed = this.composedStaged.size > 0;
    this.staged.clear();
    this.composedStaged.clear();
    const key = reader();
    if (todo.length === 0 && !hadComposed) return;
    try {
      mkdirSync(join(this.dir, 'manifests'), { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    for (const [absPath, text] of todo) writePrivateFileAtomic(this.path(absPath), text);
    if (hadComposed && key !== null) writePrivateFileAtomic(join(this.dir, 'manifests', COMPOSED_FILE), JSON.stringify({ reader: key, keys: composed.sort() }));
  }

  private path(absPath: string): string {
    return join(this.dir, 'manifests', `${createHash('sha256').update(absPath).digest('hex').slice(0, 24)}.json`);
  }
}

function literalBrandKey(value: unknown): boolean {
  const key = (value as { brand?: { key?: unknown } } | null)?.brand?.key;
  return key !== undefined && !(typeof key === 'string' && ENV_ONLY.test(key));
}
