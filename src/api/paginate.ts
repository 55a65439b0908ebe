// Walks any list endpoint 1000 items at a time. It trusts only the item count
// and pagination.total: links.prev is documented to be null on some pages that
// do have a previous one (the service reference, Common response envelope), so links
// are never followed, and next is computed rather than read.

import { PAGING } from '../spec/limits.js';
import type { Page } from './envelope.js';

/** Fetch the page at `offset` with `limit` items. */
export type PageFetcher<T> = (offset: number, limit: number) => Promise<Page<T>>;

/** A list's items, and the service's count of them once a page has said it (for progress). */
export interface Listing<T> extends AsyncIterable<T> {
  /** `pagination.total` of the latest page read; undefined before the first. */
  readonly total: number | undefined;
}

/**
 * Every item of a list, in service order, fetching a page only when the
 * previous one is used up; each walk of the listing reads the list afresh.
 */
export function paginate<T>(fetchPage: PageFetcher<T>, limit: number = PAGING.maxLimit): Listing<T> {
  const listing = {
    total: undefined as number | undefined,
    async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
      let offset = 0;
      for (;;) {
        const { items, total } = await fetchPage(offset, limit);
        listing.total = total;
        yield* items;
        offset += items.length;
        // An empty page ends the walk even if total says more: the list shrank
        // while we read it, and asking again would loop forever.
        if (items.length === 0 || offset >= total) return;
      }
    },
  };
  return listing;
}
