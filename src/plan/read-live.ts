// Read the live state of one brand: every kind concurrently, over the
// client's keep-alive pool. A kind read in detail (auto-replies, rooms,
// templates) starts each detail read as soon as its page of the list arrives,
// so detail reads overlap the list's later pages; `concurrency` detail reads
// at a time per kind, under the client's one limit. Kinds that read from
// others' sections (auto-reply files from the auto-replies' media fields) read
// in a later round. The only part of planning that touches the network.
// Generic over the registered kinds.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { LiveBrand } from '../core/live.js';
import { KINDS } from '../kinds/index.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { AnyKind, KindReader, ReadEnv } from '../kinds/resource-kind.js';
import type { DesiredBrand } from '../manifest/types.js';
import { mapAsListed } from '../util/concurrency.js';

/** How to read. */
export interface ReadLiveOptions {
  concurrency: number;
  /** The manifests' brand: kinds the service cannot list (agency files) read what it names. */
  desired?: DesiredBrand;
  /** The account reads that name one act as when the manifests name none (`export --account`, else the run's RCSCTL_PERSON_ID). */
  account?: string;
  /** Details whose list `updateDate` is unchanged are taken from here. */
  cache?: LiveCache;
  /**
   * Called as detail reads finish, for progress display. `total` is the
   * lists' count of details to read, known as their first pages arrive.
   */
  onProgress?: (done: number, total: number) => void;
}

/** Counts detail reads across the kinds of a brand, for `onProgress`. */
interface Counter {
  /** A list has `expected` items now (its pagination total, or the items it has listed). */
  expect(kind: string, expected: number): void;
  tick(): void;
}

/** Read everything the registered kinds manage in one brand. */
export async function readLive(client: RcsClient, brand: BrandRef, opts: ReadLiveOptions): Promise<LiveBrand> {
  const sections: Record<string, unknown> = {};
  const env: ReadEnv = {
    client,
    brand,
    concurrency: opts.concurrency,
    live: sections,
    ...(opts.desired !== undefined ? { desired: opts.desired } : {}),
    ...(opts.account !== undefined ? { account: opts.account } : {}),
    ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
  };
  const readers = KINDS.flatMap((k) => (k.read.reader !== undefined ? [{ name: k.name, reader: k.read.reader, section: k.read.section }] : []));
  const counter = progressCounter(opts.onProgress);
  const read = new Set<string>();
  let pending = readers;
  while (pending.length > 0) {
    const round = pending.filter((k) => (k.reader.after ?? []).every((name) => read.has(name) || !readers.some((r) => r.name === name)));
    if (round.length === 0) throw new Error(`kinds ${pending.map((k) => k.name).join(', ')} wait for each other to read`);
    const values = await Promise.all(round.map((k) => readKind(k.name, k.reader, env, counter)));
    round.forEach((k, i) => {
      sections[k.section] = values[i];
      read.add(k.name);
    });
    pending = pending.filter((k) => !round.includes(k));
  }
  return { brandId: brand.id, ...sections } as LiveBrand;
}

/** One kind's section: its list, or its list and every detail, each started as its item is listed. */
async function readKind(name: string, reader: KindReader, env: ReadEnv, counter: Counter): Promise<unknown> {
  if ('list' in reader) return reader.list(env);
  const source = reader.items(env);
  const listing = source as Partial<{ total: number }>;
  let listed = 0;
  const { items, results } = await mapAsListed(
    source,
    env.concurrency,
    async (item) => {
      const detail: unknown = await reader.detail(env, item);
      counter.tick();
      return detail;
    },
    () => {
      listed++;
      counter.expect(name, Math.max(listed, listing.total ?? 0));
    },
  );
  counter.expect(name, items.length);
  return reader.section !== undefined ? reader.section(env, items, results) : results;
}

function progressCounter(onProgress: ((done: number, total: number) => void) | undefined): Counter {
  const expected = new Map<string, number>();
  let total = 0;
  let done = 0;
  return {
    expect(kind, n) {
      total += n - (expected.get(kind) ?? 0);
      expected.set(kind, n);
    },
    tick() {
      done++;
      onProgress?.(done, total);
    },
  };
}
