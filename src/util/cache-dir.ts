// Where rcsctl keeps its per-user cache (the live cache, parsed manifests).

import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The cache directory: `--cache-dir`, else RCSCTL_CACHE_DIR, else
 * $XDG_CACHE_HOME/rcsctl, else ~/.cache/rcsctl. Undefined (no cache) with
 * `--no-cache`, or when the environment names no home at all.
 */
export function cacheDirFor(opts: { cache?: boolean; cacheDir?: string }, env: Record<string, string | undefined>, cwd: string): string | undefined {
  if (opts.cache === false) return undefined;
  const given = opts.cacheDir ?? nonEmpty(env.RCSCTL_CACHE_DIR);
  if (given !== undefined) return resolve(cwd, given);
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'rcsctl');
  const home = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? (env === process.env ? homedir() : undefined);
  return home !== undefined ? join(home, '.cache', 'rcsctl') : undefined;
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === '' ? undefined : s;
}
