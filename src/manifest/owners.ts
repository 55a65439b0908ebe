// Whose is a manifest file that declares no brand (it does not parse, or its
// documents name none)? One broken brand must fail alone, so such a file is
// tied to a brand when the tree says whose it is: the one brand whose other
// files share its folder (or a parent folder in the brand's tree), or else
// the brand its path names. A file tied to none stops the run.

import { basename, dirname, extname, sep } from 'node:path';

/** How a file with errors was tied to its brand (docs/diagnostics.md, "Which brand a broken file fails"). */
export type OwnedBy = 'document' | 'folder' | 'path';

/** A manifest file, as found (absolute) and as shown in diagnostics. */
export interface FoundFile {
  abs: string;
  shown: string;
  /** The path given on the command line it was found under (itself, for a file given by name). */
  root: string;
}

/** A brand id as the schema allows it. */
export const BRAND_ID = /^BR\.[A-Za-z0-9]{10}$/;

/**
 * The brand `file` belongs to, by its place in the tree: `owned` maps the
 * other files (absolute) to the brands that declare them. A brand's tree is
 * the deepest folder that holds all its files; the file is the brand's whose
 * tree it lies in (the deepest such tree, when trees nest; none when two
 * brands share it, as brands one file each in one folder do). Only trees at
 * or under the path the file was found under count. Failing that, the
 * deepest part of its path (a folder, or the file's name without its
 * extension) that is a brand id.
 */
export function ownerByTree(file: FoundFile, owned: ReadonlyMap<string, ReadonlySet<string>>): { brandId: string; by: OwnedBy } | undefined {
  const top = file.root === file.abs ? dirname(file.abs) : file.root;
  const trees = new Map<string, string>();
  for (const [f, ids] of owned) for (const id of ids) trees.set(id, common(trees.get(id) ?? dirname(f), dirname(f)));
  let best: { depth: number; ids: string[] } = { depth: -1, ids: [] };
  for (const [id, tree] of trees) {
    if (!within(file.abs, tree) || !(tree === top || within(tree, top))) continue;
    const depth = tree.split(sep).length;
    if (depth > best.depth) best = { depth, ids: [id] };
    else if (depth === best.depth) best.ids.push(id);
  }
  if (best.ids.length === 1) return { brandId: best.ids[0] as string, by: 'folder' };
  const parts = file.shown.split(/[\\/]/);
  parts[parts.length - 1] = basename(file.shown, extname(file.shown));
  const named = parts.reverse().find((p) => BRAND_ID.test(p));
  return named !== undefined ? { brandId: named, by: 'path' } : undefined;
}

// True when `path` lies under the folder `dir`.
function within(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

// The deepest folder that holds both folders.
function common(a: string, b: string): string {
  let dir = a;
  while (dir !== b && !within(b, dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
