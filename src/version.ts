import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './util/paths.js';

/** rcsctl's version, from package.json. */
export const VERSION: string = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

/** The User-Agent sent on every request. */
export const USER_AGENT = `rcsctl/${VERSION}`;
