// How a handset shows an auto-reply (or any kind drawn as a message): its
// handset in the brand page's "Auto-replies" section, which replies open, and
// each changed one before and after on `plan --preview`.

import type { DesiredBrand } from '../../manifest/types.js';
import { messageHandset } from '../handset-draw.js';
import { messageView, outgoing, type MessageView, type RawMessage } from '../handset-model.js';
import type { Handset, KindPreview, ShownSource } from '../handset.js';

/** A message as a handset draws it: body values are text, or the local file (image) a field shows. */
export interface ShownMessage {
  name: string;
  messagebaseId: string;
  body: Readonly<Record<string, unknown>>;
  buttons?: readonly unknown[];
  chipList?: readonly unknown[];
  source: ShownSource;
}

function messageHandsetOf(view: MessageView): Handset<MessageView> {
  return { key: view.key, address: view.address, name: view.name, links: outgoing(view), view, html: (o, extra) => messageHandset(view, o, extra) };
}

/** A normalised form (a plan's live or proposed side) as a message. */
function asRawMessage(key: string, address: string, value: unknown): RawMessage {
  const v = value as { name?: string; messagebaseId?: string; body?: Record<string, unknown>; buttons?: RawMessage['buttons']; chipList?: RawMessage['chipList'] };
  const m: RawMessage = { key, address, name: v.name ?? address, messagebaseId: v.messagebaseId ?? '', body: v.body ?? {} };
  if (v.buttons !== undefined) m.buttons = v.buttons;
  if (v.chipList !== undefined) m.chipList = v.chipList;
  return m;
}

/**
 * The drawing of a kind shown as a message: `name` and `pinnedId` are how
 * replies find it (its handle, or the live id it is pinned to), `shown` what
 * its handset draws. Its changes are drawn from the normalised form (`name`,
 * `messagebaseId`, `body`, `buttons`, `chipList`).
 */
export function messagePreview<D>(m: { name(d: D): string; pinnedId?(d: D): string | undefined; shown(d: D, brand: DesiredBrand): ShownMessage }): KindPreview<D> {
  return {
    page: {
      id: 'replies',
      heading: 'Auto-replies',
      toc: 'Auto-replies',
      order: 30,
      anchor: 'ar',
      always: true,
      counted: true,
      paged: true,
      name: m.name,
      target(d) {
        const pinnedId = m.pinnedId?.(d);
        return pinnedId === undefined ? { name: m.name(d) } : { name: m.name(d), pinnedId };
      },
      handset(d, ctx) {
        const s = m.shown(d, ctx.brand);
        const raw: RawMessage = { key: ctx.anchor, address: ctx.address, name: s.name, messagebaseId: s.messagebaseId, body: { ...s.body }, buttons: (s.buttons ?? []) as RawMessage['buttons'], chipList: (s.chipList ?? []) as RawMessage['chipList'], source: ctx.where(s.source) };
        return messageHandsetOf(messageView(raw, ctx.resolvers));
      },
    },
    change: {
      noun: 'auto-reply',
      handset: (value, ctx) => messageHandsetOf(messageView(asRawMessage(ctx.anchor, ctx.step.address, value), ctx.resolvers)),
    },
  };
}
