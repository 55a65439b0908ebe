// Auto-reply messages, the pure part: identity by pinned id or name, media by
// content-addressed file name, reply links by handle.

import type { Action, AutoReplyDetail, AutoReplyRequest, Body, ButtonGroup, Reply, Suggestion } from '../../api/types.js';
import { NO_GATE, type Gate } from '../../core/step.js';
import type { DesiredAutoReply, DesiredSuggestion } from './types.js';
import { MEDIA_FIELD, mediaFileId } from '../../spec/media.js';
import { canonicalMessagebaseId } from '../../spec/messagebases.js';
import { userPostback } from '../../spec/postback.js';
import { compact } from '../../util/compact.js';
import { matchByIdThenName } from '../match.js';
import { messagePreview } from './preview.js';
import type { Drawn, DrawnLink, KindPlanning, LinkSplitting, PlanContext, Plural, Previewable, Prunable, Referring, ReportsUnmanaged } from '../resource-kind.js';

const BLOCKED_PROCESSING: Gate = {
  type: 'blocked',
  state: '처리중',
  reason: 'registration failed midway; the service refuses changes and deletes until an operator resolves it',
};

/** The auto-reply kind's pure part. */
export const autoReplyPlanning: KindPlanning<DesiredAutoReply, AutoReplyDetail, 'autoReply'> & Previewable<DesiredAutoReply> & Drawn<DesiredAutoReply> & Referring<AutoReplyDetail> & LinkSplitting & Prunable & Plural & ReportsUnmanaged = {
  name: 'autoReply',
  label: 'auto-reply',
  plural: 'auto-replies',
  preview: messagePreview<DesiredAutoReply>({
    name: (d) => d.name,
    pinnedId: (d) => d.id,
    shown: (d, brand) => {
      // A media field naming a manifest file shows that file; one naming a fileId, or a missing handle, shows the name.
      const body: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(d.body)) body[field] = typeof value === 'string' ? value : (brand.files.get(value.file)?.file ?? value.file);
      return { name: d.name, messagebaseId: d.messagebaseId, body, buttons: d.buttons ?? [], chipList: d.chipList ?? [], source: d.source };
    },
  }),
  drawing: {
    colour: ['#fff3e0', '#6b4423'],
    details: (d) => [d.messagebaseId],
    links(d) {
      const links: DrawnLink[] = [];
      for (const [field, value] of Object.entries(d.body)) if (typeof value !== 'string') links.push({ to: `file.${value.file}`, label: field });
      const suggestions = [...(d.buttons ?? []).flatMap((g) => g.suggestions ?? []), ...(d.chipList ?? [])];
      for (const s of suggestions) if (s.reply !== undefined) links.push(...drawnReply(s.reply, s.reply.displayText ?? 'reply'));
      return links;
    },
  },
  prune: 'autoReplies',
  reportsUnmanaged: true,
  linkChange: /\.reply\b|\.reply\./,

  desired: (brand) => [...brand.autoReplies.values()],
  live: (live) => live.autoReplies,
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.name,
    liveId: (l) => l.autoReplyMsgId,
    liveName: (l) => l.autoReplyMsgName,
    liveState: (l) => l.approvalResult,
  },

  diff: {
    match: (desired, live) =>
      matchByIdThenName(desired, live, {
        label: 'auto-reply',
        labelPlural: 'auto-replies',
        address: (d) => `autoReply.${d.handle}`,
        pinned: (d) => d.id,
        name: (d) => d.name,
        liveId: (l) => l.autoReplyMsgId,
        liveName: (l) => l.autoReplyMsgName,
        pinKey: 'id',
        source: (d) => d.source,
      }),
    normaliseLive(l, ctx) {
      const body: Record<string, string> = {};
      for (const [field, value] of Object.entries(l.body ?? {})) {
        // An empty or null body field is the same as none.
        if (value === '' || value === null || value === undefined) continue;
        body[field] = MEDIA_FIELD.test(field) ? (ctx.liveName('file', mediaFileId(value)) ?? mediaFileId(value)) : value;
      }
      return comparable({ autoReplyMsgName: l.autoReplyMsgName, messagebaseId: l.messagebaseId, copyAllowed: l.copyAllowed, body, buttons: l.buttons, chipList: l.chipList });
    },
    normaliseDesired(d, ctx) {
      const body: Record<string, string> = {};
      for (const [field, value] of Object.entries(d.body)) {
        if (value === '') continue;
        // A media field may name a registered file by id: compared as the live side is, by that file's name.
        if (typeof value === 'string') body[field] = MEDIA_FIELD.test(field) ? (ctx.liveName('file', value) ?? value) : value;
        else body[field] = ctx.brand.files.get(value.file)?.file.uploadName ?? `<missing file ${value.file}>`;
      }
      const req = toRequest(d, ctx);
      return comparable({ ...req, body });
    },
    // A create shows the messagebaseId as the manifest writes it (and sends it), not the alias the service will store.
    createStep: (d, ctx, seed) => ({
      ...seed,
      changes: seed.changes.map((c) => (c.path === 'messagebaseId' ? { ...c, after: d.messagebaseId } : c)),
      op: 'create',
      request: toRequest(d, ctx),
    }),
    updateStep: (d, l, ctx, seed) => ({ ...seed, op: 'update', liveId: l.autoReplyMsgId, request: toRequest(d, ctx) }),
  },

  gates: {
    create: () => NO_GATE,
    update: (l) => (l.approvalResult === '처리중' ? BLOCKED_PROCESSING : NO_GATE),
    delete: (l) => (l.approvalResult === '처리중' ? BLOCKED_PROCESSING : { type: 'destructive' }),
  },

  liveRefs,

  relink(l, to, seed) {
    if (!liveRefs(l).some((t) => to.has(t))) return undefined;
    const request = liveRequest(l, (id) => to.get(`autoReply:${id}`) ?? id);
    return { ...seed, op: 'update', liveId: l.autoReplyMsgId, request, gate: l.approvalResult === '처리중' ? BLOCKED_PROCESSING : NO_GATE };
  },

  splitLinks(request) {
    const req = request as AutoReplyRequest;
    // A reply without autoReplyMsgId is a chatbot answer, not a link.
    const isLink = (s: Suggestion): boolean => s.reply?.autoReplyMsgId !== undefined;
    const hasLinks = (req.buttons ?? []).some((g) => (g.suggestions ?? []).some(isLink)) || (req.chipList ?? []).some(isLink);
    if (!hasLinks) return undefined;
    const base: AutoReplyRequest = { ...req };
    if (req.buttons !== undefined) base.buttons = req.buttons.map((g) => (g.suggestions === undefined ? g : { suggestions: g.suggestions.filter((s) => !isLink(s)) }));
    if (req.chipList !== undefined) base.chipList = req.chipList.filter((s) => !isLink(s));
    return { base, links: req };
  },
};

