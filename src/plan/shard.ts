// Splitting brands across CI jobs: `--shard i/n` keeps the brands whose id
// hashes to shard i of n. The hash depends on the brand id alone, so every
// job agrees without talking to the others, the n shards partition the
// brands, and a brand stays in its shard when others are added or removed.

import { createHash } from 'node:crypto';
import { RcsctlError } from '../errors.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** The largest shard count accepted. */
export const MAX_SHARDS = 256;

/** Parse `i/n` (1 ≤ i ≤ n ≤ 256); throws E_USAGE naming the flag otherwise. */
export function parseShard(text: string, flag = '--shard'): Shard {
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new RcsctlError('E_USAGE', `${flag} must be i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (for example 2/3), not "${text}"`);
  }
  return { index, count };
}

/** The shard (1-based) a brand id belongs to among `count`: the first 32 bits of its SHA-256, modulo `count`. */
export function shardOf(brandId: string, count: number): number {
  const digest = createHash('sha256').update(brandId, 'utf8').digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

/** True when `brandId` falls in `shard` (always, without one). */
export function inShard(brandId: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(brandId, shard.count) === shard.index;
}

/** `2/3`. */
export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
