// Rooms back to a manifest, each with its persistent menu (menu items link to
// auto-replies by handle).

import type { ChatbotDetail, PersistentMenuItem } from '../../api/types.js';
import type { ExportContext, KindExporter } from '../resource-kind.js';

/** The `chatbots:` section. */
export const chatbotExporter: KindExporter<ChatbotDetail> = {
  section: 'chatbots',
  entries(rooms, ctx) {
    const out: Record<string, unknown> = {};
    for (const c of [...rooms].sort((a, b) => a.chatbotId.localeCompare(b.chatbotId))) out[c.chatbotId] = chatbot(c, ctx);
    return out;
  },
};

function chatbot(c: ChatbotDetail, ctx: ExportContext): Record<string, unknown> {
  const out: Record<string, unknown> = { subTitle: c.subTitle };
  if (c.subNum !== null && c.subNum !== undefined && c.subNum !== '') out.subNum = c.subNum;
  out.display = c.display;
  out.inputField = c.inputField;
  out.rcsReply = c.rcsReply;
  if (c.subDescr !== null && c.subDescr !== '') out.subDescr = c.subDescr;
  out.saftyStatusYn = c.saftyStatusYn;
  const menu = exportedMenu(c, ctx);
  if (menu !== undefined) out.persistentMenu = menu;
  return out;
}

/** A room's live menu as a manifest's `persistentMenu:` (items in ordNo order, auto-replies by handle), or undefined without one (a bidirectional room's too). */
export function exportedMenu(c: ChatbotDetail, ctx: ExportContext): Record<string, unknown>[] | undefined {
  const menu = [...(c.persistentMenu ?? [])].sort((a, b) => a.ordNo - b.ordNo);
  return menu.length > 0 ? menu.map((i) => menuItem(i, ctx)) : undefined;
}

function menuItem(i: PersistentMenuItem, ctx: ExportContext): Record<string, unknown> {
  const out: Record<string, unknown> = { type: i.type, title: i.title };
  if (i.autoReplyMsgId !== undefined) {
    const handle = ctx.handle('autoReply', i.autoReplyMsgId);
    if (handle !== undefined) out.autoReply = handle;
    else out.autoReplyMsgId = i.autoReplyMsgId;
  }
  if (i.feedId !== undefined) out.feedId = i.feedId;
  if (i.actionType !== undefined) out.actionType = i.actionType;
  if (i.action !== undefined) out.action = i.action;
  return out;
}
