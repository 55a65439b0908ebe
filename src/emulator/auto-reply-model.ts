// How an auto-reply request becomes a stored auto-reply: checks, canonical
// messagebase, defaults, and the postback.data the service fills in on read
// (the service reference, Auto-reply message; docs/decisions.md, "Auto-replies").

import type { ButtonGroup, Suggestion } from '../contract/wire.js';
import { mediaFileId, MAAPFILE_PREFIX } from '../spec/media.js';
import { canonicalMessagebaseId } from '../spec/messagebases.js';
import { servicePostback } from '../spec/postback.js';
import { MAX_LENGTH } from '../spec/limits.js';
import { fail } from './service-error.js';
import { checkSuggestion } from './suggestions.js';
import type { AutoReplyContent, EmulatorStore, StoredBrand } from './store.js';

export type { AutoReplyContent };
import { asObject, optionalBoolean, requiredString } from './validate.js';


/** Check a create/update body against the brand and normalise it; `selfId` may be linked to itself. */
export function parseAutoReply(store: EmulatorStore, brand: StoredBrand, raw: unknown, selfId?: string): AutoReplyContent {
  const o = asObject(raw, 'body');
  const autoReplyMsgName = requiredString(o, 'autoReplyMsgName', MAX_LENGTH.autoReplyMsgName);
  // 64336 for a missing name (the reference); the other required fields take 64397.
  if (o.messagebaseId === undefined || o.messagebaseId === null || o.messagebaseId === '') fail('requiredBodyField', 'messagebaseId');
  const requested = requiredString(o, 'messagebaseId', MAX_LENGTH.messagebaseId);
  if (o.body === undefined || o.body === null) fail('requiredBodyField', 'body');
  if (typeof o.body !== 'object' || Array.isArray(o.body)) fail('invalidBody', 'body');
  const bodyIn = o.body as Record<string, unknown>;
  const copyAllowed = optionalBoolean(o, 'copyAllowed') ?? true;
  const messagebaseId = store.behaviour.storeAliases ? canonicalMessagebaseId(requested) : requested;
  const facts = store.messagebase(messagebaseId) ?? store.messagebase(requested);
  if (facts === undefined) fail('invalidType', 'messagebaseId');
  const body: Record<string, string> = {};
  for (const [k, v] of Object.entries(bodyIn)) {
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') fail('invalidBody', `body.${k}`);
    body[k] = v;
    // Every media field must name a file uploaded to this brand (64397, invalid body),
    // as a bare fileId or in the `maapfile://` form the public document also shows.
    if (/^media\d*$/.test(k) && v !== '' && !brand.files.has(mediaFileId(v))) fail('invalidBody', `body.${k}`);
  }
  const content: AutoReplyContent = { autoReplyMsgName, messagebaseId, copyAllowed, body };
  if (o.buttons !== undefined && o.buttons !== null) {
    if (!Array.isArray(o.buttons)) fail('invalidType', 'buttons');
    content.buttons = o.buttons.map((g, i) => {
      const go = asObject(g, `buttons[${i}]`);
      if (go.suggestions === undefined) return {};
      if (!Array.isArray(go.suggestions)) fail('invalidType', `buttons[${i}].suggestions`);
      return { suggestions: go.suggestions.map((s, j) => parseSuggestion(brand, s, `buttons[${i}].suggestions[${j}]`, selfId)) };
    });
  }
  if (o.chipList !== undefined && o.chipList !== null) {
    if (!Array.isArray(o.chipList)) fail('invalidType', 'chipList');
    content.chipList = o.chipList.map((s, i) => parseSuggestion(brand, s, `chipList[${i}]`, selfId));
  }
  return content;
}

function parseSuggestion(brand: StoredBrand, raw: unknown, path: string, selfId?: string): Suggestion {
  // A malformed button or chip: 64358 or 64359, naming the field (the public document's codes).
  checkSuggestion(raw, path, path.startsWith('chipList') ? 'chipList' : 'buttons');
  const o = asObject(raw, path);
  const out: Suggestion = {};
  if (o.action !== undefined) {
    const a = asObject(o.action, `${path}.action`);
    out.action = stripEmptyPostback(a, `${path}.action`) as Suggestion['action'];
  }
  if (o.reply !== undefined) {
    const r = asObject(o.reply, `${path}.reply`);
    const id = r.autoReplyMsgId;
    if (id !== undefined) {
      if (typeof id !== 'string') fail('invalidType', `${path}.reply.autoReplyMsgId`);
      if (id !== selfId && !brand.autoReplies.has(id)) fail('autoReplyNotFound');
    }
    out.reply = stripEmptyPostback(r, `${path}.reply`) as Suggestion['reply'];
  }
  if (out.action === undefined && out.reply === undefined) fail('invalidType', path);
  return out;
}

/** Drop a postback whose data is empty or absent: the service fills it on read, so it compares as absent. */
function stripEmptyPostback(o: Record<string, unknown>, path: string): Record<string, unknown> {
  if (o.displayText !== undefined && typeof o.displayText !== 'string') fail('invalidType', `${path}.displayText`);
  const { postback, ...rest } = o;
  if (postback === undefined || postback === null) return rest;
  const p = asObject(postback, `${path}.postback`);
  if (p.data === undefined || p.data === null || p.data === '') return rest;
  if (typeof p.data !== 'string') fail('invalidType', `${path}.postback.data`);
  return { ...rest, postback: { data: p.data } };
}

/** Copies of buttons and chips with every missing postback.data filled as `postbackId=<id>;;`. */
export function fillPostbacks(store: EmulatorStore, buttons?: ButtonGroup[], chipList?: Suggestion[]): { buttons?: ButtonGroup[]; chipList?: Suggestion[] } {
  const fill = (s: Suggestion): Suggestion => {
    const out: Suggestion = {};
    for (const key of ['action', 'reply'] as const) {
      const part = s[key];
      if (part === undefined) continue;
      const data = part.postback?.data;
      out[key] = { ...part, postback: { data: data !== undefined && data !== '' ? data : servicePostback(store.nextId('PB')) } } as never;
    }
    return out;
  };
  const result: { buttons?: ButtonGroup[]; chipList?: Suggestion[] } = {};
  if (buttons !== undefined) result.buttons = buttons.map((g) => (g.suggestions === undefined ? {} : { suggestions: g.suggestions.map(fill) }));
  if (chipList !== undefined) result.chipList = chipList.map(fill);
  return result;
}

/** A body as an answer shows it: media fields in the form the emulator's behaviour names. */
export function bodyAsRead(store: EmulatorStore, body: Record<string, string>): Record<string, string> {
  const prefix = store.behaviour.mediaForm === 'maapfile' ? MAAPFILE_PREFIX : '';
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) out[k] = /^media\d*$/.test(k) && v !== '' ? prefix + mediaFileId(v) : v;
  return out;
}
