// A room's `persistentMenu:` (inside the chatbots section, or a `bot-` room's
// inside bidirectionalRooms): the menu item
// definition, and the lint rules for items (fields that do not fit the type,
// a menu on a room that takes no replies, links to missing handles).

import type { SourceDoc } from '../../manifest/source.js';
import type { DesiredMenuItem } from '../chatbot/types.js';
import type { KindManifest, LintContext } from '../manifest-section.js';
import { schema } from './schema.js';

type MenuField = 'autoReply' | 'autoReplyMsgId' | 'feedId' | 'actionType' | 'action';

// The service answers a menu item carrying another type's fields with
// 64377 Invalid_menu_format; say so before any request.
const MENU_FIELDS_BY_TYPE = {
  reply: ['autoReply', 'autoReplyMsgId'] as MenuField[],
  feed: ['feedId'] as MenuField[],
  action: ['actionType', 'action'] as MenuField[],
  other(type: 'reply' | 'feed' | 'action'): MenuField[] {
    const all: MenuField[] = ['autoReply', 'autoReplyMsgId', 'feedId', 'actionType', 'action'];
    return all.filter((f) => !this[type].includes(f));
  },
};

/** The menu's part of the manifest. */
export const menuManifest: KindManifest = {
  order: 45,
  schema,
  lint(ctx) {
    for (const [chatbotId, c] of ctx.brand.chatbots) {
      const src = ctx.srcOf(c);
      if (src === undefined || c.persistentMenu === undefined) continue;
      const base = ['chatbots', chatbotId, 'persistentMenu'];
      if (c.persistentMenu.length > 0 && c.rcsReply !== undefined && c.rcsReply !== '1') {
        ctx.diag(src, 'RCS505', base, `room ${chatbotId} has rcsReply "${c.rcsReply}"; a persistent menu needs rcsReply "1"`);
      }
      lintItems(ctx, src, base, c.persistentMenu);
    }
    // A room with a bidirectional ID always takes RCS replies; a converted room's menu is refused by its own section's lint.
    for (const [chatbotId, r] of ctx.brand.bidirectionalRooms ?? []) {
      const src = ctx.srcOf(r);
      if (src === undefined || r.persistentMenu === undefined || r.service !== 'chat') continue;
      lintItems(ctx, src, ['bidirectionalRooms', chatbotId, 'persistentMenu'], r.persistentMenu);
    }
  },
};

/** The items of one room's menu: fields of another type, both ways of naming an auto-reply, handles. */
function lintItems(ctx: LintContext, src: SourceDoc, base: (string | number)[], menu: DesiredMenuItem[]): void {
  menu.forEach((m, i) => {
    for (const field of MENU_FIELDS_BY_TYPE.other(m.type)) {
      if (m[field] !== undefined) {
        ctx.diag(src, 'RCS511', [...base, i, field], `"${field}" does not belong on a menu item of type ${m.type}; it takes ${MENU_FIELDS_BY_TYPE[m.type].join(', ')}`, { at: 'key' });
      }
    }
    if (m.autoReply !== undefined && m.autoReplyMsgId !== undefined) {
      ctx.diag(src, 'RCS511', [...base, i, 'autoReplyMsgId'], 'a reply item takes "autoReply" or "autoReplyMsgId", not both', { at: 'key' });
    }
    if (m.autoReply !== undefined) ctx.checkRef(src, [...base, i, 'autoReply'], 'autoReplies', 'auto-reply', m.autoReply, 'RCS402');
    if (m.autoReplyMsgId !== undefined) {
      ctx.diag(src, 'RCS506', [...base, i, 'autoReplyMsgId'], `menu item links to auto-reply ${m.autoReplyMsgId}, which these manifests do not manage`);
    }
  });
}
