// The handset model: what a handset would show of a message, a room, a
// brand's home, as plain data, and the findings about links between handsets.
// Kinds build it in their drawings (src/kinds/handset.ts) from the manifests
// (`rcsctl preview`) or from the normalised live and proposed forms a plan
// carries (`plan --preview`), and draw it with src/kinds/handset-draw.ts.
// Pure: no I/O.

import { shortText } from '../core/shorten.js';
import { canonicalMessagebaseId, messagebaseFacts } from '../spec/messagebases.js';

/** A local file as the preview inlines it. */
export interface ShownFile {
  bytes: Buffer;
  mimeType: string;
  uploadName: string;
}

/** Where a declared object is written. */
export interface ShownSource {
  file: string;
  line: number;
}

/** What a suggestion or menu item does, as a reader would name it. */
export type ActionKind = 'reply' | 'answer' | 'link' | 'dial' | 'map' | 'calendar' | 'copy' | 'compose' | 'feed' | 'action';

/** The action object keys the service defines, and the kind each one is. */
const ACTION_KINDS: Readonly<Record<string, ActionKind>> = {
  urlAction: 'link',
  localBrowserAction: 'link',
  dialerAction: 'dial',
  mapAction: 'map',
  calendarAction: 'calendar',
  clipboardAction: 'copy',
  composeAction: 'compose',
};

/** An image as the page shows it: inlined when its bytes are known, else a named placeholder. */
export interface ImageView {
  /** The content-addressed upload name (or whatever the field holds when unknown). */
  name: string;
  /** A `data:` URI, when the bytes are at hand. */
  src?: string;
  alt: string;
}

/** A link to another auto-reply: its anchor key on the page when it has one, and its name. */
export interface LinkTarget {
  /** Anchor key of the linked auto-reply, when it is drawn on the same page. */
  key?: string;
  /** The linked auto-reply's name, or the id when nothing better is known. */
  name: string;
}

/** A button, a chip or a menu item. */
export interface SuggestionView {
  /** Path as in the plan's field changes: `buttons[0].suggestions[1]`, `chipList[0]`, `items[2]`. */
  path: string;
  label: string;
  kind: ActionKind;
  /** What the action points at: a URL, a phone number, a chatbot answer's postback data, … */
  detail?: string;
  /** For replies: the auto-reply it opens (a chatbot answer opens none). */
  target?: LinkTarget;
}

/** A body text field. */
export interface TextView {
  path: string;
  text: string;
}

/** One card (a bubble is a card with a description only; slides are several cards). */
export interface CardView {
  title?: TextView;
  description?: TextView;
  media?: ImageView & { path: string };
  /** Body fields this messagebase has but the preview draws as plain `field: value`. */
  other: (TextView & { field: string })[];
  buttons: SuggestionView[];
}

/** How a messagebase is drawn. */
export type Layout = 'bubble' | 'card' | 'slides' | 'generic';

/** An auto-reply as a handset shows it. */
export interface MessageView {
  /** Anchor key on the page (the handle, or the live id). */
  key: string;
  address: string;
  name: string;
  messagebaseId: string;
  layout: Layout;
  /** The messagebase's name when rcsctl knows it (`Card, medium image`). */
  template?: string;
  cards: CardView[];
  chips: SuggestionView[];
  /** `file:line` of the manifest that declares it. */
  source?: string;
}

/** A room as a handset shows it, with its persistent menu. */
export interface RoomView {
  key: string;
  address: string;
  chatbotId: string;
  name: string;
  description?: string;
  /** Where the room is listed (`channel, search, home`), from `display`. */
  shownIn?: string;
  inputEnabled?: boolean;
  /** "1": RCS replies (a menu is possible); "0": SMS MO. */
  rcsReply?: string;
  safetyMark?: boolean;
  /** The menu; undefined when the manifest leaves it unmanaged. */
  menu?: SuggestionView[];
  /** The brand logo as the room avatar. */
  logo?: ImageView;
  source?: string;
}

