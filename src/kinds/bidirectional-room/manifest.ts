// The `bidirectionalRooms:` section: rooms with a bidirectional ID (`bot-`
// keys) with their fields, and sender-number rooms converted (any other key)
// with the agency linked.

import type { SourceDoc } from '../../manifest/source.js';
import type { SourceLocation } from '../../manifest/types.js';
import type { KindManifest, LintContext } from '../manifest-section.js';
import { menuItems } from '../chatbot/manifest.js';
import { schema } from './schema.js';
import type { DesiredBidirectionalRoom } from './types.js';

type Obj = Record<string, unknown>;

/** The prefix of a bidirectional ID; the service adds it to an id without one. */
export const BIDI_PREFIX = 'bot-';
/** A bidirectional ID as the service keeps it: lower case, the prefix, at most 15 characters. */
export const BIDI_ID = /^bot-[a-z0-9_-]{1,11}$/;

/** The fields of a room with a bidirectional ID (its menu among them); a converted room holds only `botAgencyId`. */
const ROOM_FIELDS = ['subTitle', 'subNum', 'display', 'inputField', 'subDescr', 'saftyStatusYn', 'persistentMenu'] as const;

/** Whether a key names a room with a bidirectional ID (service chat) rather than a converted sender-number room. */
export function isChatKey(key: string): boolean {
  return key.toLowerCase().startsWith(BIDI_PREFIX);
}

/** The bidirectionalRooms section. */
export const bidirectionalManifest: KindManifest = {
  section: 'bidirectionalRooms',
  // After rooms (40) and menus (45): a converted room is declared under chatbots first.
  order: 47,
  schema,
  async build(raw, ctx) {
    for (const [chatbotId, r] of Object.entries(raw as Record<string, Obj>)) {
      if (!ctx.once(chatbotId, 'RCS404', 'chatbotId')) continue;
      ctx.add(chatbotId, toRoom(chatbotId, r, ctx.locationOf(['bidirectionalRooms', chatbotId])));
    }
  },
  lint(ctx) {
    for (const [chatbotId, r] of ctx.brand.bidirectionalRooms ?? []) {
      const src = ctx.srcOf(r);
      if (src === undefined) continue;
      if (r.service === 'chat') lintChatRoom(ctx, src, chatbotId, r);
      else lintConverted(ctx, src, chatbotId, r);
    }
  },
};

function lintChatRoom(ctx: LintContext, src: SourceDoc, chatbotId: string, r: DesiredBidirectionalRoom): void {
  const at = ['bidirectionalRooms', chatbotId];
  if (!BIDI_ID.test(chatbotId)) {
    const hint = chatbotId !== chatbotId.toLowerCase() ? `; the service keeps it in lower case: write "${chatbotId.toLowerCase()}"` : '';
    ctx.diag(src, 'RCS207', at, `bidirectional ID "${chatbotId}" is not one the service keeps: "bot-" and 1 to 11 lower-case letters, digits, "-" or "_"${hint}`, { at: 'key' });
  }
  if (ctx.declared('chatbots', chatbotId)) ctx.diag(src, 'RCS404', at, `room ${chatbotId} is declared under chatbots: too; a room with a bidirectional ID belongs under bidirectionalRooms: only`, { at: 'key' });
  for (const field of ['subTitle', 'subNum'] as const) {
    if (r[field] === undefined) ctx.diag(src, 'RCS202', at, `bidirectional room ${chatbotId} needs ${field} (${field === 'subTitle' ? 'its name' : 'its reply number: an approved sender-number room of the brand'})`, { at: 'key' });
  }
  if (r.subNum !== undefined && isChatKey(r.subNum)) ctx.diag(src, 'RCS207', [...at, 'subNum'], `subNum "${r.subNum}" is a bidirectional ID; a reply number is a sender-number room of the brand`);
}

function lintConverted(ctx: LintContext, src: SourceDoc, chatbotId: string, r: DesiredBidirectionalRoom): void {
  const at = ['bidirectionalRooms', chatbotId];
  for (const field of ROOM_FIELDS) {
    if (r[field] !== undefined) {
      ctx.diag(src, 'RCS201', [...at, field], `${field} of sender-number room ${chatbotId} is the room's own: declare it under chatbots.${chatbotId}; converting the room takes only botAgencyId`, { at: 'key' });
    }
  }
  if (r.botAgencyId === undefined) ctx.diag(src, 'RCS202', at, `converting sender-number room ${chatbotId} needs botAgencyId (the bidirectional agency to link)`, { at: 'key' });
}

function toRoom(chatbotId: string, r: Obj, source: SourceLocation): DesiredBidirectionalRoom {
  const d: DesiredBidirectionalRoom = { chatbotId, service: isChatKey(chatbotId) ? 'chat' : 'a2p', source };
  if (r.subTitle !== undefined) d.subTitle = r.subTitle as string;
  if (r.subNum !== undefined) d.subNum = r.subNum as string;
  if (r.display !== undefined) d.display = r.display as DesiredBidirectionalRoom['display'];
  if (r.inputField !== undefined) d.inputField = r.inputField as 0 | 1;
  if (r.subDescr !== undefined) d.subDescr = r.subDescr as string;
  if (r.saftyStatusYn !== undefined) d.saftyStatusYn = r.saftyStatusYn as 'Y' | 'N';
  if (r.botAgencyId !== undefined) d.botAgencyId = r.botAgencyId as string;
  if (r.persistentMenu !== undefined) d.persistentMenu = menuItems(r.persistentMenu);
  return d;
}
