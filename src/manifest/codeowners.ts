// A CODEOWNERS file from the owners the brands declare (`brand.owners`): one
// line per brand, its folder (or, when the folder holds another brand's
// files too, each of its manifest files) followed by its owners. GitHub and
// GitLab read the same syntax; the last matching line wins, and no brand's
// folder holds another's, so the lines never overlap.

import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A brand as the file needs it: its id, its owners and its manifest files (absolute). */
export interface OwnedBrand {
  brandId: string;
  owners: readonly string[];
  files: readonly string[];
}

/** The CODEOWNERS lines for `brands` in the repository at `root` (absolute); brands without owners get none. */
export function codeownersLines(brands: readonly OwnedBrand[], root: string): string[] {
  const folders = new Map(brands.map((b) => [b.brandId, commonFolder(b.files)]));
  const lines: { pattern: string; line: string }[] = [];
  for (const b of brands) {
    if (b.owners.length === 0) continue;
    const folder = folders.get(b.brandId) as string;
    // A folder that holds another brand's file is not this brand's alone.
    const shared = brands.some((o) => o.brandId !== b.brandId && o.files.some((f) => within(f, folder)));
    const patterns = shared ? b.files.map((f) => pattern(f, root, false)) : [pattern(folder, root, true)];
    for (const p of patterns) lines.push({ pattern: p, line: `${p} ${b.owners.join(' ')}` });
  }
  return lines.sort((a, b) => a.pattern.localeCompare(b.pattern)).map((l) => l.line);
}

/** `/brands/acme/` for a folder, `/brands/acme.yaml` for a file, relative to the repository; spaces escaped. */
function pattern(abs: string, root: string, folder: boolean): string {
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${abs} is outside the repository ${root}`);
  const path = rel.split(sep).join('/').replace(/([ #\\])/g, '\\$1');
  return folder ? (path === '' ? '/' : `/${path}/`) : `/${path}`;
}

// The deepest folder that holds every file.
function commonFolder(files: readonly string[]): string {
  let dir = dirname(files[0] ?? resolve('.'));
  for (const f of files) while (!within(f, dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function within(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
