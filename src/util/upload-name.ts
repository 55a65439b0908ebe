// Content-addressed upload names: `hero.png` is uploaded as
// `hero-<sha256 first 12>.png`, so the live name says what content it holds.

import { basename, extname } from 'node:path';

const HASHED = /^(.*)-([0-9a-f]{12})$/;

/**
 * The local name of a live file: `hero-ff7131fa55b5.png` was uploaded by
 * rcsctl from `hero.png`, so saving it as `hero.png` gives the same upload name.
 */
export function localName(fileName: string): { stem: string; ext: string; sha12?: string } {
  const ext = extname(fileName);
  const stem = basename(fileName, ext);
  const m = HASHED.exec(stem);
  return m ? { stem: m[1] as string, ext, sha12: m[2] as string } : { stem, ext };
}