/** The brand's home page: header, profile image, buttons, and the rooms it lists. */
export interface HomeView {
  key: string;
  address: string;
  name: string;
  description?: string;
  profileImage?: ImageView;
  backgroundImage?: ImageView;
  buttons: SuggestionView[];
  source?: string;
}

/** Something a reviewer should look at, found in the brand's links or by lint. */
export interface Finding {
  code: 'unreachable' | 'dead-end' | 'external-link' | 'lint';
  severity: 'warning' | 'info';
  message: string;
  /** Anchor key of the handset it is about. */
  key?: string;
  /** `file:line`, for lint findings. */
  where?: string;
}

// ------------------------------------------------------------------ inputs

/** A reply link as the manifest or a normalised form writes it; with neither target it is a chatbot answer. */
export interface RawReply {
  autoReply?: string;
  autoReplyMsgId?: string;
  displayText?: string;
  postback?: { data?: string };
}

/** A suggestion as the manifest or a normalised form writes it. */
export interface RawSuggestion {
  action?: { displayText?: string };
  reply?: RawReply;
}

/** An auto-reply in either shape: body values are text, or a reference the image lookup understands. */
export interface RawMessage {
  key: string;
  address: string;
  name: string;
  messagebaseId: string;
  body: Record<string, unknown>;
  buttons?: { suggestions?: RawSuggestion[] }[];
  chipList?: RawSuggestion[];
  source?: string;
}

/** A menu item in either shape (manifest item, or normalised live/proposed item). */
export interface RawMenuItem {
  type: string;
  title: string;
  autoReply?: string;
  autoReplyMsgId?: string;
  feedId?: string;
  action?: object;
}

/** How a message view finds what its fields point at. */
export interface Resolvers {
  /** The image a media field's value stands for. */
  image(value: unknown, alt: string): ImageView;
  /** The auto-reply a reply link opens. */
  link(reply: RawReply): LinkTarget;
}

const BODY_FIELD = /^([A-Za-z]+?)(\d*)$/;

/** The view of one auto-reply. */
export function messageView(m: RawMessage, r: Resolvers): MessageView {
  const facts = messagebaseFacts(m.messagebaseId) ?? messagebaseFacts(canonicalMessagebaseId(m.messagebaseId));
  const layout: Layout = facts === undefined ? 'generic' : facts.type === 'SCL' ? 'bubble' : facts.type === 'CARD' ? 'card' : 'slides';
  // Body fields grouped by their number: title1/description1/media1 are card 1, title/description/media card 0.
  const groups = new Map<number, [string, unknown][]>();
  for (const [field, value] of Object.entries(m.body)) {
    if (value === undefined || value === null || value === '') continue;
    const match = BODY_FIELD.exec(field);
    const index = match?.[2] ? Number(match[2]) : 0;
    groups.set(index, [...(groups.get(index) ?? []), [field, value]]);
  }
  const indices = [...groups.keys()].sort((a, b) => a - b);
  if (indices.length === 0) indices.push(0);
  const cards: CardView[] = indices.map((index) => {
    const card: CardView = { other: [], buttons: [] };
    for (const [field, value] of groups.get(index) ?? []) {
      const base = BODY_FIELD.exec(field)?.[1] ?? field;
      const path = `body.${field}`;
      // Texts are drawn as a reviewer reads them: a long one shortened (src/core/shorten.ts).
      if (base === 'title' && typeof value === 'string') card.title = { path, text: shortText(value) };
      else if (base === 'description' && typeof value === 'string') card.description = { path, text: shortText(value) };
      else if (base === 'media' && card.media === undefined) card.media = { ...r.image(value, ''), path };
      else card.other.push({ field, path, text: shortText(typeof value === 'string' ? value : JSON.stringify(value)) });
    }
    if (card.media !== undefined) card.media.alt = altText(card);
    return card;
  });
  // Button group i belongs to card i; extra groups go to the last card.
  (m.buttons ?? []).forEach((group, gi) => {
    const card = cards[Math.min(gi, cards.length - 1)] as CardView;
    (group.suggestions ?? []).forEach((s, si) => card.buttons.push(suggestionView(s, `buttons[${gi}].suggestions[${si}]`, r)));
  });
  const view: MessageView = {
    key: m.key,
    address: m.address,
    name: m.name,
    messagebaseId: m.messagebaseId,
    layout,
    cards,
    chips: (m.chipList ?? []).map((s, i) => suggestionView(s, `chipList[${i}]`, r)),
  };
  if (facts !== undefined) view.template = facts.tmpltName;
  if (m.source !== undefined) view.source = m.source;
  return view;
}

