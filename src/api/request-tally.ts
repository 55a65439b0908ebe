// The requests one piece of work sends, counted wherever they are sent from.
// A controller's passes share one client, so the client's own count is the
// process's; a pass's requests are sent from deep inside readers and apply
// handlers, so the tally travels with the async context, as the abort signal
// does (abort-scope.ts): every attempt sent inside `withRequestTally(tally, fn)`
// is counted in `tally`, and a 429 among them too.

import { AsyncLocalStorage } from 'node:async_hooks';

/** The attempts counted, and how many the service answered 429. */
export interface RequestTally {
  requests: number;
  rateLimited: number;
}

const scope = new AsyncLocalStorage<RequestTally>();

/** Run `fn`; every attempt it sends, directly or through any client module, is counted in `tally`. */
export function withRequestTally<T>(tally: RequestTally, fn: () => Promise<T>): Promise<T> {
  return scope.run(tally, fn);
}

/** Count one attempt in the calling context's tally, if any (the transport calls it for every attempt). */
export function tallyAttempt(status: number | string): void {
  const tally = scope.getStore();
  if (tally === undefined) return;
  tally.requests += 1;
  if (status === 429) tally.rateLimited += 1;
}