function liveRefs(l: AutoReplyDetail): string[] {
  const refs: string[] = [];
  const visit = (s: Suggestion): void => {
    if (s.reply?.autoReplyMsgId !== undefined) refs.push(`autoReply:${s.reply.autoReplyMsgId}`);
  };
  for (const g of l.buttons ?? []) (g.suggestions ?? []).forEach(visit);
  (l.chipList ?? []).forEach(visit);
  return refs;
}

/**
 * The update request that writes a live auto-reply back as it is, with each
 * reply link passed through `linkTo`: media as the bare file id the client
 * sends, and the service's postback fill-in sent as the empty data it came from.
 */
function liveRequest(l: AutoReplyDetail, linkTo: (id: string) => string): AutoReplyRequest {
  const body: Body = {};
  for (const [field, value] of Object.entries(l.body ?? {})) {
    if (value === '' || value === null || value === undefined) continue;
    body[field] = MEDIA_FIELD.test(field) ? mediaFileId(value) : value;
  }
  const sent = <T extends Action | Reply>(part: T): T => ({ ...part, postback: { data: userPostback(part.postback)?.data ?? '' } });
  const suggestion = (s: Suggestion): Suggestion =>
    compact({
      action: s.action && sent(s.action),
      reply: s.reply && sent(s.reply.autoReplyMsgId === undefined ? s.reply : { ...s.reply, autoReplyMsgId: linkTo(s.reply.autoReplyMsgId) }),
    }) as Suggestion;
  const req: AutoReplyRequest = { autoReplyMsgName: l.autoReplyMsgName, messagebaseId: l.messagebaseId, copyAllowed: l.copyAllowed, body };
  if (l.buttons !== undefined && l.buttons.length > 0) req.buttons = l.buttons.map((g) => (g.suggestions === undefined ? {} : { suggestions: g.suggestions.map(suggestion) }));
  if (l.chipList !== undefined && l.chipList.length > 0) req.chipList = l.chipList.map(suggestion);
  return req;
}

/**
 * The one shape both sides are compared in: the name, the stored
 * messagebaseId (aliases mapped), copyAllowed defaulted, media as file names,
 * and buttons and chips without server postbacks or empty lists.
 */
