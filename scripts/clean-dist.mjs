// Empties dist/ before a build, so nothing compiled from a source that has
// since moved or gone stays behind for `npm pack` to ship (tsc only ever adds
// and overwrites). Plain JavaScript because `npm run build` runs it before tsc.
// test/library.test.ts fails when the packed dist/ holds a file with no source.
//
//   node scripts/clean-dist.mjs

import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), { recursive: true, force: true });
