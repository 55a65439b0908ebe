// Drawing the handset model as HTML: handsets, cards, buttons, chips and room
// menus, the primitives kinds draw with (src/kinds/handset.ts). Every string
// from a manifest or the service goes through esc(). Links between handsets
// are in-page anchors; nothing points off the page. The page around them, and
// its style sheet, are the preview's (src/preview/page.ts).

import type { CardView, HomeView, ImageView, MessageView, RoomView, SuggestionView } from './handset-model.js';

/** Escape text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** How a handset is drawn. */
export interface DrawOptions {
  /** The name at the top of every handset (the main room's, a `page` part's `barName`; else the brand's). */
  barName: string;
  /** The brand's picture at the top of every handset (a kind's `avatar`: the logo). */
  avatar?: ImageView;
  /** Where the handset of an anchor key is (`#key`, or `page-002.html#key` on another page of the site); undefined: not drawn, so no link. */
  href: (key: string) => string | undefined;
  /** Whether the part at a plan path changed (before/after pages); undefined: nothing is marked. */
  changed?: (path: string) => boolean;
  /** On a before/after page, the side drawn: the handset then has no anchor id, since a message is drawn twice. */
  side?: 'before' | 'after';
}

const KIND_LABEL: Readonly<Record<string, string>> = {
  reply: 'reply',
  answer: 'answer',
  link: 'link',
  dial: 'dial',
  map: 'map',
  calendar: 'calendar',
  copy: 'copy',
  compose: 'compose',
  feed: 'feed',
  action: 'action',
};

/** A `data-path` attribute and the changed marker for a part. */
function part(path: string, o: DrawOptions): { attrs: string; mark: string } {
  const changed = o.changed?.(path) === true;
  return {
    attrs: ` data-path="${esc(path)}"${changed ? ' data-changed="true"' : ''}`,
    mark: changed ? '<span class="chg-mark"> (changed)</span>' : '',
  };
}

/** A message's picture (an image field), or its named placeholder. */
export function image(img: ImageView & { path: string }, o: DrawOptions): string {
  const p = part(img.path, o);
  if (img.src !== undefined) return `<img class="media"${p.attrs} src="${img.src}" alt="${esc(img.alt)}">${p.mark}`;
  return `<div class="media missing" role="img" aria-label="${esc(img.alt)}"${p.attrs}><span>${esc(img.name)}</span><small>image not in the manifests</small></div>${p.mark}`;
}

/** One button, chip or menu item. */
export function suggestion(s: SuggestionView, o: DrawOptions, cls: 'btn' | 'chip' | 'item'): string {
  const p = part(s.path, o);
  const kind = `<span class="kind kind-${s.kind}">${KIND_LABEL[s.kind] ?? 'action'}</span>`;
  const detail = s.kind === 'reply' ? (s.target === undefined ? '' : `opens ${s.target.name}`) : (s.detail ?? '');
  const inner = `${kind}<span class="label">${esc(s.label)}</span>${detail === '' ? '' : `<span class="detail">${esc(detail)}</span>`}${p.mark}`;
  const href = s.kind === 'reply' && s.target?.key !== undefined ? o.href(s.target.key) : undefined;
  if (href !== undefined) return `<a class="sg ${cls} kind-${s.kind}" href="${esc(href)}"${p.attrs}>${inner}</a>`;
  return `<span class="sg ${cls} kind-${s.kind}"${p.attrs}>${inner}</span>`;
}