function altText(card: CardView): string {
  const about = card.title?.text ?? card.description?.text;
  const name = card.media?.name ?? 'image';
  return about === undefined ? `Image ${name}` : `Image for “${about}” (${name})`;
}

/** The view of one button or chip. */
export function suggestionView(s: RawSuggestion, path: string, r: Resolvers): SuggestionView {
  if (s.reply !== undefined && isAnswer(s.reply)) return answerView(s.reply, path);
  if (s.reply !== undefined) {
    const target = r.link(s.reply);
    return { path, label: s.reply.displayText ?? target.name, kind: 'reply', target };
  }
  const action: { displayText?: unknown } = s.action ?? {};
  const { kind, detail } = describeAction(action);
  const view: SuggestionView = { path, label: typeof action.displayText === 'string' ? action.displayText : kind, kind };
  if (detail !== undefined) view.detail = detail;
  return view;
}

/**
 * A reply with neither `autoReply` nor `autoReplyMsgId` is a chatbot answer
 * (docs/manifest.md, "reply"): the tap goes to the agency's chatbot as a user
 * event with its postback data. It opens no auto-reply, by design.
 */
export function isAnswer(reply: RawReply): boolean {
  return reply.autoReply === undefined && reply.autoReplyMsgId === undefined;
}

/**
 * What a reply names, in words the composer knows without the reply's field
 * names: the key of the handset it opens (a manifest handle), or the live id
 * one is pinned to; undefined for a chatbot answer, which opens none.
 */
export function replyTarget(reply: RawReply): { key: string } | { id: string } | undefined {
  if (reply.autoReply !== undefined) return { key: reply.autoReply };
  return reply.autoReplyMsgId === undefined ? undefined : { id: reply.autoReplyMsgId };
}

function answerView(reply: RawReply, path: string): SuggestionView {
  const data = reply.postback?.data;
  const detail = data === undefined || data === '' ? 'answered by the chatbot' : `answered by the chatbot: ${shortText(data)}`;
  return { path, label: reply.displayText ?? 'answer', kind: 'answer', detail };
}

/** The kind of an action object and what it points at (a URL, a number, …). */
export function describeAction(action: object): { kind: ActionKind; detail?: string } {
  for (const [key, value] of Object.entries(action)) {
    if (key === 'displayText' || key === 'postback') continue;
    const kind = ACTION_KINDS[key] ?? 'action';
    const detail = firstText(value);
    return detail === undefined ? { kind } : { kind, detail: shortText(detail) };
  }
  return { kind: 'action' };
}