function comparable(a: { autoReplyMsgName: string; messagebaseId: string; copyAllowed?: boolean | undefined; body: Record<string, string>; buttons?: ButtonGroup[] | undefined; chipList?: Suggestion[] | undefined }): unknown {
  return compact({
    name: a.autoReplyMsgName,
    messagebaseId: canonicalMessagebaseId(a.messagebaseId),
    copyAllowed: a.copyAllowed ?? true,
    body: a.body,
    buttons: normaliseButtons(a.buttons),
    chipList: normaliseSuggestions(a.chipList),
  });
}

/** The create/update request for a desired auto-reply, with placeholders for ids not yet known. */
export function toRequest(d: DesiredAutoReply, ctx: PlanContext): AutoReplyRequest {
  const body: Body = {};
  for (const [field, value] of Object.entries(d.body)) {
    if (typeof value === 'string') body[field] = value;
    else {
      const file = ctx.brand.files.get(value.file);
      body[field] = file === undefined ? `<missing file ${value.file}>` : ctx.ref('file', file.file.uploadName);
    }
  }
  const req: AutoReplyRequest = { autoReplyMsgName: d.name, messagebaseId: d.messagebaseId, body };
  if (d.copyAllowed !== undefined) req.copyAllowed = d.copyAllowed;
  if (d.buttons !== undefined && d.buttons.length > 0) {
    req.buttons = d.buttons.map((g) => (g.suggestions === undefined ? {} : { suggestions: g.suggestions.map((s) => toSuggestion(s, ctx)) }));
  }
  if (d.chipList !== undefined && d.chipList.length > 0) req.chipList = d.chipList.map((s) => toSuggestion(s, ctx));
  return req;
}

/**
 * One suggestion as sent. Every suggestion carries a postback, as the public
 * document requires (`suggestion.required`); empty data when the manifest sets
 * none, which the service fills in (`postbackId=<id>;;`).
 */
function toSuggestion(s: DesiredSuggestion, ctx: PlanContext): Suggestion {
  const out: Suggestion = {};
  if (s.action !== undefined) out.action = { ...s.action, postback: { data: s.action.postback?.data ?? '' } };
  if (s.reply !== undefined) {
    const reply: Reply = {};
    if (s.reply.autoReply !== undefined) reply.autoReplyMsgId = ctx.ref('autoReply', s.reply.autoReply);
    else if (s.reply.autoReplyMsgId !== undefined) reply.autoReplyMsgId = s.reply.autoReplyMsgId;
    if (s.reply.displayText !== undefined) reply.displayText = s.reply.displayText;
    reply.postback = { data: s.reply.postback?.data ?? '' };
    out.reply = reply;
  }
  return out;
}

/** Button groups for comparison: server postback data dropped, empty trailing groups and lists folded. */
export function normaliseButtons(groups: ButtonGroup[] | undefined): unknown[] | undefined {
  if (groups === undefined) return undefined;
  const out = groups.map((g) => {
    const suggestions = normaliseSuggestions(g.suggestions);
    return suggestions === undefined ? {} : { suggestions };
  });
  while (out.length > 0 && Object.keys(out[out.length - 1] as object).length === 0) out.pop();
  return out.length === 0 ? undefined : out;
}

/** Suggestions for comparison; an empty list is the same as none. */
export function normaliseSuggestions(list: Suggestion[] | undefined): unknown[] | undefined {
  if (list === undefined || list.length === 0) return undefined;
  return list.map((s) => compact({ action: s.action && normaliseAction(s.action), reply: s.reply && normaliseReply(s.reply) }));
}

/** An action or reply for comparison: the user's postback kept, the service's fill-in (or none) dropped. */
export function withUserPostback<T extends Action | Reply>(part: T): Omit<T, 'postback'> & { postback?: { data: string } } {
  const { postback, ...rest } = part;
  const own = userPostback(postback);
  return own === undefined ? rest : { ...rest, postback: own };
}

function normaliseAction(a: Action): unknown {
  return withUserPostback(a);
}

function normaliseReply(r: Reply): unknown {
  return withUserPostback(r);
}

/** A reply link as the graph draws it: to the auto-reply of a handle, or (dashed) to a live id the manifests do not declare. */
export function drawnReply(reply: { autoReply?: string; autoReplyMsgId?: string }, label: string): DrawnLink[] {
  if (reply.autoReply !== undefined) return [{ to: `autoReply.${reply.autoReply}`, label }];
  if (reply.autoReplyMsgId !== undefined) return [{ to: `autoReply.${reply.autoReplyMsgId}`, label, outside: true }];
  return [];
}
