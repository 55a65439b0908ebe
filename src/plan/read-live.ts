// Read the live state of one brand: every kind's list first (concurrently),
// then every kind's details, `concurrency` at a time over the client's
// keep-alive pool; kinds that read from others' sections (auto-reply files
// from the auto-replies' media fields) read in a later round. The only part of
// planning that touches the network. Generic over the registered kinds.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { LiveBrand } from '../core/live.js';
import { KINDS } from '../kinds/index.js';
import type { LiveCache } from '../kinds/live-cache.js';
import type { AnyKind, ReadEnv } from '../kinds/resource-kind.js';
import type { DesiredBrand } from '../manifest/types.js';

/** How to read. */
export interface ReadLiveOptions {
  concurrency: number;
  /** The manifests' brand: kinds the service cannot list (agency files) read what it names. */
  desired?: DesiredBrand;
  /** Details whose list `updateDate` is unchanged are taken from here. */
  cache?: LiveCache;
  /** Called as detail reads finish, for progress display. */
  onProgress?: (done: number, total: number) => void;
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
    ...(opts.cache !== undefined ? { cache: opts.cache } : {}),
  };
  const readers = KINDS.filter((k): k is AnyKind & Required<Pick<AnyKind, 'read' | 'liveSection'>> => k.read !== undefined && k.liveSection !== undefined);
  const read = new Set<string>();
  let pending = readers;
  let doneCount = 0;
  let total = 0;
  while (pending.length > 0) {
    const round = pending.filter((k) => (k.read.after ?? []).every((name) => read.has(name) || !readers.some((r) => r.name === name)));
    if (round.length === 0) throw new Error(`kinds ${pending.map((k) => k.name).join(', ')} wait for each other to read`);
    const listed = await Promise.all(round.map((k) => k.read.list(env)));
    total += round.reduce((n, k, i) => n + (k.read.detailCount?.(listed[i]) ?? 0), 0);
    const tick = (): void => {
      doneCount++;
      opts.onProgress?.(doneCount, total);
    };
    const values = await Promise.all(round.map((k, i) => (k.read.details !== undefined ? k.read.details(env, listed[i], tick) : listed[i])));
    round.forEach((k, i) => {
      sections[k.liveSection] = values[i];
      read.add(k.name);
    });
    pending = pending.filter((k) => !round.includes(k));
  }
  return { brandId: brand.id, ...sections } as LiveBrand;
}
