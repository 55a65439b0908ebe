// The two parts of undici rcsctl uses, each loaded only as far as it needs.
//
// undici's package root loads all of undici (fetch, web sockets, cookies, the
// HTTP cache, mock agents, proxy agents): about 110 ms of CPU on a cold
// process, against about 35 ms for the Pool and its request API, which is all
// a run that uploads nothing uses. So the Pool is loaded from its own module,
// with the request API undici's root would add to it, and FormData (multipart
// uploads) loads the package root on the first upload only.
// test/e2e/lazy-modules.test.ts fails when a plan loads the package root.

import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

/** undici's Pool class, with `request` (as undici's root adds it to every dispatcher). */
export const Pool: typeof Undici.Pool = loadPool();

/** undici's Pool instance type. */
export type Pool = Undici.Pool;

/** undici's FormData (the transport sends it as multipart with a boundary); loads undici's root on first use. */
export type FormData = Undici.FormData;

/** A new undici FormData. */
export function newFormData(): FormData {
  return new (require('undici') as typeof Undici).FormData();
}

function loadPool(): typeof Undici.Pool {
  const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
  const api = require('undici/lib/api/index.js') as object;
  // What undici's index.js does for every dispatcher; the same functions whichever loads first.
  if (!('request' in dispatcher.prototype)) Object.assign(dispatcher.prototype, api);
  return require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
}
