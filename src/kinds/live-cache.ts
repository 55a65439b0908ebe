// An opt-in local cache of auto-reply details (`--cache-dir`), so a repeat plan
// skips the detail calls whose list `updateDate` is unchanged (for speed,
// on repeat plans), and of auto-reply file details, which never change (their names
// are content-addressed and the service cannot modify a file). It holds service
// data only, never a credential.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutoReplyDetail, AutoReplyFile } from '../api/types.js';

interface CacheFile {
  version: 1;
  entries: Record<string, { updateDate: string; detail: AutoReplyDetail }>;
  /** File details by fileId (added later: absent in older cache files). */
  files?: Record<string, AutoReplyFile>;
}

/** Auto-reply details by brand and id, valid while the list's updateDate matches. */
export class LiveCache {
  private readonly brands = new Map<string, CacheFile>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly dir: string,
    /** The service base URL: caches of different services never mix. */
    private readonly baseUrl: string,
  ) {}

  /** The cached detail, when its updateDate is still `updateDate`. */
  get(brandId: string, id: string, updateDate: string): AutoReplyDetail | undefined {
    const entry = this.load(brandId).entries[id];
    return entry !== undefined && entry.updateDate === updateDate ? entry.detail : undefined;
  }

  /** Remember a freshly read detail. */
  set(brandId: string, detail: AutoReplyDetail): void {
    this.load(brandId).entries[detail.autoReplyMsgId] = { updateDate: detail.updateDate, detail };
    this.dirty.add(brandId);
  }

  /** A cached auto-reply file detail. */
  getFile(brandId: string, fileId: string): AutoReplyFile | undefined {
    return this.load(brandId).files?.[fileId];
  }

  /** Remember a file detail. */
  setFile(brandId: string, file: AutoReplyFile): void {
    const cache = this.load(brandId);
    (cache.files ??= {})[file.fileId] = file;
    this.dirty.add(brandId);
  }

  /** Write what changed (atomically, file by file). */
  save(): void {
    mkdirSync(this.dir, { recursive: true });
    for (const brandId of this.dirty) {
      const path = this.path(brandId);
      writeFileSync(`${path}.tmp`, JSON.stringify(this.brands.get(brandId)));
      renameSync(`${path}.tmp`, path);
    }
    this.dirty.clear();
  }

  private load(brandId: string): CacheFile {
    let file = this.brands.get(brandId);
    if (file === undefined) {
      try {
        const parsed = JSON.parse(readFileSync(this.path(brandId), 'utf8')) as CacheFile;
        file = parsed.version === 1 && typeof parsed.entries === 'object' ? parsed : { version: 1, entries: {} };
      } catch {
        file = { version: 1, entries: {} };
      }
      this.brands.set(brandId, file);
    }
    return file;
  }

  private path(brandId: string): string {
    const key = createHash('sha256').update(`${this.baseUrl}\n${brandId}`).digest('hex').slice(0, 24);
    return join(this.dir, `${key}.json`);
  }
}
