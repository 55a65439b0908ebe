// The local cache of what the service gave, on by default in a per-user cache
// directory, so a repeat plan skips the reads whose answer cannot have changed
// (docs/plan.md, The live cache). It is generic: a kind keeps entries in parts
// of its own (`cachePart`), and decides in its folder when an entry is still
// valid (src/kinds/auto-reply/cache.ts: while the list item is unchanged;
// src/kinds/template/cache.ts: while the updateDate holds). It holds service
// data only, never a credential, and never a secret of the run: each is sealed
// as `<sensitive:NAME:KEYID:HMAC>` under this machine's key (src/util/seal-key.ts) and restored on reading
// from the value the run knows; an entry whose secret the run does not know
// (the variable changed) is a miss, read again. Each brand's cache file is read
// only when that brand is first asked for.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../util/atomic-write.js';
import { Redaction, restoreFrom, sealStrings, unsealStrings } from '../util/redaction.js';
import { loadSealKey, type SealKey } from '../util/seal-key.js';

interface CacheFile {
  version: 3;
  /** Each part's entries by id. */
  parts: Record<string, Record<string, unknown>>;
}

/** A named part of the cache, holding entries of type `T` by id; declared by the kind that keeps it. */
export interface CachePart<T> {
  readonly name: string;
  /** Never set: it carries the entry type. */
  readonly entry?: T;
}

/** A part of the cache named `name` (unique across kinds: `autoReplies`, `templateForms`). */
export function cachePart<T>(name: string): CachePart<T> {
  return { name };
}

/** The part that notes a brand was planned (LiveCache.notePlanned). */
const PLANNED = cachePart<true>('planned');

/** The "brand" of entries no brand owns (template forms): their own file. */
export const SERVICE_WIDE = '';

/** Entries by brand, part and id, kept between runs. */
export class LiveCache {
  private readonly brands = new Map<string, CacheFile>();
  private readonly dirty = new Set<string>();
  private key: SealKey | undefined;

  constructor(
    private readonly dir: string,
    /** The service base URL: caches of different services never mix. */
    private readonly baseUrl: string,
    /** The run's secrets: sealed in the files, restored on reading. */
    private readonly redaction: Redaction = new Redaction(),
  ) {}

  /** This machine's sealing key, in the cache directory beside what it seals (src/util/seal-key.ts); made when first needed. */
  private sealKey(): SealKey {
    this.key ??= loadSealKey({}, this.dir);
    return this.key;
  }

  /** True when this machine's cache holds a file for `brandId`: a run planned the brand before. */
  holds(brandId: string): boolean {
    return this.brands.has(brandId) || existsSync(this.path(brandId));
  }

  /** Note that `brandId` was planned, so a later run can tell a removed brand folder (`holds`) even when the brand had nothing to cache. */
  notePlanned(brandId: string): void {
    if (this.get(brandId, PLANNED, 'brand') === undefined) this.set(brandId, PLANNED, 'brand', true);
  }

  /** The entry `id` of `part` for `brandId` (`SERVICE_WIDE` for what no brand owns). */
  get<T>(brandId: string, part: CachePart<T>, id: string): T | undefined {
    const entries = this.load(brandId).parts[part.name];
    // Own entries only: an id such as `constructor` is not an entry.
    return entries !== undefined && Object.hasOwn(entries, id) ? (entries[id] as T) : undefined;
  }

  /** Keep `entry` as `id` of `part`. */
  set<T>(brandId: string, part: CachePart<T>, id: string, entry: T): void {
    (this.load(brandId).parts[part.name] ??= {})[id] = entry;
    this.dirty.add(brandId);
  }

  /** Forget the entries of `part` not in `keep` (gone from the service), so the file does not grow forever. */
  retain(brandId: string, part: CachePart<unknown>, keep: Set<string>): void {
    const entries = this.load(brandId).parts[part.name] ?? {};
    for (const id of Object.keys(entries)) {
      if (!keep.has(id)) {
        delete entries[id];
        this.dirty.add(brandId);
      }
    }
  }

  /**
   * Write what changed, file by file, atomically (a unique temporary name, then
   * a rename), so several runs at once never see half a file. A cache that
   * cannot be written is skipped: it only saves time.
   */
  save(): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    for (const brandId of this.dirty) {
      try {
        writePrivateFileAtomic(this.path(brandId), JSON.stringify(sealStrings(this.brands.get(brandId), this.redaction.secrets(), () => this.sealKey())));
      } catch {
        // No key to seal with (its file cannot be made): this brand is not kept.
      }
    }
    this.dirty.clear();
  }

  private load(brandId: string): CacheFile {
    let file = this.brands.get(brandId);
    if (file === undefined) {
      try {
        // A file of another version (or none) starts empty: the cache only saves time.
        const text = readFileSync(this.path(brandId), 'utf8');
        const parsed = JSON.parse(text) as CacheFile;
        const valid = parsed.version === 3 && typeof parsed.parts === 'object' && parsed.parts !== null;
        file = valid ? (text.includes('<sensitive:') ? this.unseal(parsed) : parsed) : { version: 3, parts: {} };
      } catch {
        file = { version: 3, parts: {} };
      }
      this.brands.set(brandId, file);
    }
    return file;
  }

  /** `file` with its sealed secrets restored; an entry holding one the run does not know is left out (a miss). */
  private unseal(file: CacheFile): CacheFile {
    const restore = restoreFrom(this.redaction.secrets(), () => this.sealKey());
    const parts: CacheFile['parts'] = {};
    for (const [name, entries] of Object.entries(file.parts)) {
      const kept: Record<string, unknown> = {};
      for (const [id, entry] of Object.entries(entries)) {
        const { value, missing } = unsealStrings({ id, entry }, restore);
        if (missing.length === 0) kept[value.id] = value.entry;
      }
      parts[name] = kept;
    }
    return { version: 3, parts };
  }

  private path(brandId: string): string {
    const key = createHash('sha256').update(`${this.baseUrl}\n${brandId}`).digest('hex').slice(0, 24);
    return join(this.dir, `${key}.json`);
  }
}
