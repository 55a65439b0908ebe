// The `autoReplies:` section: messages by handle, and the lint rules that catch
// what the service would ignore or refuse (unknown messagebases, body fields a
// messagebase ignores, duplicate names and pins, links to missing handles).

import type { Action } from '../../api/types.js';
import type { SourceLocation } from '../../manifest/types.js';
import type { PathSegments, SourceDoc } from '../../manifest/source.js';
import { closest, didYouMean } from '../../manifest/suggest.js';
import { MEDIA_FIELD } from '../../spec/media.js';
import { KNOWN_MESSAGEBASES, messagebaseFacts } from '../../spec/messagebases.js';
import type { KindManifest, LintContext } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredAutoReply, DesiredBodyValue, DesiredSuggestion } from './types.js';

type Obj = Record<string, unknown>;

/** The auto-replies section. */
export const autoReplyManifest: KindManifest = {
  section: 'autoReplies',
  order: 20,
  schema,
  async build(raw, ctx) {
    for (const [handle, a] of Object.entries(raw as Record<string, Obj>)) {
      if (!ctx.once(handle, 'RCS403', 'auto-reply handle')) continue;
      ctx.add(handle, toAutoReply(handle, a, ctx.locationOf(['autoReplies', handle])));
    }
  },
  lint(ctx) {
    const { brand } = ctx;
    const checkSuggestion = (src: SourceDoc, s: DesiredSuggestion, at: PathSegments): void => {
      const reply = s.reply;
      if (reply === undefined) return;
      const link = reply.autoReply !== undefined || reply.autoReplyMsgId !== undefined;
      if (link && reply.postback !== undefined && reply.postback.data !== '') {
        ctx.diag(src, 'RCS512', [...at, 'reply', 'postback'], 'the service assigns the postback data of a reply that links to another auto-reply; data set here may be replaced, and then shows as a change on every plan', { at: 'key' });
      }
      if (reply.autoReply !== undefined) ctx.checkRef(src, [...at, 'reply', 'autoReply'], 'autoReplies', 'auto-reply', reply.autoReply, 'RCS402');
      if (reply.autoReplyMsgId !== undefined) {
        ctx.diag(src, 'RCS506', [...at, 'reply', 'autoReplyMsgId'], `reply links to auto-reply ${reply.autoReplyMsgId}, which these manifests do not manage; use autoReply: <handle> to link within the brand`);
      }
    };
    const names = new Map<string, string>();
    const ids = new Map<string, string>();
    const knownIds = KNOWN_MESSAGEBASES.map((m) => m.messagebaseId);
    for (const [handle, a] of brand.autoReplies) {
      const src = ctx.srcOf(a);
      if (src === undefined) continue;
      const base = ['autoReplies', handle];
      const prior = names.get(a.name);
      if (prior !== undefined) {
        ctx.diag(src, 'RCS503', [...base, 'name'], `auto-reply name "${a.name}" is also used by "${prior}"; names identify auto-replies, so they must be unique`);
      } else names.set(a.name, handle);
      if (a.id !== undefined) {
        const priorId = ids.get(a.id);
        if (priorId !== undefined) ctx.diag(src, 'RCS509', [...base, 'id'], `auto-reply id ${a.id} is also pinned by "${priorId}"`);
        else ids.set(a.id, handle);
      }
      const facts = messagebaseFacts(a.messagebaseId);
      if (facts === undefined) {
        // The set is closed (docs/decisions.md): every other id is refused by the service or stored as
        // another one, so validate refuses it as plan and apply do (they load through this same check).
        ctx.diag(src, 'RCS502', [...base, 'messagebaseId'], `"${a.messagebaseId}" is not a common messagebase an auto-reply can use${didYouMean(a.messagebaseId, knownIds) || ` (${knownIds.join(', ')})`}`);
      }
      for (const [field, value] of Object.entries(a.body)) {
        if (facts !== undefined && !facts.bodyFields.includes(field)) {
          ctx.diag(src, 'RCS501', [...base, 'body', field], `messagebase ${a.messagebaseId} ignores body field "${field}"; it shows ${facts.bodyFields.join(', ')}`, { at: 'key' });
        }
        if (typeof value !== 'string' && !brand.files.has(value.file) && !ctx.declared('files', value.file)) {
          ctx.diag(src, 'RCS401', [...base, 'body', field, 'file'], `no file "${value.file}" under files:${didYouMean(value.file, brand.files.keys())}`);
        }
        // A bare media value is a registered file's id; one that is, or nearly is, a file handle was meant as { file: … }.
        const meant = typeof value === 'string' && MEDIA_FIELD.test(field) ? closest(value, brand.files.keys()) : undefined;
        if (meant !== undefined) {
          ctx.diag(src, 'RCS513', [...base, 'body', field], `media "${value as string}" is read as the id of a file already registered with the service; did you mean the file handle: { file: ${meant} }?`);
        }
      }
      (a.buttons ?? []).forEach((g, gi) => (g.suggestions ?? []).forEach((s, si) => checkSuggestion(src, s, [...base, 'buttons', gi, 'suggestions', si])));
      (a.chipList ?? []).forEach((s, i) => checkSuggestion(src, s, [...base, 'chipList', i]));
    }
  },
};

function toSuggestion(s: Obj): DesiredSuggestion {
  if (s.action !== undefined) return { action: s.action as Action };
  const r = s.reply as { autoReply?: string; autoReplyMsgId?: string; displayText?: string; postback?: { data: string } };
  return {
    reply: {
      ...(r.autoReply !== undefined ? { autoReply: r.autoReply } : {}),
      ...(r.autoReplyMsgId !== undefined ? { autoReplyMsgId: r.autoReplyMsgId } : {}),
      ...(r.displayText !== undefined ? { displayText: r.displayText } : {}),
      ...(r.postback !== undefined ? { postback: { data: r.postback.data } } : {}),
    },
  };
}

function toAutoReply(handle: string, a: Obj, source: SourceLocation): DesiredAutoReply {
  const body: Record<string, DesiredBodyValue> = {};
  for (const [k, v] of Object.entries(a.body as Obj)) body[k] = typeof v === 'string' ? v : { file: (v as { file: string }).file };
  const d: DesiredAutoReply = { handle, name: a.name as string, messagebaseId: a.messagebaseId as string, body, source };
  if (a.id !== undefined) d.id = a.id as string;
  if (a.copyAllowed !== undefined) d.copyAllowed = a.copyAllowed as boolean;
  if (a.buttons !== undefined) {
    d.buttons = (a.buttons as Obj[]).map((g) => (g.suggestions === undefined ? {} : { suggestions: (g.suggestions as Obj[]).map(toSuggestion) }));
  }
  if (a.chipList !== undefined) d.chipList = (a.chipList as Obj[]).map(toSuggestion);
  return d;
}

export type { LintContext };
