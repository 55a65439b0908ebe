// Auto-replies back to a manifest, written so that a plan right away is empty:
// names and ids as stored, postback data by the kind's own rule (withUserPostback: the user's kept, the service's fill-in dropped), copyAllowed
// only when false, media and reply links by handle. A name two live
// auto-replies share cannot identify either: those are pinned by id.

import type { AutoReplyDetail, ButtonGroup, Suggestion } from '../../api/types.js';
import { MEDIA_FIELD, mediaFileId } from '../../spec/media.js';
import { assignHandles, shared } from '../handles.js';
import type { ExportContext, KindExporter } from '../resource-kind.js';
import { withUserPostback } from './kind.js';

/** The `autoReplies:` section. */
export const autoReplyExporter: KindExporter<AutoReplyDetail> = {
  section: 'autoReplies',
  handles: (list) => assignHandles(list, (a) => a.autoReplyMsgId, (a) => a.autoReplyMsgName, 'reply'),
  entries(list, ctx) {
    const sharedNames = shared(list.map((a) => a.autoReplyMsgName));
    const out: Record<string, unknown> = {};
    const handleOf = (a: AutoReplyDetail): string => ctx.handle('autoReply', a.autoReplyMsgId) as string;
    for (const a of [...list].sort((x, y) => handleOf(x).localeCompare(handleOf(y)))) {
      const entry = autoReply(a, ctx);
      out[handleOf(a)] = sharedNames.has(a.autoReplyMsgName) ? { id: a.autoReplyMsgId, ...entry } : entry;
    }
    for (const name of [...sharedNames].sort()) {
      ctx.note(`auto-reply name "${name}" is used more than once live: those entries are pinned by \`id:\`, but manifest names must be unique, so rename all but one (in the manifest; apply renames them live) before validate passes`);
    }
    return out;
  },
};

function autoReply(a: AutoReplyDetail, ctx: ExportContext): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(a.body ?? {})) {
    const handle = MEDIA_FIELD.test(field) ? ctx.handle('file', mediaFileId(value)) : undefined;
    body[field] = handle !== undefined ? { file: handle } : value;
  }
  const out: Record<string, unknown> = { name: a.autoReplyMsgName, messagebaseId: a.messagebaseId };
  if (a.copyAllowed === false) out.copyAllowed = false;
  out.body = body;
  const buttons = (a.buttons ?? []).map((g: ButtonGroup) => (g.suggestions === undefined ? {} : { suggestions: g.suggestions.map((s) => suggestion(s, ctx)) }));
  if (buttons.length > 0) out.buttons = buttons;
  if ((a.chipList ?? []).length > 0) out.chipList = (a.chipList ?? []).map((s) => suggestion(s, ctx));
  return out;
}

/** A suggestion as the manifest writes it: postback data the user set kept, the service's fill-in dropped, reply links by handle. */
function suggestion(s: Suggestion, ctx: ExportContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.action !== undefined) {
    out.action = withUserPostback(s.action);
  }
  if (s.reply !== undefined) {
    const reply: Record<string, unknown> = {};
    const id = s.reply.autoReplyMsgId;
    const handle = id !== undefined ? ctx.handle('autoReply', id) : undefined;
    if (handle !== undefined) reply.autoReply = handle;
    else if (id !== undefined) reply.autoReplyMsgId = id;
    if (s.reply.displayText !== undefined) reply.displayText = s.reply.displayText;
    const own = withUserPostback(s.reply).postback;
    if (own !== undefined) reply.postback = own;
    out.reply = reply;
  }
  return out;
}

