import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RcsctlError } from './errors.js';
import { packageRoot } from './util/paths.js';

const PACKAGE = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string; homepage?: string };

/** rcsctl's version, from package.json. */
export const VERSION: string = PACKAGE.version;

/** The User-Agent sent on every request. */
export const USER_AGENT = `rcsctl/${VERSION}`;

/**
 * Where the docs are published, ending in `/`: the `docs/` folder of the
 * repository that package.json's `homepage` names
 * (`https://github.com/rcsctl/rcsctl#readme` → `https://github.com/rcsctl/rcsctl/blob/main/docs/`).
 * Links rcsctl prints are built on it, so they work from any directory and in
 * a CI comment; `--docs-url` points them at another copy (a fork, a mirror).
 */
export const DOCS_URL: string = docsUrlFromHomepage(PACKAGE.homepage ?? 'https://github.com/rcsctl/rcsctl#readme');

/** The docs folder of a repository homepage. */
export function docsUrlFromHomepage(homepage: string): string {
  const repo = homepage.replace(/#.*$/, '').replace(/\/+$/, '');
  return `${repo}/blob/main/docs/`;
}

/** A `--docs-url` value checked and ending in `/`; refused unless it is an http(s) URL. */
export function docsBase(url: string | undefined): string {
  if (url === undefined) return DOCS_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RcsctlError('E_USAGE', `--docs-url must be an absolute http(s) URL of the docs folder, not "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RcsctlError('E_USAGE', `--docs-url must be an http(s) URL, not "${url}"`);
  return url.endsWith('/') ? url : `${url}/`;
}

/** An absolute link to `page` (`troubleshooting.md#drift_changed`) in the docs at `base`. */
export function docsLink(page: string, base: string = DOCS_URL): string {
  return base + page;
}