function cardHtml(card: CardView, layout: MessageView['layout'], o: DrawOptions): string {
  const text = (t: { path: string; text: string } | undefined, cls: string, tag: string): string => {
    if (t === undefined) return '';
    const p = part(t.path, o);
    return `<${tag} class="${cls}"${p.attrs}>${esc(t.text)}${p.mark}</${tag}>`;
  };
  const other = card.other.length === 0 ? '' : `<dl class="other">${card.other.map((f) => `<dt>${esc(f.field)}</dt><dd${part(f.path, o).attrs}>${esc(f.text)}</dd>`).join('')}</dl>`;
  const buttons = card.buttons.length === 0 ? '' : `<div class="buttons">${card.buttons.map((b) => suggestion(b, o, 'btn')).join('')}</div>`;
  const media = card.media === undefined ? '' : image(card.media, o);
  const cls = layout === 'bubble' ? 'bubble' : 'card';
  return `<div class="${cls}">${media}<div class="card-text">${text(card.title, 'title', 'p')}${text(card.description, 'desc', 'p')}${other}</div>${buttons}</div>`;
}

/** The message as the handset's screen shows it. */
export function messageHtml(m: MessageView, o: DrawOptions): string {
  const cards = m.cards.map((c) => cardHtml(c, m.layout, o));
  const body =
    m.layout === 'slides'
      ? `<div class="slides" role="group" aria-label="${m.cards.length} slides">${cards.join('')}</div>`
      : cards.join('');
  const chips = m.chips.length === 0 ? '' : `<div class="chips" role="group" aria-label="Suggested replies">${m.chips.map((c) => suggestion(c, o, 'chip')).join('')}</div>`;
  return `<div class="msg layout-${m.layout}">${body}</div>${chips}`;
}

/** The picture at the top of a handset: the brand's, or the first letter of the name there. */
export function avatar(o: { picture?: ImageView; name: string }): string {
  if (o.picture?.src !== undefined) return `<img class="avatar" src="${o.picture.src}" alt="${esc(o.picture.alt)}">`;
  return `<span class="avatar" aria-hidden="true">${esc([...o.name][0] ?? '?')}</span>`;
}

/** A handset: its top bar (picture and name), its screen, and what is below the screen. */
export function phone(name: string, picture: ImageView | undefined, screen: string, bottom = ''): string {
  const bar = `<div class="bar">${avatar(picture === undefined ? { name } : { picture, name })}<span class="room-name">${esc(name)}</span></div>`;
  return `<div class="phone">${bar}<div class="screen">${screen}</div>${bottom}</div>`;
}

/** An auto-reply in its handset, with its caption. */
export function messageHandset(m: MessageView, o: DrawOptions, extra = ''): string {
  const id = o.side === undefined ? ` id="${esc(m.key)}"` : '';
  const headId = `${o.side === undefined ? '' : `${o.side}-`}${m.key}-name`;
  const template = m.template === undefined ? m.messagebaseId : `${m.messagebaseId} · ${m.template}`;
  const meta = [m.address, template, m.source].filter((x): x is string => x !== undefined).map(esc).join(' · ');
  return (
    `<article class="handset"${id} data-address="${esc(m.address)}" aria-labelledby="${esc(headId)}">` +
    `<h3 class="caption" id="${esc(headId)}">${esc(m.name)}</h3><p class="meta">${meta}</p>` +
    phone(o.barName, o.avatar, messageHtml(m, o)) +
    extra +
    `</article>`
  );
}

/** A room's menu: its items, "No persistent menu" for none, or that the manifests leave it unmanaged (undefined). */
export function menuHtml(roomName: string, items: readonly SuggestionView[] | undefined, o: DrawOptions): string {
  if (items === undefined) return `<p class="no-menu">Menu not managed by the manifests</p>`;
  if (items.length === 0) return `<p class="no-menu">No persistent menu</p>`;
  return `<nav class="menu" aria-label="${esc(roomName)} menu"><ul>${items.map((i) => `<li>${suggestion(i, o, 'item')}</li>`).join('')}</ul></nav>`;
}

/** The menu (or what is drawn in its place) and input area at the bottom of a room's handset. */
export function roomBottom(room: RoomView, o: DrawOptions, menu = menuHtml(room.name, room.menu, o)): string {
  const input = room.inputEnabled === false ? 'Replies only: the input box is off' : 'Message';
  return `${menu}<div class="input${room.inputEnabled === false ? ' off' : ''}">${esc(input)}</div>`;
}

