import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (where package.json is), from src/ or from dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('rcsctl: cannot find package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** The example emulator seed shipped with rcsctl. */
export function defaultSeedPath(): string {
  return join(packageRoot(), 'examples', 'emulator-seed.yaml');
}

/** A path relative to `cwd` when it lies inside it, else as given: for messages. */
export function shortPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
