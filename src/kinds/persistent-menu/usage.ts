// How often a room's menu items, and the buttons and chips of the auto-replies
// they send, were pressed: one statistics read per room and run (the
// `menu:<chatbotId>` source), shared by the menu kind and the auto-reply kind.

import type { BrandRef, RcsClient } from '../../api/index.js';
import type { ChatbotDetail } from '../../api/types.js';
import type { PersistentMenuItem, PersistentMenuRequestItem } from '../../contract/wire.js';
import type { Step } from '../../core/step.js';
import type { UsageCounted, UsageEntry } from '../resource-kind.js';

/** The source of a room's menu statistics. */
export function menuSource(chatbotId: string): string {
  return `menu:${chatbotId}`;
}

/** The key of a menu item's own presses. */
export function itemKey(postbackId: string): string {
  return `item:${postbackId}`;
}

/** The key of the presses of a button or chip (its place in the auto-reply) sent by the menu item `postbackId`. */
export function suggestionKey(postbackId: string, reactionType: string, cardNum: number, buttonNum: number): string {
  return `sub:${postbackId}:${reactionType}/${cardNum}/${buttonNum}`;
}

/** Presses by key of one room's menu, summed over the days from `from` to `to`. */
export async function readMenuUsage(client: RcsClient, brand: BrandRef, source: string, from: string, to: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const add = (key: string, n: number | undefined): void => {
    counts.set(key, (counts.get(key) ?? 0) + (n ?? 0));
  };
  for (const day of await client.statistics.menu(brand, source.slice('menu:'.length), from, to)) {
    for (const item of day.menuList) {
      add(itemKey(item.postbackId), item.clickCount);
      for (const sub of item.subList ?? []) {
        if (sub.reactionType !== undefined && sub.reactionType !== 'NA') add(suggestionKey(item.postbackId, sub.reactionType, sub.cardNum ?? 0, sub.buttonNum ?? 0), sub.clickCount);
      }
    }
  }
  return counts;
}

/** The live menu in ordNo order. */
export function liveMenu(l: ChatbotDetail): PersistentMenuItem[] {
  return [...(l.persistentMenu ?? [])].sort((a, b) => a.ordNo - b.ordNo);
}

/**
 * The menu items a step removes or changes: a delete removes them all; a
 * replacement changes those whose new item of the same title differs (what it
 * sends, its action) and those renamed (a new title sending the same), and
 * removes the others no item of the new menu has the title of.
 */
function menuEntries(step: Step, l: ChatbotDetail): UsageEntry[] {
  if (step.op !== 'update' && step.op !== 'delete') return [];
  const next = step.op === 'update' ? ((step.request as { persistentMenu?: { menu?: PersistentMenuRequestItem[] } }).persistentMenu?.menu ?? []) : [];
  const live = liveMenu(l);
  // New items of a title no live item has: one that sends what a vanished live item sent is that item renamed (a change, as the plan's diff shows it).
  const fresh = next.filter((n) => !live.some((i) => i.title === n.title));
  const out: UsageEntry[] = [];
  for (const item of live) {
    if (item.postbackId === undefined) continue;
    const same = next.find((n) => n.title === item.title);
    let change: UsageEntry['change'] | undefined;
    if (same !== undefined) change = sameItem(item, same) ? undefined : 'changed';
    else {
      const renamed = fresh.findIndex((n) => sameItem(item, n));
      change = renamed >= 0 ? 'changed' : 'removed';
      if (renamed >= 0) fresh.splice(renamed, 1);
    }
    if (change !== undefined) out.push({ entry: item.title, change, source: menuSource(l.chatbotId), key: itemKey(item.postbackId) });
  }
  return out;
}

function sameItem(live: PersistentMenuItem, next: PersistentMenuRequestItem): boolean {
  const fields = (i: PersistentMenuItem | PersistentMenuRequestItem): unknown => ({ type: i.type, autoReplyMsgId: i.autoReplyMsgId, feedId: i.feedId, actionType: i.actionType, action: i.action });
  return JSON.stringify(fields(live)) === JSON.stringify(fields(next));
}

/** The menu kind's usage. */
export const menuUsage: UsageCounted<ChatbotDetail>['usage'] = {
  entries: (step, l) => menuEntries(step, l),
  read: readMenuUsage,
};
