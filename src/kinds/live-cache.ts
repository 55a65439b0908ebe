// The local cache of auto-reply and template details, on by default in a
// per-user cache directory, so a repeat plan skips every detail call whose list
// item is unchanged (docs/plan.md, The live cache); of template forms (while the
// form list's updateDate holds); and of auto-reply file details, which never
// change (their names are content-addressed and the service cannot modify a
// file). It holds service data only, never a credential.
//
// An auto-reply detail is served only while the list item it was read with is
// unchanged: the updateDate (which every write moves) and every other field the
// list carries (the review state among them). An auto-reply apply created and
// verification vouched for from the list is kept as the create sent it, under
// the same rule. Each brand's cache file is read only when that brand is first
// asked for.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutoReplyDetail, AutoReplyFile, AutoReplyListItem, AutoReplyRequest, MessagebaseForm, TemplateDetail } from '../api/types.js';
import { stableStringify } from '../util/stable-json.js';
import { writePrivateFileAtomic } from '../util/atomic-write.js';

interface CacheFile {
  version: 2;
  /** Auto-reply details by autoReplyMsgId, each with the list item (as stable JSON) it is valid for. */
  entries: Record<string, { listed: string; detail: AutoReplyDetail }>;
  /** File details by fileId. */
  files?: Record<string, AutoReplyFile>;
  /** Template details by messagebaseId, valid while the list's updateDate matches (added later). */
  templates?: Record<string, { updateDate: string; detail: TemplateDetail }>;
  /** Template forms by id, valid while the form list's updateDate matches (in the service-wide file). */
  forms?: Record<string, MessagebaseForm>;
}

/** The list fields of an auto-reply detail (the detail carries every field the list does). */
const LIST_FIELDS = ['brandId', 'autoReplyMsgId', 'autoReplyMsgName', 'messagebaseId', 'approvalResult', 'registerDate', 'updateDate', 'registerId', 'updateId'] as const;

/** LIST_FIELDS in the order stableStringify writes them (sorted). */
const SORTED_LIST_FIELDS = [...LIST_FIELDS].sort();

/**
 * What a cached auto-reply detail is valid for: the list item's fields, in a
 * stable form (stableStringify's, which the cache files hold). Built in sorted
 * order directly when every field is a string or null, as the list gives them;
 * stableStringify's copy and sort otherwise.
 */
export function listKey(item: AutoReplyListItem): string {
  const out: Record<string, unknown> = {};
  let flat = true;
  for (const f of SORTED_LIST_FIELDS) {
    const v = item[f] ?? null;
    if (v !== null && typeof v !== 'string') flat = false;
    out[f] = v;
  }
  return flat ? JSON.stringify(out) : stableStringify(out);
}

/** The cache file of what is not brand-scoped (template forms). */
const SERVICE_WIDE = '';

/** Auto-reply details by brand and id, valid while the list item is unchanged; template details and forms while their updateDate holds. */
export class LiveCache {
  private readonly brands = new Map<string, CacheFile>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly dir: string,
    /** The service base URL: caches of different services never mix. */
    private readonly baseUrl: string,
  ) {}

  /** The cached auto-reply detail, when it was read with exactly this list item. */
  get(brandId: string, item: AutoReplyListItem): AutoReplyDetail | undefined {
    const entry = this.load(brandId).entries[item.autoReplyMsgId];
    return entry !== undefined && entry.listed === listKey(item) ? entry.detail : undefined;
  }

  /** Remember a freshly read auto-reply detail. */
  set(brandId: string, detail: AutoReplyDetail): void {
    this.load(brandId).entries[detail.autoReplyMsgId] = { listed: listKey(detail), detail };
    this.dirty.add(brandId);
  }

  /**
   * Remember an auto-reply this run created, without reading it: what the
   * create sent, with the fields of the list item that vouched for it (the
   * create's own: its updateDate is its registerDate, and no one else wrote
   * to it). Like every entry it is served only while that list item is
   * unchanged, so any later write, by anyone, makes the next run read it.
   */
  setCreated(brandId: string, item: AutoReplyListItem, sent: AutoReplyRequest): void {
    // copyAllowed left out of a create is stored as true (as plan compares it).
    // What neither a create nor a list tells (status, aprvRet, the message
    // type, cardCount) stays absent, as an answer may leave it (the client
    // checks those fields as optional); planning reads none of them.
    const detail = { ...sent, copyAllowed: sent.copyAllowed ?? true, ...item } as AutoReplyDetail;
    this.load(brandId).entries[item.autoReplyMsgId] = { listed: listKey(item), detail };
    this.dirty.add(brandId);
  }

  /** Forget the auto-reply details not in `keep` (deleted on the service), so the file does not grow forever. */
  retain(brandId: string, keep: Set<string>): void {
    const entries = this.load(brandId).entries;
    for (const id of Object.keys(entries)) {
      if (!keep.has(id)) {
        delete entries[id];
        this.dirty.add(brandId);
      }
    }
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
      writePrivateFileAtomic(this.path(brandId), JSON.stringify(this.brands.get(brandId)));
    }
    this.dirty.clear();
  }

  private load(brandId: string): CacheFile {
    let file = this.brands.get(brandId);
    if (file === undefined) {
      try {
        const parsed = JSON.parse(readFileSync(this.path(brandId), 'utf8')) as CacheFile;
        file = parsed.version === 2 && typeof parsed.entries === 'object' ? parsed : { version: 2, entries: {} };
      } catch {
        file = { version: 2, entries: {} };
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
