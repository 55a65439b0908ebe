// The way out of a mess two runs at once can leave: live objects of one kind
// sharing a name the manifests manage. `apply --dedupe` keeps the oldest of
// each group and deletes the newer copies that are identical to it (same
// normalised content, same state); a copy that differs is left for a person,
// because rcsctl cannot know which one is meant.

import type { BrandRef, RcsClient } from '../api/index.js';
import { isServiceError } from '../api/index.js';
import { kindByName } from '../kinds/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { LiveBrand } from '../plan/types.js';
import { hashValue } from '../util/stable-json.js';
import { olderFirst, type NamedKind } from './interference.js';
import { liveOnlyContext } from './stale.js';
import { ERRORS } from '../contract/codes.js';

/** A newer copy and whether it may be deleted. */
export interface DuplicateCopy {
  id: string;
  /** Same content and state as the one kept. */
  identical: boolean;
}

/** Live objects sharing one managed name. */
export interface DuplicateGroup {
  kind: NamedKind;
  name: string;
  /** The oldest: kept. */
  keep: string;
  copies: DuplicateCopy[];
}

/** Same-named live auto-replies and logos whose name the manifests manage. */
export function findDuplicates(desired: DesiredBrand, live: LiveBrand): DuplicateGroup[] {
  const ctx = liveOnlyContext(live);
  const groups: DuplicateGroup[] = [];
  const managed = {
    autoReply: new Set([...desired.autoReplies.values()].filter((a) => a.id === undefined).map((a) => a.name)),
    logo: new Set([...desired.logos.values()].filter((l) => l.fileId === undefined).map((l) => l.name)),
  };
  const collect = <L>(kind: NamedKind, items: L[], info: (l: L) => { id: string; name: string; registerDate: string }): void => {
    const k = kindByName(kind);
    const byName = new Map<string, L[]>();
    for (const l of items) {
      const name = info(l).name;
      if (managed[kind].has(name)) byName.set(name, [...(byName.get(name) ?? []), l]);
    }
    for (const [name, list] of byName) {
      if (list.length < 2) continue;
      const sorted = [...list].sort((a, b) => olderFirst(info(a), info(b)));
      const fingerprint = (l: L): string => hashValue({ state: k.liveState(l) ?? null, value: k.normaliseLive(l, ctx) });
      const first = fingerprint(sorted[0] as L);
      groups.push({ kind, name, keep: info(sorted[0] as L).id, copies: sorted.slice(1).map((l) => ({ id: info(l).id, identical: fingerprint(l) === first })) });
    }
  };
  collect('autoReply', live.autoReplies, (a) => ({ id: a.autoReplyMsgId, name: a.autoReplyMsgName, registerDate: a.registerDate }));
  collect('logo', live.logos, (l) => ({ id: l.fileId, name: l.name, registerDate: l.registerDate }));
  return groups;
}

/** One line per copy: what --dedupe does with it. */
export function describeDuplicates(groups: DuplicateGroup[]): string[] {
  const label = (k: NamedKind): string => (k === 'autoReply' ? 'autoReply' : 'logo');
  return groups.flatMap((g) =>
    g.copies.map((c) =>
      c.identical
        ? `- ${label(g.kind)} "${g.name}" ${c.id}: delete (a newer identical copy of ${g.keep})`
        : `! ${label(g.kind)} "${g.name}" ${c.id}: kept: it differs from ${g.keep}; pin the one the manifest manages with \`id:\` and delete the other yourself`,
    ),
  );
}

/** Delete every identical newer copy; returns the ids deleted (already gone counts as deleted). */
export async function deleteCopies(client: RcsClient, brand: BrandRef, groups: DuplicateGroup[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const g of groups) {
    for (const c of g.copies.filter((x) => x.identical)) {
      try {
        if (g.kind === 'autoReply') await client.autoReplies.delete(brand, c.id, g.name);
        else await client.logos.delete(brand, c.id, g.name);
      } catch (err) {
        if (!isServiceError(err, g.kind === 'autoReply' ? ERRORS.invalidAutoReplyMsgId.code : ERRORS.invalidFileId.code)) throw err;
      }
      deleted.push(c.id);
    }
  }
  return deleted;
}
