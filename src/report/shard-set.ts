// Whether the reports given to `report merge` are every shard of one split,
// each once. A sharded report records its shard and the brand list it was
// split from (src/plan/shard.ts, ShardOrigin); the set is whole when the
// reports share one shard count and brand list and cover every shard.

import type { ShardGaps, ShardOrigin } from '../plan/shard.js';

/** A report as the check sees it: its file and the shard it records. */
interface Part {
  file: string;
  report: { shard?: ShardOrigin };
}

/** The reports to merge, and what the set lacks (undefined when it is whole). */
export interface ShardSet<P extends Part> {
  kept: P[];
  gaps?: ShardGaps;
}

/**
 * Check the set: the split most reports share (the first file's on a tie) is
 * the set's; a report of another split is foreign, a second report of one
 * shard a duplicate, and a shard of the split with no report missing. Both
 * foreign and duplicated reports are left out of `kept`. Reports that record
 * no shard at all (made without --shard) are merged unchecked.
 */
export function checkShardSet<P extends Part>(parts: P[]): ShardSet<P> {
  const origins = parts.map((p) => p.report.shard).filter((o): o is ShardOrigin => o !== undefined);
  if (origins.length === 0) return { kept: parts };
  const splits = new Map<string, number>();
  for (const o of origins) splits.set(splitKey(o), (splits.get(splitKey(o)) ?? 0) + 1);
  const best = Math.max(...splits.values());
  const reference = origins.find((o) => splits.get(splitKey(o)) === best) as ShardOrigin;
  const { index: _, ...split } = reference;
  const gaps: ShardGaps = { split, missing: [], duplicated: [], foreign: [] };
  const kept: P[] = [];
  const byIndex = new Map<number, string[]>();
  for (const p of parts) {
    const o = p.report.shard;
    if (o === undefined || splitKey(o) !== splitKey(reference)) {
      gaps.foreign.push(o === undefined ? { file: p.file } : { file: p.file, origin: o });
      continue;
    }
    const files = byIndex.get(o.index) ?? [];
    files.push(p.file);
    byIndex.set(o.index, files);
    if (files.length === 1) kept.push(p);
  }
  for (let i = 1; i <= reference.count; i++) if (!byIndex.has(i)) gaps.missing.push(`${i}/${reference.count}`);
  for (const [i, files] of [...byIndex].sort(([a], [b]) => a - b)) if (files.length > 1) gaps.duplicated.push({ shard: `${i}/${reference.count}`, files });
  const whole = gaps.missing.length === 0 && gaps.duplicated.length === 0 && gaps.foreign.length === 0;
  return whole ? { kept } : { kept, gaps };
}

/** The gaps in one sentence: `shard 3/4 is missing; shard 2/4 was given twice (a.json, b.json); c.json is shard 1/3, the others are shards of 4`. */
export function describeGaps(g: ShardGaps): string {
  const parts: string[] = [];
  if (g.missing.length > 0) parts.push(`shard${g.missing.length === 1 ? '' : 's'} ${g.missing.join(', ')} ${g.missing.length === 1 ? 'is' : 'are'} missing`);
  for (const d of g.duplicated) parts.push(`shard ${d.shard} was given ${d.files.length === 2 ? 'twice' : `${d.files.length} times`} (${d.files.join(', ')})`);
  const list = (o: Omit<ShardOrigin, 'index'>): string => `${o.brandSetSize} brand${o.brandSetSize === 1 ? '' : 's'}, ${o.brandSet}`;
  for (const { file, origin: o } of g.foreign) {
    if (o === undefined) parts.push(`${file} was made without --shard`);
    else if (o.brandSet !== g.split.brandSet) parts.push(`${file} is shard ${o.index}/${o.count} of another brand list (${list(o)}; the others: ${list(g.split)})`);
    else parts.push(`${file} is shard ${o.index}/${o.count}, the others are shards of ${g.split.count}`);
  }
  return parts.join('; ');
}

function splitKey(o: ShardOrigin): string {
  return `${o.count} ${o.brandSet}`;
}
