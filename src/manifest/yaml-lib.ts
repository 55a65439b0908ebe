// The yaml package, loaded on first use. Plain manifests are read without it
// (read-yaml.ts: the fast reader), and its node tree is built only when a
// position is asked for, so most runs never load it (about 30 ms and 8 MB).

import { createRequire } from 'node:module';

/** The yaml package's API. */
export type YamlLib = typeof import('yaml');

let lib: YamlLib | undefined;

/** The yaml package, loaded on the first call. */
export function yamlLib(): YamlLib {
  return (lib ??= createRequire(import.meta.url)('yaml') as YamlLib);
}
