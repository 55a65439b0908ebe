// A cache file written whole or not at all: several rcsctl processes may read
// and write one cache directory at once, so a reader never sees half a file.

import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Write `text` to `path` through a temporary file in the same directory and a
 * rename, readable by the owner only. Returns false (and leaves nothing
 * behind) when it cannot be written: a cache that cannot be saved is skipped.
 */
export function writePrivateFileAtomic(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
