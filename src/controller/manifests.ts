// The controller's desired state: the manifests under its paths, loaded as
// `rcsctl plan` loads them, each brand on its own, and re-read when a file
// under the paths changes (a git checkout a sidecar keeps current).
//
// A brand whose manifests have an error is `failed` with the first error, and
// the controller keeps no older copy of it: applying what the files no longer
// say would be wrong, and the next good commit fixes it (docs/controller.md).

import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { loadManifests, type LoadOptions } from '../manifest/index.js';
import type { SensitiveValue } from '../manifest/sensitive.js';
import type { DesiredBrand } from '../manifest/types.js';
import { inShard, type Shard } from '../plan/shard.js';

/** What one load gave: the good brands and the broken ones, by id. */
export interface DesiredSet {
  brands: Map<string, DesiredBrand>;
  /** Brands whose manifests have errors: the first error, as `file:line: CODE message`. */
  broken: Map<string, string>;
  /** Errors that belong to no brand (a file that does not parse). */
  orphanErrors: string[];
  /** The manifest files of each brand (absolute), to know which brands a changed file touches. */
  files: Map<string, Set<string>>;
  /** Sensitive values the manifests interpolated (hidden in logs). */
  sensitive: SensitiveValue[];
}

/**
 * Load the brands of `paths` in `shard`. A file that no longer parses names no
 * brand; `previous` (the last load's files) says whose it was, and that brand fails.
 */
export async function loadDesired(paths: string[], opts: LoadOptions, shard: Shard | undefined, previous: Map<string, Set<string>> = new Map()): Promise<DesiredSet> {
  const result = await loadManifests(paths, opts);
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
  for (const d of result.diagnostics) {
    if (d.severity !== 'error') continue;
    const text = `${d.file}:${d.line}: ${d.code} ${d.message}`;
    const file = abs(d.file);
    let owners = [...files].filter(([, fs]) => fs.has(file)).map(([id]) => id);
    if (owners.length === 0) owners = [...previous].filter(([, fs]) => fs.has(file)).map(([id]) => id);
    if (owners.length === 0) orphanErrors.push(text);
    for (const id of owners) {
      if (!broken.has(id)) broken.set(id, text);
      if (!files.has(id)) files.set(id, new Set(previous.get(id)));
    }
  }
  const brands = new Map(result.brands.filter((b) => inShard(b.brandId, shard) && !broken.has(b.brandId)).map((b) => [b.brandId, b]));
  return { brands, broken, orphanErrors, files, sensitive: result.sensitive };
}

/**
 * Watch `paths` (directories recursively) and call `changed` with the files
 * that changed, once things are quiet for `debounceMs` (an empty list when a
 * watcher could not name the file). Close with the returned function.
 */
export function watchPaths(paths: string[], cwd: string, debounceMs: number, changed: (files: string[]) => void, onError: (err: Error) => void): () => void {
  const watchers: FSWatcher[] = [];
  let pending = new Set<string>();
  let unnamed = false;
  let timer: NodeJS.Timeout | undefined;
  for (const p of paths) {
    const root = isAbsolute(p) ? p : resolve(cwd, p);
    try {
      // A file is watched through its folder: a checkout replaces files by rename, which ends a watch on the file itself.
      const isDir = statSync(root).isDirectory();
      const dir = isDir ? root : dirname(root);
      const w = watch(dir, { recursive: isDir }, (_event, name) => {
        if (name !== null && !isDir && name.toString() !== basename(root)) return;
        if (name === null) unnamed = true;
        else pending.add(resolve(dir, name.toString()));
        clearTimeout(timer);
        timer = setTimeout(() => {
          const files = unnamed ? [] : [...pending];
          pending = new Set();
          unnamed = false;
          changed(files);
        }, debounceMs);
      });
      w.on('error', onError);
      watchers.push(w);
    } catch (err) {
      onError(err as Error);
    }
  }
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
