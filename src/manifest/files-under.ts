// The manifest files a path names, found the same way by the loader and by composition (a base's folder).

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The manifest files a path names (itself, or the `*.yaml` and `*.yml` under
 * it), sorted so the load order (and "declared twice" messages) do not depend
 * on the file system. Symlinked directories are not followed, so a link loop
 * cannot hang the load.
 */
export async function manifestFilesUnder(abs: string): Promise<string[] | 'missing'> {
  let info;
  try {
    info = await stat(abs);
  } catch {
    return 'missing';
  }
  if (info.isFile()) return [abs];
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if ((e.isFile() || e.isSymbolicLink()) && /\.ya?ml$/i.test(e.name)) out.push(full);
    }
  };
  await walk(abs);
  return out;
}
