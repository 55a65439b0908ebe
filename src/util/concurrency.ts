/** Map `items` through `fn` with at most `limit` calls in flight; results keep input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker());
  await Promise.all(workers);
  return results;
}

/** What `mapAsListed` read: every item of the source, and each one's result, in source order. */
export interface Mapped<T, R> {
  items: T[];
  results: R[];
}

/**
 * Map the items of an async `source` through `fn` as they arrive, with at most
 * `limit` calls in flight: a call starts as soon as its item is there, not
 * once the source is used up (detail reads overlap the list's later pages).
 * `onItem` sees each item as it arrives. The first failure, of the source or
 * of a call, rejects; no call starts after it.
 */
export function mapAsListed<T, R>(source: AsyncIterable<T>, limit: number, fn: (item: T, index: number) => Promise<R>, onItem?: (item: T) => void): Promise<Mapped<T, R>> {
  const items: T[] = [];
  const results: R[] = [];
  const cap = Math.max(1, limit);
  let started = 0;
  let running = 0;
  let listed = false;
  let failed = false;
  return new Promise((resolve, reject) => {
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    const pump = (): void => {
      while (!failed && running < cap && started < items.length) {
        const index = started++;
        running++;
        fn(items[index] as T, index).then((r) => {
          results[index] = r;
          running--;
          pump();
        }, fail);
      }
      if (!failed && listed && running === 0 && started === items.length) resolve({ items, results });
    };
    void (async () => {
      for await (const item of source) {
        if (failed) return;
        items.push(item);
        onItem?.(item);
        pump();
      }
      listed = true;
      pump();
    })().catch(fail);
  });
}
