// Drawing the preview model as HTML: handsets, cards, buttons, chips and room
// menus. Every string from a manifest or the service goes through esc().
// Links between auto-replies are in-page anchors; nothing points off the page.

import type { CardView, HomeView, ImageView, MessageView, RoomView, SuggestionView } from './model.js';

/** Escape text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** How a handset is drawn. */
export interface DrawOptions {
  /** The name at the top of the handset (the room). */
  roomName: string;
  logo?: ImageView;
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

function image(img: ImageView & { path: string }, o: DrawOptions): string {
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

function avatar(o: { logo?: ImageView; roomName: string }): string {
  if (o.logo?.src !== undefined) return `<img class="avatar" src="${o.logo.src}" alt="${esc(o.logo.alt)}">`;
  return `<span class="avatar" aria-hidden="true">${esc([...o.roomName][0] ?? '?')}</span>`;
}

function phone(roomName: string, logo: ImageView | undefined, screen: string, bottom = ''): string {
  const bar = `<div class="bar">${avatar(logo === undefined ? { roomName } : { logo, roomName })}<span class="room-name">${esc(roomName)}</span></div>`;
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
    phone(o.roomName, o.logo, messageHtml(m, o)) +
    extra +
    `</article>`
  );
}

/** The menu and input area at the bottom of a room's handset. */
export function roomBottom(room: RoomView, o: DrawOptions): string {
  let menu: string;
  if (room.menu === undefined) menu = `<p class="no-menu">Menu not managed by the manifests</p>`;
  else if (room.menu.length === 0) menu = `<p class="no-menu">No persistent menu</p>`;
  else menu = `<nav class="menu" aria-label="${esc(room.name)} menu"><ul>${room.menu.map((i) => `<li>${suggestion(i, o, 'item')}</li>`).join('')}</ul></nav>`;
  const input = room.inputEnabled === false ? 'Replies only: the input box is off' : 'Message';
  return `${menu}<div class="input${room.inputEnabled === false ? ' off' : ''}">${esc(input)}</div>`;
}

/** A room in its handset, with its display flags. */
export function roomHandset(room: RoomView, o: DrawOptions): string {
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
    phone(room.name, room.logo ?? o.logo, intro, roomBottom(room, o)) +
    `</article>`
  );
}

