// The `chatbots:` section: rooms by chatbotId, with an optional certificate
// (to register a new room) and persistent menu (the persistent menu kind's).

import type { FileUse } from '../../manifest/local-files.js';
import type { SourceLocation } from '../../manifest/types.js';
import { CERTIFICATE } from '../../spec/limits.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredChatbot, DesiredMenuItem } from './types.js';

type Obj = Record<string, unknown>;

/** A room's subscription certificate (a document, not measured). */
const CERTIFICATE_FILE: FileUse = { ...CERTIFICATE, image: false, label: 'subscription certificate' };

/** The chatbots section. */
export const chatbotManifest: KindManifest = {
  section: 'chatbots',
  order: 40,
  schema,
  async build(raw, ctx) {
    for (const [chatbotId, c] of Object.entries(raw as Record<string, Obj>)) {
      if (!ctx.once(chatbotId, 'RCS404', 'chatbotId')) continue;
      const d = toChatbot(chatbotId, c, ctx.locationOf(['chatbots', chatbotId]));
      const cert = c.certificate as { path: string } | undefined;
      if (cert !== undefined) {
        const loaded = await ctx.file(['chatbots', chatbotId, 'certificate', 'path'], cert.path, CERTIFICATE_FILE);
        if (loaded !== undefined) d.certificate = loaded;
      }
      ctx.add(chatbotId, d);
    }
  },
  // Whether the room exists is known only to plan (the live list); what validate knows is that registering it needs the certificate: a note, never a failure.
  lint(ctx) {
    for (const [chatbotId, c] of ctx.brand.chatbots) {
      const src = ctx.srcOf(c);
      if (src === undefined || c.certificate !== undefined) continue;
      ctx.diag(src, 'RCS514', ['chatbots', chatbotId], `room ${chatbotId} declares no certificate; if it is not registered yet, registering it will need one (plan checks the live list)`, { at: 'key' });
    }
  },
};

function toChatbot(chatbotId: string, c: Obj, source: SourceLocation): DesiredChatbot {
  const d: DesiredChatbot = { chatbotId, source };
  if (c.subTitle !== undefined) d.subTitle = c.subTitle as string;
  if (c.subNum !== undefined) d.subNum = c.subNum as string;
  if (c.display !== undefined) d.display = c.display as DesiredChatbot['display'];
  if (c.inputField !== undefined) d.inputField = c.inputField as 0 | 1;
  if (c.rcsReply !== undefined) d.rcsReply = c.rcsReply as '0' | '1';
  if (c.subDescr !== undefined) d.subDescr = c.subDescr as string;
  if (c.saftyStatusYn !== undefined) d.saftyStatusYn = c.saftyStatusYn as 'Y' | 'N';
  if (c.persistentMenu !== undefined) d.persistentMenu = menuItems(c.persistentMenu);
  return d;
}

/** A room entry's schema-clean `persistentMenu:` as desired items (a bidirectional room's too). */
export function menuItems(raw: unknown): DesiredMenuItem[] {
  return (raw as Obj[]).map((m) => {
    const item: DesiredMenuItem = { type: m.type as DesiredMenuItem['type'], title: m.title as string };
    if (m.autoReply !== undefined) item.autoReply = m.autoReply as string;
    if (m.autoReplyMsgId !== undefined) item.autoReplyMsgId = m.autoReplyMsgId as string;
    if (m.feedId !== undefined) item.feedId = m.feedId as string;
    if (m.actionType !== undefined) item.actionType = 'dialerAction';
    if (m.action !== undefined) item.action = m.action as NonNullable<DesiredMenuItem['action']>;
    return item;
  });
}
