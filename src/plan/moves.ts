// `moved:` in plan: a declared rename turns the delete of the live object at
// `from` and the create of the resource at `to` into one update that keeps the
// live id (so its postbacks and the links to it stay). A move whose `from`
// matches no live object is done, and ignored. And where a delete and a create
// of one kind differ in the name only, plan suggests the move that would keep
// the id. Generic: every kind, through what the registry declares.

import type { AnyKind, LiveContext, MatchResult } from '../kinds/resource-kind.js';
import type { DesiredBrand } from '../manifest/types.js';
import { diffObjects } from './diff.js';
import type { KindName } from './types.js';

/** A move plan applied: the resource at `to` is the live object `from` named. */
export interface PlannedMove {
  kind: KindName;
  from: string;
  to: string;
  liveId: string;
}

/** A delete and a create that look like a rename: the declaration that would keep the id. */
export interface RenameHint {
  kind: KindName;
  /** The delete's address (`<kind>.<live id>`). */
  from: string;
  /** The create's address (`<kind>.<key>`). */
  to: string;
  fromName: string;
  toName: string;
}

type Matched = { kind: AnyKind; match: MatchResult<unknown, unknown> };

/** Pair what the brand's moves join (moving them out of `missing` and `extra`); the moves applied. */
export function applyMoves(brand: DesiredBrand, matches: Matched[]): PlannedMove[] {
  const applied: PlannedMove[] = [];
  for (const m of brand.moved ?? []) {
    const from = split(m.from);
    const to = split(m.to);
    if (from === undefined || to === undefined || from.kind !== to.kind) continue;
    const entry = matches.find((x) => x.kind.name === from.kind);
    if (entry === undefined) continue;
    const { kind, match } = entry;
    const li = match.extra.findIndex((l) => kind.identity.liveId(l) === from.key);
    const di = match.missing.findIndex((d) => kind.identity.key(d) === to.key);
    // No live object at `from`: done already (or never there); `to` already matched: nothing to join.
    if (li < 0 || di < 0) continue;
    const [l] = match.extra.splice(li, 1);
    const [d] = match.missing.splice(di, 1);
    match.pairs.push([d, l]);
    applied.push({ kind: kind.name, from: m.from, to: m.to, liveId: kind.identity.liveId(l) });
  }
  return applied;
}

/**
 * Deletes and creates of one kind whose objects are the same but for the name:
 * each live object and each new one in one hint at most. `deleted` are the live
 * objects the plan deletes.
 */
export function renameHints(matches: Matched[], deleted: (kind: AnyKind, l: unknown) => boolean, ctx: LiveContext & Parameters<AnyKind['diff']['normaliseDesired']>[1]): RenameHint[] {
  const hints: RenameHint[] = [];
  for (const { kind, match } of matches) {
    const gone = match.extra.filter((l) => deleted(kind, l));
    if (gone.length === 0 || match.missing.length === 0) continue;
    const used = new Set<unknown>();
    for (const d of match.missing) {
      for (const l of gone) {
        if (used.has(l)) continue;
        const liveName = kind.identity.liveName(l);
        const newName = kind.identity.desiredName(d);
        const changes = diffObjects(kind.diff.normaliseLive(l, ctx), kind.diff.normaliseDesired(d, ctx, l));
        if (!changes.every((c) => c.type === 'change' && c.before === liveName && c.after === newName)) continue;
        used.add(l);
        hints.push({ kind: kind.name, from: `${kind.name}.${kind.identity.liveId(l)}`, to: `${kind.name}.${kind.identity.key(d)}`, fromName: liveName, toName: newName });
        break;
      }
    }
  }
  return hints;
}

function split(address: string): { kind: string; key: string } | undefined {
  const dot = address.indexOf('.');
  return dot < 1 ? undefined : { kind: address.slice(0, dot), key: address.slice(dot + 1) };
}
