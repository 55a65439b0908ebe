// An opt-in local cache of auto-reply and template details (`--cache-dir`), so a repeat plan
// skips the detail calls whose list `updateDate` is unchanged (for speed,
// on repeat plans), of template forms (while the form list's updateDate holds),
// and of auto-reply file details, which never change (their names
// are content-addressed and the service cannot modify a file). It holds service
// data only, never a credential.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutoReplyDetail, AutoReplyFile, MessagebaseForm, TemplateDetail } from '../api/types.js';

interface CacheFile {
  version: 1;
  entries: Record<string, { updateDate: string; detail: AutoReplyDetail }>;
  /** File details by fileId (added later: absent in older cache files). */
  files?: Record<string, AutoReplyFile>;
  /** Template details by messagebaseId, valid while the list's updateDate matches (added later). */
  templates?: Record<string, { updateDate: string; detail: TemplateDetail }>;
  /** Template forms by id, valid while the form list's updateDate matches (in the service-wide file). */
  forms?: Record<string, MessagebaseForm>;
}

/** The cache file of what is not brand-scoped (template forms). */
const SERVICE_WIDE = '';

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

  /** The cached template detail, when its updateDate is still `updateDate`. */
  getTemplate(brandId: string, id: string, updateDate: string): TemplateDetail | undefined {
    const entry = this.load(brandId).templates?.[id];
    return entry !== undefined && entry.updateDate === updateDate ? entry.detail : undefined;
  }

  /** Remember a freshly read template detail. */
  setTemplate(brandId: string, detail: TemplateDetail): void {
    (this.load(brandId).templates ??= {})[detail.messagebaseId] = { updateDate: detail.updateDate, detail };
    this.dirty.add(brandId);
  }

  /** The cached form, when the form list still gives it `updateDate`. */
  getForm(id: string, updateDate: string): MessagebaseForm | undefined {
    const form = this.load(SERVICE_WIDE).forms?.[id];
    return form !== undefined && form.updateDate === updateDate ? form : undefined;
  }

  /** Remember a form. */
  setForm(form: MessagebaseForm): void {
    (this.load(SERVICE_WIDE).forms ??= {})[form.messagebaseformId] = form;
    this.dirty.add(SERVICE_WIDE);
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