/** The first string found in a nested value, depth first: the URL of openUrl, the number of dialPhoneNumber. */
function firstText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  for (const v of Object.values(value)) {
    const found = firstText(v);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The view of one persistent menu item. */
export function menuItemView(item: RawMenuItem, index: number, r: Resolvers): SuggestionView {
  const path = `items[${index}]`;
  if (item.type === 'reply') {
    const reply: RawReply = {};
    if (item.autoReply !== undefined) reply.autoReply = item.autoReply;
    if (item.autoReplyMsgId !== undefined) reply.autoReplyMsgId = item.autoReplyMsgId;
    if (isAnswer(reply)) return { path, label: item.title, kind: 'answer', detail: 'answered by the chatbot' };
    return { path, label: item.title, kind: 'reply', target: r.link(reply) };
  }
  if (item.type === 'feed') return item.feedId === undefined ? { path, label: item.title, kind: 'feed' } : { path, label: item.title, kind: 'feed', detail: item.feedId };
  const { kind, detail } = describeAction(item.action ?? {});
  return detail === undefined ? { path, label: item.title, kind } : { path, label: item.title, kind, detail };
}

/** Where a room is listed, from its `display` flags ("11": search and home). */
export function shownIn(display: string | undefined): string | undefined {
  if (display === undefined) return undefined;
  const places = ['channel'];
  if (display[0] === '1') places.push('search');
  if (display[1] === '1') places.push('home');
  return places.join(', ');
}

/** A handset as the link findings see it: its anchor, its name, what leads from it, and whether replies open it. */
export interface LinkedHandset {
  key: string;
  name: string;
  links: readonly SuggestionView[];
  /** Replies open it (an auto-reply): nothing leading to it, or nothing leading on from it, is a finding. */
  opened: boolean;
}

/**
 * Findings from the brand's links: a handset replies open (an auto-reply) that
 * no reply or menu item opens, one with no reply leading on (a dead end), and
 * links that leave the manifests. With a persistent way on (a room's menu: a
 * reply on a handset replies do not open) a reader can still go on from a dead
 * end, so it is reported as information then.
 */
export function linkFindings(handsets: readonly LinkedHandset[]): Finding[] {
  const opened = handsets.filter((h) => h.opened);
  const others = handsets.filter((h) => !h.opened);
  const inbound = new Map<string, number>();
  const external: Finding[] = [];
  const count = (s: SuggestionView, from: string): void => {
    if (s.kind !== 'reply' || s.target === undefined) return;
    if (s.target.key === undefined) {
      external.push({ code: 'external-link', severity: 'info', key: from, message: `“${s.label}” opens ${s.target.name}, which these manifests do not manage: the preview cannot show it` });
      return;
    }
    if (s.target.key !== from) inbound.set(s.target.key, (inbound.get(s.target.key) ?? 0) + 1);
  };
  for (const h of [...opened, ...others]) for (const s of h.links) count(s, h.key);
  const hasMenu = others.some((h) => h.links.some((s) => s.kind === 'reply'));
  const findings: Finding[] = [];
  for (const m of opened) {
    if ((inbound.get(m.key) ?? 0) === 0) {
      findings.push({ code: 'unreachable', severity: 'warning', key: m.key, message: `nothing links to “${m.name}”: no reply, button or menu item opens it` });
    }
    if (!m.links.some((s) => s.kind === 'reply' && s.target?.key !== undefined && s.target.key !== m.key)) {
      findings.push(
        hasMenu
          ? { code: 'dead-end', severity: 'info', key: m.key, message: `“${m.name}” has no reply leading on; only the room menu does` }
          : { code: 'dead-end', severity: 'warning', key: m.key, message: `“${m.name}” is a dead end: no reply leads on and no room has a menu` },
      );
    }
  }
  return [...findings, ...external];
}

/** Every button and chip of a message. */
export function outgoing(m: MessageView): SuggestionView[] {
  return [...m.cards.flatMap((c) => c.buttons), ...m.chips];
}

/** Image types a browser shows inline; anything else becomes a placeholder. */
const INLINE_TYPES = /^image\/(png|jpeg|gif|webp|bmp)$/;

/** A `data:` URI of a local image, or undefined when it is not an image a page may inline. */
export function dataUri(file: Pick<ShownFile, 'bytes' | 'mimeType'>): string | undefined {
  return INLINE_TYPES.test(file.mimeType) ? `data:${file.mimeType};base64,${file.bytes.toString('base64')}` : undefined;
}

/** An image view of a local file. */
export function imageOf(file: ShownFile, alt: string): ImageView {
  const src = dataUri(file);
  return src === undefined ? { name: file.uploadName, alt } : { name: file.uploadName, src, alt };
}

/** Whether a value is a local file (a message field naming a manifest file shows it). */
export function isLocalFile(value: unknown): value is ShownFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as { bytes?: unknown }).bytes);
}
