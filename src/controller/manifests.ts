// The controller's desired state: the manifests under its paths, loaded as
// `rcsctl plan` loads them, each brand on its own, and re-read when a file
// under the paths changes (a git checkout a sidecar keeps current).
//
// A brand whose manifests have an error is `failed` with the first error, and
// the controller keeps no older copy of it: applying what the files no longer
// say would be wrong, and the next good commit fixes it (docs/controller.md).

import { realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { loadManifests, type LoadOptions } from '../manifest/index.js';
import type { PolicyRule } from '../manifest/policy.js';
import type { SourceDoc } from '../manifest/source.js';
import type { SensitiveValue } from '../manifest/sensitive.js';
import type { DesiredBrand } from '../manifest/types.js';
import { inShard, type Shard } from '../plan/shard.js';

/** What one load gave: the good brands and the broken ones, by id. */
export interface DesiredSet {
  brands: Map<string, DesiredBrand>;
  /** Brands whose manifests have errors: the first error, as `file:line:col: CODE message`. */
  broken: Map<string, string>;
  /** Errors that belong to no brand (a file that does not parse). */
  orphanErrors: string[];
  /** The manifest files of each brand (absolute), to know which brands a changed file touches. */
  files: Map<string, Set<string>>;
  /** Sensitive values the manifests interpolated (hidden in logs). */
  sensitive: SensitiveValue[];
  /** The rules of the `kind: Policy` documents among the paths (docs/policies.md), checked on each brand's plan before it is applied. */
  policies: PolicyRule[];
  /** Each brand's documents, composed and interpolated: what the rules on manifests read. */
  docs: Map<string, SourceDoc[]>;
  /** The rule files (absolute), those with errors included: a change to one concerns every brand. */
  policyFiles: Set<string>;
}

/** The diagnostics of a rule file (docs/diagnostics.md, RCS8xx): the rules could not be read. */
const RULE_FILE_CODES = new Set(['RCS801', 'RCS802']);

/**
 * Load the brands of `paths` in `shard`. A file with errors that names no
 * brand is the brand's whose folder tree it is in (src/manifest/owners.ts);
 * failing that, `previous` (the last load's files) says whose it was. That
 * brand fails; the others reconcile. A file tied to no brand is logged.
 */
export async function loadDesired(paths: string[], opts: LoadOptions, shard: Shard | undefined, previous: Map<string, Set<string>> = new Map()): Promise<DesiredSet> {
  const result = await loadManifests(paths, { ...opts, keepDocs: true });
  const abs = (f: string): string => (isAbsolute(f) ? f : resolve(opts.cwd, f));
  const files = new Map<string, Set<string>>();
  const own = (brandId: string, file: string): void => {
    if (!inShard(brandId, shard)) return;
    const set = files.get(brandId) ?? new Set<string>();
    set.add(abs(file));
    files.set(brandId, set);
  };
  for (const b of result.brands) for (const f of b.manifestFiles) own(b.brandId, f);
  for (const s of result.skipped) own(s.brandId, s.file);
  const broken = new Map<string, string>();
  const orphanErrors: string[] = [];
  const policyFiles = new Set(result.policies.map((r) => abs(r.at.file)));
  // A rule file with errors: the rules are not known, so no brand is applied without them (as plan and apply stop).
  const ruleError = result.diagnostics.find((d) => d.severity === 'error' && RULE_FILE_CODES.has(d.code));
  for (const d of result.diagnostics) {
    if (d.severity !== 'error') continue;
    const text = `${d.file}:${d.line}:${d.col}: ${d.code} ${d.message}`;
    const file = abs(d.file);
    if (RULE_FILE_CODES.has(d.code)) {
      policyFiles.add(file);
      orphanErrors.push(text);
      continue;
    }
    let owners = [...files].filter(([, fs]) => fs.has(file)).map(([id]) => id);
    if (owners.length === 0) owners = [...previous].filter(([, fs]) => fs.has(file)).map(([id]) => id);
    if (owners.length === 0) orphanErrors.push(text);
    for (const id of owners) {
      if (!broken.has(id)) broken.set(id, text);
      if (!files.has(id)) files.set(id, new Set(previous.get(id)));
    }
  }
  if (ruleError !== undefined) {
    const text = `the policy rules could not be read, so nothing is applied without them: ${ruleError.file}:${ruleError.line}:${ruleError.col}: ${ruleError.code} ${ruleError.message}`;
    for (const b of result.brands) if (inShard(b.brandId, shard) && !broken.has(b.brandId)) broken.set(b.brandId, text);
  }
  const brands = new Map(result.brands.filter((b) => inShard(b.brandId, shard) && !broken.has(b.brandId)).map((b) => [b.brandId, b]));
  const docs = new Map([...(result.docs ?? [])].filter(([id]) => brands.has(id)));
  return { brands, broken, orphanErrors, files, sensitive: result.sensitive, policies: result.policies, docs, policyFiles };
}

/** A running watch: `refresh()` follows the paths' links again and re-arms on a new real folder; `close()` ends it. */
export interface PathWatch {
  refresh(): void;
  close(): void;
}

/**
 * Watch `paths` (directories recursively) and call `changed` with the files
 * that changed, once things are quiet for `debounceMs` (an empty list when a
 * watcher could not name the file, or when a path now leads to another real
 * folder). A path is watched at its real location, and followed again after
 * every event: git-sync publishes each commit by swapping a symlink to a new
 * folder and deleting the old one, so a watch on the old folder would go deaf.
 */
export function watchPaths(paths: string[], cwd: string, debounceMs: number, changed: (files: string[]) => void, onError: (err: Error) => void): PathWatch {
  let watchers: FSWatcher[] = [];
  let armedOn = '';
  let pending = new Set<string>();
  let unnamed = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = (): void => {
    const moved = arm();
    const files = unnamed || moved ? [] : [...pending];
    pending = new Set();
    unnamed = false;
    changed(files);
  };
  const event = (file: string | undefined): void => {
    if (file === undefined) unnamed = true;
    else pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  /** (Re-)arm the watchers where the paths lead now; true when that changed. */
  function arm(): boolean {
    if (closed) return false;
    const targets = paths.map((p) => {
      const given = isAbsolute(p) ? p : resolve(cwd, p);
      try {
        const real = realpathSync(given);
        return { given, real, isDir: statSync(real).isDirectory() };
      } catch (err) {
        return { given, real: given, isDir: false, err: err as Error };
      }
    });
    const key = JSON.stringify(targets.map((t) => [t.real, t.isDir, t.err === undefined]));
    if (key === armedOn) return false;
    const first = armedOn === '';
    armedOn = key;
    for (const w of watchers) w.close();
    watchers = [];
    for (const t of targets) {
      if (t.err !== undefined) {
        onError(t.err);
        continue;
      }
      // A file is watched through its folder: a checkout replaces files by rename, which ends a watch on the file itself.
      const dir = t.isDir ? t.real : dirname(t.real);
      try {
        const w = watch(dir, { recursive: t.isDir }, (_event, name) => {
          if (name !== null && !t.isDir && name.toString() !== basename(t.real)) return;
          // Named by the path given, as the manifests' files are.
          event(name === null ? undefined : resolve(t.isDir ? t.given : dirname(t.given), name.toString()));
        });
        w.on('error', onError);
        watchers.push(w);
      } catch (err) {
        onError(err as Error);
      }
    }
    return !first;
  }
  arm();
  return {
    refresh() {
      if (arm()) event(undefined);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
