// Aborting a caller's requests wherever they are sent from. A request is sent
// from deep inside a kind's reader or an apply handler, far from whoever may
// need to stop it (the controller, at the end of its shutdown timeout), so the
// signal travels with the async context instead of through every call: every
// request sent inside `withRequestSignal(signal, fn)` is aborted when `signal`
// aborts, in flight, waiting for a slot, or between its retries.

import { AsyncLocalStorage } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';

const scope = new AsyncLocalStorage<AbortSignal>();

/** Run `fn`; every request it sends, directly or through any client module, is aborted when `signal` aborts. */
export function withRequestSignal<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  // Every request in flight listens on it: more than ten at once is the point, not a leak.
  setMaxListeners(0, signal);
  return scope.run(signal, fn);
}

/** The signal of the calling context, if any. */
export function requestSignal(): AbortSignal | undefined {
  return scope.getStore();
}
