// The controller's desired state, kept current: the manifests under its paths
// read at start, again when a file under them changes (a git checkout a
// sidecar keeps current), and before every periodic resync. Reads run one at
// a time, so an older read never lands after a newer one; the brand book
// follows each read (new brands join, gone ones leave, broken ones fail).
// Each read also notes the revision of the checkout each path is in
// (revision.ts), which the brands' passes record.

import { isAbsolute, relative, resolve } from 'node:path';
import { errorMessage } from '../errors.js';
import type { Credential } from '../manifest/sensitive.js';
import type { Shard } from '../plan/shard.js';
import type { Redaction } from '../util/redaction.js';
import { emptyCounts, type BrandBook } from './brand-book.js';
import type { Log } from './log.js';
import { loadDesired, watchPaths, type DesiredSet, type PathWatch } from './manifests.js';
import { readRevision, type Revision } from './revision.js';

/** Reads of the manifests tried when a new commit lands during one, before the revision is left unknown (*chosen*). */
const REVISION_READS = 3;

/** Where the manifests are and how they are read. */
export interface DesiredSettings {
  paths: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  shard?: Shard;
  credentials?: Credential[];
  cacheDir?: string;
  /** The folder manifests' `path:` files must stay in (--root); absent: each manifest's repository. */
  root?: string;
  /** Quiet time after a manifest change before re-reading. */
  watchDebounceMs: number;
}

/** What reading the manifests touches beyond itself. */
export interface DesiredDeps {
  book: BrandBook;
  log: Log;
  /** The run's redaction (the log's too) learns the manifests' sensitive values. */
  redaction: Redaction;
  /** A brand left the manifests: drop its pending pass. */
  forget: (brandId: string) => void;
  /** Ask for a pass of a brand whose manifests changed. */
  markDirty: (brandId: string) => void;
}

/** The manifests as last read, and the watch that reads them again. */
export class DesiredState {
  /** The last read. */
  current: DesiredSet = { brands: new Map(), broken: new Map(), orphanErrors: [], files: new Map(), sensitive: [], policies: [], docs: new Map(), policyFiles: new Set() };
  private reloading: Promise<void> = Promise.resolve();
  /** The revision each brand's manifests were last read at. */
  private revisions = new Map<string, Revision>();
  private watcher: PathWatch | undefined;

  constructor(
    private readonly settings: DesiredSettings,
    private readonly deps: DesiredDeps,
  ) {}

  /** Read the manifests again (after any read in progress). */
  reload(): Promise<void> {
    this.reloading = this.reloading.catch(() => undefined).then(() => this.read());
    return this.reloading;
  }

  /** Watch the paths: a change re-reads them and marks the brands its files touch. */
  watch(): void {
    const s = this.settings;
    this.watcher = watchPaths(s.paths, s.cwd, s.watchDebounceMs, (files) => this.changed(files), (err) => this.deps.log('warn', 'watch.error', { message: err.message }));
  }

  /**
   * Before a periodic resync: follow the paths' links again and re-read
   * (cheap with the parse cache), so whatever the file system's events missed
   * is no older than --interval. Never throws; an error is logged.
   */
  async refresh(): Promise<void> {
    this.watcher?.refresh();
    await this.reload().catch((err: unknown) => this.deps.log('error', 'manifest.error', { message: errorMessage(err) }));
  }

  close(): void {
    this.watcher?.close();
  }

  /** The manifest revision `brandId` was last read at (absent: its files are in no checkout rcsctl can read). */
  revisionOf(brandId: string): Revision | undefined {
    return this.revisions.get(brandId);
  }

  private async read(): Promise<void> {
    const s = this.settings;
    const { book, log, redaction } = this.deps;
    const opts = { env: s.env, cwd: s.cwd, ...(s.credentials !== undefined ? { credentials: s.credentials } : {}), ...(s.cacheDir !== undefined ? { cacheDir: s.cacheDir } : {}), ...(s.root !== undefined ? { root: s.root } : {}) };
    // The revision before and after the read: a commit published during it (the files a mix of two) is read again.
    let next: DesiredSet | undefined;
    let revisions: (Revision | undefined)[] = [];
    for (let i = 0; i < REVISION_READS && next === undefined; i++) {
      const before = this.pathRevisions();
      const read = await loadDesired(s.paths, opts, s.shard, this.current.files);
      revisions = this.pathRevisions();
      if (JSON.stringify(before) === JSON.stringify(revisions) || i === REVISION_READS - 1) next = read;
    }
    if (next === undefined) return;
    this.revisions = this.brandRevisions(next, revisions);
    redaction.add(next.sensitive);
    for (const e of next.orphanErrors) log('error', 'manifest.error', { message: e });
    for (const [brandId, message] of next.broken) log('error', 'manifest.error', { brand: brandId, message });
    this.current = next;
    for (const id of book.retain(new Set([...next.brands.keys(), ...next.broken.keys()]))) this.deps.forget(id);
    // A broken brand keeps the owners its last good read declared.
    for (const [id, brand] of next.brands) book.owners(id, brand.owners);
    for (const [id, broken] of next.broken) book.settle(id, { state: 'failed', reasons: [broken], counts: emptyCounts() }, { code: 'E_MANIFEST', message: broken }, undefined);
  }

  /** The revision of each path's checkout, in the order of the paths. */
  private pathRevisions(): (Revision | undefined)[] {
    return this.settings.paths.map((p) => readRevision(p, this.settings.cwd));
  }

  /** Each brand's revision: that of the first path its manifest files are under. */
  private brandRevisions(set: DesiredSet, revisions: (Revision | undefined)[]): Map<string, Revision> {
    const roots = this.settings.paths.map((p) => (isAbsolute(p) ? p : resolve(this.settings.cwd, p)));
    const under = (file: string, root: string): boolean => file === root || !relative(root, file).startsWith('..');
    const out = new Map<string, Revision>();
    for (const [brandId, files] of set.files) {
      const i = roots.findIndex((root) => [...files].some((f) => under(f, root)));
      const revision = i >= 0 ? revisions[i] : undefined;
      if (revision !== undefined) out.set(brandId, revision);
    }
    return out;
  }

  /** Files changed under the paths (none named: anything may have): re-read, and mark the brands they touch and the new ones. */
  private changed(files: string[]): void {
    const before = this.current;
    void this.reload()
      .then(() => {
        const now = this.current;
        // A rule file changed: every brand's plan is checked again.
        const rules = files.some((f) => now.policyFiles.has(f) || before.policyFiles.has(f));
        const touched = (id: string): boolean => files.length === 0 || rules || [...(now.files.get(id) ?? []), ...(before.files.get(id) ?? [])].some((f) => files.includes(f)) || !before.brands.has(id);
        const dirty = [...now.brands.keys()].filter(touched);
        this.deps.log('info', 'manifests.changed', { files: files.length, brands: dirty.length });
        for (const id of dirty) this.deps.markDirty(id);
      })
      .catch((err: unknown) => this.deps.log('error', 'manifest.error', { message: errorMessage(err) }));
  }
}
