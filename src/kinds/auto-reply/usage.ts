// How often the buttons and chips of an auto-reply were pressed: the service
// counts them under the room-menu item that sent the auto-reply (its statistics'
// subList, by the suggestion's place), so an auto-reply no menu sends has no
// figures. Read through the menu's source, once per room and run.

import type { AutoReplyDetail } from '../../api/types.js';
import type { AutoReplyRequest, Suggestion } from '../../contract/wire.js';
import type { LiveBrand } from '../../core/live.js';
import type { Step } from '../../core/step.js';
import { menuSource, readMenuUsage, suggestionKey } from '../persistent-menu/usage.js';
import type { UsageCounted, UsageEntry } from '../resource-kind.js';
import { normaliseSuggestions } from './kind.js';

/** A suggestion of a live auto-reply, with its place as the statistics give it. */
interface Placed {
  label: string;
  reactionType: 'button' | 'chipList';
  cardNum: number;
  buttonNum: number;
  suggestion: Suggestion;
}

function label(s: Suggestion): string | undefined {
  return s.action?.displayText ?? s.reply?.displayText;
}

function placed(buttons: AutoReplyDetail['buttons'], chips: Suggestion[] | undefined): Placed[] {
  const out: Placed[] = [];
  for (const [c, g] of (buttons ?? []).entries()) {
    for (const [b, s] of (g.suggestions ?? []).entries()) {
      const l = label(s);
      if (l !== undefined) out.push({ label: l, reactionType: 'button', cardNum: c + 1, buttonNum: b + 1, suggestion: s });
    }
  }
  for (const [b, s] of (chips ?? []).entries()) {
    const l = label(s);
    if (l !== undefined) out.push({ label: l, reactionType: 'chipList', cardNum: 1, buttonNum: b + 1, suggestion: s });
  }
  return out;
}

/**
 * The buttons and chips a step removes or changes: a delete removes them all;
 * an update removes those the new message has no suggestion of that label in
 * the same place (the card's buttons, or the chips) and changes those whose
 * new suggestion differs.
 */
function entries(step: Step, l: AutoReplyDetail, live: LiveBrand): UsageEntry[] {
  if (step.op !== 'update' && step.op !== 'delete') return [];
  const senders = live.chatbots.flatMap((room) => (room.persistentMenu ?? []).filter((m) => m.autoReplyMsgId === l.autoReplyMsgId && m.postbackId !== undefined).map((m) => ({ room: room.chatbotId, postbackId: m.postbackId as string })));
  if (senders.length === 0) return [];
  const request = step.op === 'update' ? (step.request as Partial<AutoReplyRequest>) : undefined;
  const next = request !== undefined ? placed(request.buttons, request.chipList) : [];
  const out: UsageEntry[] = [];
  for (const p of placed(l.buttons, l.chipList)) {
    const same = next.find((n) => n.label === p.label && n.reactionType === p.reactionType && (p.reactionType === 'chipList' || n.cardNum === p.cardNum));
    const change = same === undefined ? 'removed' : JSON.stringify(normaliseSuggestions([same.suggestion])) === JSON.stringify(normaliseSuggestions([p.suggestion])) ? undefined : 'changed';
    if (change === undefined) continue;
    for (const s of senders) out.push({ entry: p.label, change, source: menuSource(s.room), key: suggestionKey(s.postbackId, p.reactionType, p.cardNum, p.buttonNum) });
  }
  return out;
}

/** The auto-reply kind's usage. */
export const autoReplyUsage: UsageCounted<AutoReplyDetail>['usage'] = { entries, read: readMenuUsage };
