// Checks across a whole brand, once every document is merged: references to
// handles, duplicate names and pinned ids, and the lint rules that catch what
// the service would silently ignore or refuse. Pure: no I/O.

import { KNOWN_MESSAGEBASES, messagebaseFacts } from '../spec/messagebases.js';
import type { BrandDraft } from './build-brand.js';
import { diagAt, type PathSegments, type SourceDoc } from './source.js';
import { didYouMean } from './suggest.js';
import type { DesiredSuggestion, Diagnostic } from './types.js';

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

/**
 * Every reference and lint diagnostic for one brand. `others` are the other
 * brands loaded alongside, so a link to their handles is named as such.
 */
export function lintBrand(draft: BrandDraft, others: readonly BrandDraft[] = []): Diagnostic[] {
  const { brand, origin } = draft;
  const diags: Diagnostic[] = [];
  const autoReplyHandles = [...brand.autoReplies.keys()];
  const missingAutoReply = (src: SourceDoc, path: PathSegments, handle: string): Diagnostic => {
    const owner = others.find((o) => o.brand.brandId !== brand.brandId && o.brand.autoReplies.has(handle));
    if (owner !== undefined) {
      return diagAt(src, 'RCS510', path, `auto-reply "${handle}" belongs to brand ${owner.brand.brandId}; a link cannot leave brand ${brand.brandId}`);
    }
    return diagAt(src, 'RCS402', path, `no auto-reply "${handle}" in brand ${brand.brandId}${didYouMean(handle, autoReplyHandles)}`);
  };
  const srcOf = (o: object): SourceDoc | undefined => origin.get(o);
  const usedFiles = new Set<string>();

  const checkSuggestion = (src: SourceDoc, s: DesiredSuggestion, at: PathSegments): void => {
    const reply = s.reply;
    if (reply === undefined) return;
    if (reply.autoReply !== undefined && !brand.autoReplies.has(reply.autoReply)) {
      diags.push(missingAutoReply(src, [...at, 'reply', 'autoReply'], reply.autoReply));
    }
    if (reply.autoReplyMsgId !== undefined) {
      diags.push(diagAt(src, 'RCS506', [...at, 'reply', 'autoReplyMsgId'], `reply links to auto-reply ${reply.autoReplyMsgId}, which these manifests do not manage; use autoReply: <handle> to link within the brand`));
    }
  };

  const names = new Map<string, string>();
  const ids = new Map<string, string>();
  const knownIds = KNOWN_MESSAGEBASES.map((m) => m.messagebaseId);
  for (const [handle, a] of brand.autoReplies) {
    const src = srcOf(a);
    if (src === undefined) continue;
    const base = ['autoReplies', handle];
    const prior = names.get(a.name);
    if (prior !== undefined) {
      diags.push(diagAt(src, 'RCS503', [...base, 'name'], `auto-reply name "${a.name}" is also used by "${prior}"; names identify auto-replies, so they must be unique`));
    } else names.set(a.name, handle);
    if (a.id !== undefined) {
      const priorId = ids.get(a.id);
      if (priorId !== undefined) diags.push(diagAt(src, 'RCS509', [...base, 'id'], `auto-reply id ${a.id} is also pinned by "${priorId}"`));
      else ids.set(a.id, handle);
    }
    const facts = messagebaseFacts(a.messagebaseId);
    if (facts === undefined) {
      diags.push(diagAt(src, 'RCS502', [...base, 'messagebaseId'], `"${a.messagebaseId}" is not a known common messagebase${didYouMean(a.messagebaseId, knownIds)}`));
    }
    for (const [field, value] of Object.entries(a.body)) {
      if (facts !== undefined && !facts.bodyFields.includes(field)) {
        diags.push(diagAt(src, 'RCS501', [...base, 'body', field], `messagebase ${a.messagebaseId} ignores body field "${field}"; it shows ${facts.bodyFields.join(', ')}`, { at: 'key' }));
      }
      if (typeof value !== 'string') {
        usedFiles.add(value.file);
        if (!brand.files.has(value.file) && !draft.declared.has(`files/${value.file}`)) {
          diags.push(diagAt(src, 'RCS401', [...base, 'body', field, 'file'], `no file "${value.file}" under files:${didYouMean(value.file, brand.files.keys())}`));
        }
      }
    }
    (a.buttons ?? []).forEach((g, gi) =>
      (g.suggestions ?? []).forEach((s, si) => checkSuggestion(src, s, [...base, 'buttons', gi, 'suggestions', si])),
    );
    (a.chipList ?? []).forEach((s, i) => checkSuggestion(src, s, [...base, 'chipList', i]));
  }

  const logoNames = new Map<string, string>();
  const logoIds = new Map<string, string>();
  for (const [handle, l] of brand.logos) {
    const src = srcOf(l);
    if (src === undefined) continue;
    const prior = logoNames.get(l.name);
    if (prior !== undefined) diags.push(diagAt(src, 'RCS504', ['logos', handle, 'name'], `logo name "${l.name}" is also used by "${prior}"; names identify logos, so they must be unique`));
    else logoNames.set(l.name, handle);
    if (l.fileId !== undefined) {
      const priorId = logoIds.get(l.fileId);
      if (priorId !== undefined) diags.push(diagAt(src, 'RCS509', ['logos', handle, 'fileId'], `logo fileId ${l.fileId} is also pinned by "${priorId}"`));
      else logoIds.set(l.fileId, handle);
    }
  }

  for (const [chatbotId, c] of brand.chatbots) {
    const src = srcOf(c);
    if (src === undefined || c.persistentMenu === undefined) continue;
    const base = ['chatbots', chatbotId, 'persistentMenu'];
    if (c.persistentMenu.length > 0 && c.rcsReply !== undefined && c.rcsReply !== '1') {
      diags.push(diagAt(src, 'RCS505', base, `room ${chatbotId} has rcsReply "${c.rcsReply}"; a persistent menu needs rcsReply "1"`));
    }
    c.persistentMenu.forEach((m, i) => {
      for (const field of MENU_FIELDS_BY_TYPE.other(m.type)) {
        if (m[field] !== undefined) {
          diags.push(diagAt(src, 'RCS511', [...base, i, field], `"${field}" does not belong on a menu item of type ${m.type}; it takes ${MENU_FIELDS_BY_TYPE[m.type].join(', ')}`, { at: 'key' }));
        }
      }
      if (m.autoReply !== undefined && m.autoReplyMsgId !== undefined) {
        diags.push(diagAt(src, 'RCS511', [...base, i, 'autoReplyMsgId'], 'a reply item takes "autoReply" or "autoReplyMsgId", not both', { at: 'key' }));
      }
      if (m.autoReply !== undefined && !brand.autoReplies.has(m.autoReply)) {
        diags.push(missingAutoReply(src, [...base, i, 'autoReply'], m.autoReply));
      }
      if (m.autoReplyMsgId !== undefined) {
        diags.push(diagAt(src, 'RCS506', [...base, i, 'autoReplyMsgId'], `menu item links to auto-reply ${m.autoReplyMsgId}, which these manifests do not manage`));
      }
    });
  }

  for (const [handle, f] of brand.files) {
    const src = srcOf(f);
    if (src !== undefined && !usedFiles.has(handle)) {
      diags.push(diagAt(src, 'RCS507', ['files', handle], `file "${handle}" is declared but no auto-reply body uses it`, { at: 'key' }));
    }
  }

  const prefixes = [brand.brandId, ...brand.chatbots.keys()].map((p) => p + '.');
  for (const [fileId, a] of brand.agencyFiles) {
    const src = srcOf(a);
    if (src !== undefined && !prefixes.some((p) => fileId.startsWith(p))) {
      diags.push(diagAt(src, 'RCS508', ['agencyFiles', fileId], `agency fileId "${fileId}" should read ${brand.brandId}.<code> (or <chatbotId>.<code>) so it stays unique`, { at: 'key' }));
    }
  }
  return diags;
}
