// The one way rcsctl writes a file for people to read (reports, graphs, the
// preview site, a saved plan, an export): its text through the run's
// redaction, the same one the terminal gets, so a file never holds what
// stdout hides; whole or not at all (a temporary file, then a rename).

import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Redaction } from './redaction.js';

/**
 * Write `content` to `path`, its folder made first. Text is redacted; bytes
 * (images) are written as they are. A path that would itself hold a secret is
 * refused: a file name is written too.
 */
export function writeOutputFile(path: string, content: string | Uint8Array, redaction: Redaction): void {
  if (redaction.holds(path)) throw new Error(`rcsctl will not write a file whose name holds a sensitive value: ${redaction.text(path)}`);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, typeof content === 'string' ? redaction.text(content) : content);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
