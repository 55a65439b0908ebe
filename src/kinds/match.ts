// Identity matching shared by the kinds: a pinned id first, then a unique name.

import type { PlanProblem } from '../core/step.js';
import type { MatchResult } from './resource-kind.js';

/** How to match one kind: pinned id and name of each side. */
export interface MatchRule<D, L> {
  label: string;
  /** Plural of `label` (`auto-replies`). */
  labelPlural: string;
  address(d: D): string;
  pinned(d: D): string | undefined;
  /** Name used when nothing is pinned; undefined matches by id only. */
  name(d: D): string | undefined;
  liveId(l: L): string;
  liveName(l: L): string;
  /** The manifest key that pins the id, for the "pin one" hint (`id`, `fileId`). */
  pinKey: string;
  source(d: D): { file: string; line: number };
}

/** Pair desired and live objects: pinned ids, then names; duplicate live names are a problem. */
export function matchByIdThenName<D, L>(desired: D[], live: L[], rule: MatchRule<D, L>): MatchResult<D, L> {
  const byId = new Map(live.map((l) => [rule.liveId(l), l]));
  const claimed = new Set<string>();
  const pairs: [D, L][] = [];
  const missing: D[] = [];
  const problems: PlanProblem[] = [];
  const unpinned: D[] = [];

  for (const d of desired) {
    const pin = rule.pinned(d);
    if (pin === undefined) {
      unpinned.push(d);
      continue;
    }
    const l = byId.get(pin);
    if (l === undefined) {
      const src = rule.source(d);
      problems.push({
        code: 'E_PLAN_PINNED_MISSING',
        address: rule.address(d),
        message: `${rule.address(d)} pins ${rule.pinKey} ${pin}, but the brand has no ${rule.label} with that id; remove the pin to create a new one`,
        file: src.file,
        line: src.line,
      });
      continue;
    }
    claimed.add(pin);
    pairs.push([d, l]);
  }

  const byName = new Map<string, L[]>();
  for (const l of live) {
    if (claimed.has(rule.liveId(l))) continue;
    const list = byName.get(rule.liveName(l)) ?? [];
    list.push(l);
    byName.set(rule.liveName(l), list);
  }
  for (const d of unpinned) {
    const name = rule.name(d);
    // A live object claimed by an earlier desired one is not offered twice.
    const candidates = name === undefined ? [] : (byName.get(name) ?? []).filter((l) => !claimed.has(rule.liveId(l)));
    if (candidates.length === 1) {
      const l = candidates[0] as L;
      claimed.add(rule.liveId(l));
      pairs.push([d, l]);
    } else if (candidates.length === 0) {
      missing.push(d);
    } else {
      const ids = candidates.map(rule.liveId);
      const src = rule.source(d);
      problems.push({
        code: 'E_PLAN_DUPLICATE_NAME',
        address: rule.address(d),
        message:
          `${ids.length} live ${rule.labelPlural} are named "${name}" (${ids.join(', ')}); ` +
          `pin the one ${rule.address(d)} manages with \`${rule.pinKey}: ${ids[0]}\` in ${src.file}:${src.line}, ` +
          `or run \`rcsctl apply --dedupe --allow-delete\`: it keeps one (the one other resources link to, then the closest to the manifest, then the oldest), re-points links to it and deletes the others`,
        file: src.file,
        line: src.line,
      });
      for (const id of ids) claimed.add(id);
    }
  }
  const extra = live.filter((l) => !claimed.has(rule.liveId(l)));
  return { pairs, missing, extra, problems };
}

/**
 * Pair by an id both sides carry (rooms, menus, agency files, files by name).
 * `extra` is the live objects no desired one names.
 */
export function matchById<D, L>(desired: D[], live: L[], desiredId: (d: D) => string, liveId: (l: L) => string): MatchResult<D, L> {
  const byId = new Map(live.map((l) => [liveId(l), l]));
  const pairs: [D, L][] = [];
  const missing: D[] = [];
  const claimed = new Set<string>();
  for (const d of desired) {
    const l = byId.get(desiredId(d));
    if (l === undefined) missing.push(d);
    else {
      pairs.push([d, l]);
      claimed.add(desiredId(d));
    }
  }
  return { pairs, missing, extra: live.filter((l) => !claimed.has(liveId(l))), problems: [] };
}

// A kind's live list when the service refused to read it. An empty list cannot say so (a brand may
// have no object of the kind), and `match` sees the live list only: this one array, told apart by
// identity, is how a kind's `live` tells its `match` (which then pairs, misses and reports nothing;
// the kind's problems say why it was not read).
const NOT_READ: readonly never[] = Object.freeze([]);

/** The live list of a kind whose list was not read (see `wasNotRead`). */
export function notRead<L>(): L[] {
  return NOT_READ as unknown as L[];
}

/** True when `live` is `notRead()`: nothing was read, so nothing is missing, changed or unmanaged. */
export function wasNotRead(live: readonly unknown[]): boolean {
  return live === NOT_READ;
}

/** The match of a list not read: nothing. */
export function unmatched<D, L>(): MatchResult<D, L> {
  return { pairs: [], missing: [], extra: [], problems: [] };
}