/** The brand's home page in its handset: background, profile image, name and description, the buttons, and the rooms it lists. */
export function homeHandset(home: HomeView, rooms: readonly RoomView[], o: DrawOptions): string {
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

/** A whole page: self-contained, no network (the policy forbids every fetch but inline images). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const CSS = `
:root{--bg:#f5f2ed;--ink:#1f1a17;--muted:#5e554e;--line:#d9d1c7;--accent:#6b4423;--phone:#1c1c1e;--screen:#ffffff;--bubble:#f0ece6;--add:#1a7f37;--del:#c0262d;--focus:#f0b429}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI","Apple SD Gothic Neo","Malgun Gothic","Noto Sans KR","Noto Sans CJK KR","Nanum Gothic",sans-serif;color:var(--ink);background:var(--bg);line-height:1.45}
body{margin:0}
:lang(ko),body{word-break:keep-all;overflow-wrap:anywhere}
a{color:var(--accent)}
a:focus-visible,.sg:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header.top{padding:1rem 1.5rem;background:var(--accent);color:#fff}
header.top h1{margin:0;font-size:1.5rem}header.top p{margin:.25rem 0 0;opacity:.9}
nav.pager{margin-top:.4rem}nav.pager a{color:#fff}ol.pages li{margin:.3rem 0}
.layout{display:grid;grid-template-columns:14rem 1fr 18rem;gap:1.5rem;padding:1.5rem;align-items:start}.changes-layout{grid-template-columns:14rem 1fr}
nav.toc{position:sticky;top:1rem;font-size:.9rem}nav.toc h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:1rem 0 .25rem}
nav.toc ul{list-style:none;margin:0;padding:0}nav.toc li{margin:.15rem 0}
main h2{margin:0 0 1rem;font-size:1.2rem}main section{margin-bottom:2rem}
.grid{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
aside.findings{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:1rem;font-size:.9rem}
aside.findings h2{margin:0 0 .5rem;font-size:1.1rem}aside.findings ul{margin:0;padding-left:1.1rem}aside.findings li{margin:.4rem 0}
.sev{display:inline-block;font-size:.7rem;font-weight:600;text-transform:uppercase;border-radius:.25rem;padding:0 .3rem;margin-right:.3rem}
.sev-warning{background:#fde7c2;color:#6a3d00}.sev-info{background:#e3ecf7;color:#1d3f66}
footer{padding:1rem 1.5rem;color:var(--muted);font-size:.8rem}
.handset{width:300px;scroll-margin-top:1rem}
.caption{font-size:1rem;margin:0}.meta{margin:.1rem 0 .5rem;color:var(--muted);font-size:.75rem}
.handset:target .phone{outline:4px solid var(--focus);outline-offset:3px}
.phone{background:var(--screen);border:10px solid var(--phone);border-radius:26px;overflow:hidden;min-height:240px;display:flex;flex-direction:column}
.bar{display:flex;align-items:center;gap:.5rem;padding:.5rem .75rem;border-bottom:1px solid var(--line);background:#faf8f5}
.avatar{width:28px;height:28px;border-radius:50%;object-fit:cover;background:var(--accent);color:#fff;display:inline-flex;align-items:center;justify-content:center;font-weight:600;font-size:.8rem}
.room-name{font-weight:600;font-size:.9rem}
.screen{padding:.75rem;flex:1}
.msg{max-width:100%}
.bubble{background:var(--bubble);border-radius:14px 14px 14px 4px;padding:.6rem .75rem;max-width:88%}
.bubble .desc{margin:0;white-space:pre-wrap}
.card{background:#fff;border:1px solid var(--line);border-radius:14px;overflow:hidden}
.card .media{display:block;width:100%;height:120px;object-fit:cover;background:#ece6de}
.media.missing{display:flex;flex-direction:column;align-items:center;justify-content:center;color:var(--muted);font-size:.75rem;text-align:center;padding:.5rem}
.card-text{padding:.5rem .75rem}.bubble .card-text{padding:0}
.title{font-weight:700;margin:0 0 .25rem}.desc{margin:0;font-size:.9rem;white-space:pre-wrap}
dl.other{font-size:.75rem;margin:.4rem 0 0}dl.other dt{color:var(--muted)}dl.other dd{margin:0 0 .2rem}
.slides{display:flex;gap:.5rem;overflow-x:auto;padding-bottom:.25rem}.slides .card{flex:0 0 190px}
.buttons{display:flex;flex-direction:column;border-top:1px solid var(--line)}
.bubble .buttons{margin-top:.5rem;border-top:1px solid #d8d0c6}
.sg{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem;text-decoration:none;color:var(--accent);font-size:.85rem}
.btn{padding:.45rem .75rem;border-bottom:1px solid var(--line);justify-content:center;font-weight:600}.btn:last-child{border-bottom:0}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.6rem}
.chip{border:1px solid var(--accent);border-radius:999px;padding:.25rem .65rem;background:#fff}
.kind{font-size:.6rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;border-radius:.2rem;padding:0 .25rem;background:#efe7dc;color:#4a3524}
.kind-link .kind,.kind.kind-link{background:#e3ecf7;color:#1d3f66}.kind.kind-dial{background:#e2f3e5;color:#1c5a2a}.kind.kind-map{background:#f6e3ef;color:#6b1f4d}.kind.kind-answer{background:#ede7f6;color:#4527a0}
.detail{flex-basis:100%;text-align:center;font-size:.7rem;font-weight:400;color:var(--muted);overflow-wrap:anywhere}
.chip .detail{display:none}
a.sg:hover .label{text-decoration:underline}
.intro{color:var(--muted);font-size:.85rem;margin:0}
.home-head{display:flex;flex-direction:column;align-items:center;text-align:center;gap:.3rem}.home-bg{width:100%;max-height:6rem;object-fit:cover;border-radius:.5rem}.home-profile{width:4rem;height:4rem;border-radius:50%;object-fit:cover}.home-name{font-weight:600;margin:0}
nav.menu{border-top:1px solid var(--line);background:#faf8f5}nav.menu ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr}
nav.menu li{border-bottom:1px solid var(--line)}nav.menu li:nth-child(odd){border-right:1px solid var(--line)}
.item{padding:.5rem;justify-content:center;text-align:center}
.no-menu{margin:0;padding:.5rem .75rem;color:var(--muted);font-size:.8rem;border-top:1px solid var(--line)}
.input{margin:.5rem;border:1px solid var(--line);border-radius:999px;padding:.35rem .75rem;color:var(--muted);font-size:.8rem}.input.off{background:#f1efec}
.safety{margin-left:.3rem;color:var(--add);font-size:.9rem}
.badges{list-style:none;padding:0;margin:.5rem 0 0;font-size:.75rem}
[data-changed]{position:relative}.side p[data-changed]{padding:0 .2rem}
.side.before [data-changed]{outline:2px solid var(--del);outline-offset:-2px;background:#fdecea}
.side.after [data-changed]{outline:2px solid var(--add);outline-offset:-2px;background:#e6f4ea}
.chg-mark{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.change{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:1rem;margin-bottom:1.5rem}
.change h2{font-size:1.05rem;margin:0 0 .25rem;font-family:ui-monospace,monospace}
.gate{margin:.25rem 0 .75rem;font-size:.85rem}
.sides{display:flex;flex-wrap:wrap;gap:2rem}
.side{margin:0}.side figcaption{font-weight:700;margin-bottom:.4rem}.side.before figcaption{color:var(--del)}.side.after figcaption{color:var(--add)}
.absent{width:300px;min-height:240px;border:2px dashed var(--line);border-radius:26px;display:flex;align-items:center;justify-content:center;color:var(--muted);text-align:center;padding:1rem}
pre.changes{font-size:.8rem;background:#f6f8fa;padding:.75rem;overflow-x:auto;white-space:pre-wrap}
.changes .add{color:var(--add)}.changes .del{color:var(--del)}
@media (max-width:1100px){.layout{grid-template-columns:1fr}nav.toc{position:static}}
`;
