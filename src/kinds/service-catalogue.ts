// Service-wide lists every brand's plan shares (template forms, common
// messagebases, brand categories): read once for all the brands that ask at
// the same time, and kept per client for CATALOGUE_TTL_MS at most. A read that
// failed is never kept (the next ask reads again), and a notification that
// concerns a list (`messagebaseform`, `format`) drops it at once, so a
// long-running controller, whose client lives for ever, plans against the
// service's lists of now, not of its start (docs/decisions.md, "Catalogue
// freshness").

import type { RcsClient } from '../api/index.js';

/** How long a catalogue read is kept (*chosen*: half the controller's default --interval, so every resync reads it afresh, once). */
export const CATALOGUE_TTL_MS = 5 * 60_000;

/** The notification types that say a service-wide list changed. */
export const CATALOGUE_TOPICS = ['messagebaseform', 'format'] as const;

interface Entry {
  value: Promise<unknown>;
  readAt: number;
  topics: readonly string[];
}

/** One client's catalogues. */
export class CatalogueStore {
  private readonly entries = new Map<string, Entry>();
  /** Reads older than this are read again (tests shorten it). */
  ttlMs = CATALOGUE_TTL_MS;
  /** The clock (tests move it). */
  now: () => number = Date.now;

  /** The list under `key`: the kept read while it is fresh, else `read()` (shared by every caller until it settles). */
  get<T>(key: string, read: () => Promise<T>, topics: readonly string[] = CATALOGUE_TOPICS): Promise<T> {
    const kept = this.entries.get(key);
    if (kept !== undefined && this.now() - kept.readAt < this.ttlMs) return kept.value as Promise<T>;
    const value = read();
    const entry: Entry = { value, readAt: this.now(), topics };
    this.entries.set(key, entry);
    // A failure is the caller's to report, and never kept.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Forget the lists `topic` concerns (every list when absent). */
  invalidate(topic?: string): number {
    let dropped = 0;
    for (const [key, e] of this.entries) {
      if (topic !== undefined && !e.topics.includes(topic)) continue;
      this.entries.delete(key);
      dropped++;
    }
    return dropped;
  }
}

const stores = new WeakMap<RcsClient, CatalogueStore>();

/** The catalogues of `client` (one store per client, made on first use). */
export function catalogueStore(client: RcsClient): CatalogueStore {
  let s = stores.get(client);
  if (s === undefined) {
    s = new CatalogueStore();
    stores.set(client, s);
  }
  return s;
}

/** A notification of type `topic` came: drop what it concerns from `client`'s catalogues; the number dropped. */
export function invalidateCatalogues(client: RcsClient, topic: string): number {
  return stores.get(client)?.invalidate(topic) ?? 0;
}