/** A room in its handset, with its display flags; `menu`: what other kinds draw at its bottom, else its own `menu`. */
export function roomHandset(room: RoomView, o: DrawOptions, menu?: string): string {
  const id = o.side === undefined ? ` id="${esc(room.key)}"` : '';
  const headId = `${o.side === undefined ? '' : `${o.side}-`}${room.key}-name`;
  const flags = [
    room.address,
    room.shownIn === undefined ? undefined : `shown in ${room.shownIn}`,
    room.rcsReply === undefined ? undefined : room.rcsReply === '1' ? 'RCS replies' : 'SMS replies',
    room.inputEnabled === undefined ? undefined : room.inputEnabled ? 'input box on' : 'input box off',
    room.safetyMark === undefined ? undefined : room.safetyMark ? 'safety mark shown' : 'no safety mark',
    room.source,
  ].filter((x): x is string => x !== undefined);
  const intro = room.description === undefined ? '' : `<p class="intro">${esc(room.description)}</p>`;
  const mark = room.safetyMark === true ? `<span class="safety" title="safety mark">✓</span>` : '';
  return (
    `<article class="handset room"${id} data-address="${esc(room.address)}" aria-labelledby="${esc(headId)}">` +
    `<h3 class="caption" id="${esc(headId)}">${esc(room.name)}${mark}</h3><p class="meta">${flags.map(esc).join(' · ')}</p>` +
    phone(room.name, room.logo ?? o.avatar, intro, menu === undefined ? roomBottom(room, o) : roomBottom(room, o, menu)) +
    `</article>`
  );
}

/** The brand's home page in its handset: background, profile image, name and description, the buttons, and the rooms it lists. */
export function homeHandset(home: HomeView, rooms: readonly { key: string; name: string }[], o: DrawOptions): string {
  const id = o.side === undefined ? ` id="${esc(home.key)}"` : '';
  const headId = `${o.side === undefined ? '' : `${o.side}-`}${home.key}-name`;
  const picture = (img: ImageView | undefined, cls: string): string =>
    img === undefined ? '' : img.src !== undefined ? `<img class="${cls}" src="${img.src}" alt="${esc(img.alt)}">` : `<div class="${cls} missing" role="img" aria-label="${esc(img.alt)}"><span>${esc(img.name)}</span></div>`;
  const header =
    `<div class="home-head">${picture(home.backgroundImage, 'home-bg')}${picture(home.profileImage, 'home-profile')}` +
    `<p class="home-name">${esc(home.name)}</p>${home.description === undefined ? '' : `<p class="intro">${esc(home.description)}</p>`}</div>`;
  const buttons = home.buttons.length === 0 ? '' : `<div class="buttons">${home.buttons.map((b) => suggestion(b, o, 'btn')).join('')}</div>`;
  const roomList =
    rooms.length === 0
      ? ''
      : `<nav class="menu" aria-label="${esc(home.name)} rooms"><ul>${rooms
          .map((r) => {
            const to = o.href(r.key);
            return `<li>${to === undefined ? `<span class="sg item">${esc(r.name)}</span>` : `<a class="sg item" href="${esc(to)}">${esc(r.name)}</a>`}</li>`;
          })
          .join('')}</ul></nav>`;
  const meta = [home.address, home.source].filter((x): x is string => x !== undefined).map(esc).join(' · ');
  return (
    `<article class="handset home"${id} data-address="${esc(home.address)}" aria-labelledby="${esc(headId)}">` +
    `<h3 class="caption" id="${esc(headId)}">${esc(home.name)}</h3><p class="meta">${meta}</p>` +
    phone(home.name, home.profileImage, header + buttons, roomList) +
    `</article>`
  );
}
