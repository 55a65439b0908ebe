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

/**
 * Where a sharded report came from: shard `index` of `count`, split from a
 * brand list of `brandSetSize` ids whose digest is `brandSet`. `report merge`
 * checks that its reports are every shard of one split, each once.
 */
export interface ShardOrigin {
  index: number;
  count: number;
  /** `sha256:` and the first 16 hex digits of the SHA-256 of the sorted brand ids, one a line. */
  brandSet: string;
  brandSetSize: number;
}

/** The origin of a report made with `shard` from the brands `allIds` (every brand the paths declare, before selection). */
export function shardOrigin(shard: Shard, allIds: readonly string[]): ShardOrigin {
  const ids = [...new Set(allIds)].sort();
  const digest = createHash('sha256').update(ids.join('\n'), 'utf8').digest('hex').slice(0, 16);
  return { index: shard.index, count: shard.count, brandSet: `sha256:${digest}`, brandSetSize: ids.length };
}

/**
 * Why `--brand` ids found no brand: each id a shard holds elsewhere is named
 * with its shard; ids no manifest declares are listed with what was found.
 */
export function missingBrandsMessage(missing: readonly string[], allIds: readonly string[], shard: Shard | undefined): string {
  const parts: string[] = [];
  const undeclared: string[] = [];
  for (const id of missing) {
    if (shard === undefined || !allIds.includes(id)) {
      undeclared.push(id);
      continue;
    }
    const home = `${shardOf(id, shard.count)}/${shard.count}`;
    parts.push(`brand ${id} is in shard ${home}, not ${shardLabel(shard)}: run it with --shard ${home}, or without --shard`);
  }
  if (undeclared.length > 0) parts.push(`no manifest declares brand ${undeclared.join(', ')} (found: ${allIds.join(', ') || 'none'})`);
  return parts.join('; ');
}

/**
 * What a shard set merged with `report merge --allow-partial` lacked. The
 * merged report carries it (`partial`), and every view of it says so.
 */
export interface ShardGaps {
  /** The split the set was checked against: the one most reports share. */
  split: Omit<ShardOrigin, 'index'>;
  /** Shards no report was given for (`3/4`). */
  missing: string[];
  /** Shards given more than once: the first file was merged, these were left out. */
  duplicated: { shard: string; files: string[] }[];
  /** Reports of another split (another shard count or brand list) or made without --shard: left out. */
  foreign: { file: string; origin?: ShardOrigin }[];
}
