// The preview site: one self-contained page per brand (`<dir>/<brandId>/index.html`)
// and an index of the brands (`<dir>/index.html`). A brand with more auto-replies
// than a page holds (MESSAGES_PER_PAGE) gets an index page (its rooms, the list of
// pages, the findings about no one auto-reply) and `page-001.html`, … of
// MESSAGES_PER_PAGE handsets each: a browser opens any of them at once, and the
// work and memory grow with the brand, page by page. Written atomically per file,
// through the run's redaction (writeOutputFile).

import { join } from 'node:path';
import { writeOutputFile } from '../util/output-file.js';
import type { Redaction } from '../util/redaction.js';
import { esc, homeHandset, messageHandset, page, roomHandset, type DrawOptions } from './draw.js';
import type { BrandView, Finding, MessageView } from './model.js';

/** Auto-replies on one page of a brand's preview: a page of about 1 MB that a browser opens at once. */
export const MESSAGES_PER_PAGE = 500;

/** One file of a brand's folder: its name (`index.html`, `page-001.html`) and its HTML. */
export interface PageFile {
  file: string;
  html: string;
}

/** The folder name of a brand inside the preview directory (brand ids are safe, but never trust a path). */
export function brandFolder(brandId: string): string {
  const safe = brandId.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || /^\.+$/.test(safe) ? '_' : safe;
}

/** The findings by the key of the handset they are about (one pass, not one search per handset). */
function findingsByKey(findings: readonly Finding[]): Map<string, Finding[]> {
  const by = new Map<string, Finding[]>();
  for (const f of findings) {
    if (f.key === undefined) continue;
    const own = by.get(f.key);
    if (own === undefined) by.set(f.key, [f]);
    else own.push(f);
  }
  return by;
}

function findingItem(f: Finding, href: DrawOptions['href']): string {
  const to = f.key === undefined ? undefined : href(f.key);
  const about = to === undefined ? '' : ` <a href="${esc(to)}">show</a>`;
  const where = f.where === undefined ? '' : ` <code>${esc(f.where)}</code>`;
  return `<li><span class="sev sev-${f.severity}">${f.severity}</span>${esc(f.message)}${where}${about}</li>`;
}

function findingsList(findings: readonly Finding[], href: DrawOptions['href'], none: string): string {
  return findings.length === 0 ? `<p>${none}</p>` : `<ul>${findings.map((f) => findingItem(f, href)).join('')}</ul>`;
}

function toc(title: string, items: readonly { key: string; name: string }[], href: DrawOptions['href']): string {
  return items.length === 0 ? '' : `<h2>${title}</h2><ul>${items.map((i) => `<li><a href="${esc(href(i.key) ?? `#${i.key}`)}">${esc(i.name)}</a></li>`).join('')}</ul>`;
}

/** The handsets of `messages`, each with the badges of its own findings. */
function messagesSection(messages: readonly MessageView[], o: DrawOptions, byKey: ReadonlyMap<string, Finding[]>, heading = 'Auto-replies'): string {
  const badges = (key: string): string => {
    const own = byKey.get(key) ?? [];
    return own.length === 0 ? '' : `<ul class="badges">${own.map((f) => `<li><span class="sev sev-${f.severity}">${f.code}</span>${esc(f.message)}</li>`).join('')}</ul>`;
  };
  return `<section aria-labelledby="replies-h"><h2 id="replies-h">${esc(heading)}</h2><div class="grid">${messages.map((m) => messageHandset(m, o, badges(m.key))).join('')}</div></section>`;
}

function roomsSection(view: BrandView, o: DrawOptions): string {
  const home = view.home === undefined ? '' : `<section aria-labelledby="home-h"><h2 id="home-h">Brand home</h2><div class="grid">${homeHandset(view.home, view.rooms, o)}</div></section>\n`;
  return `${home}<section aria-labelledby="rooms-h"><h2 id="rooms-h">Rooms and their menus</h2><div class="grid">${view.rooms.map((r) => roomHandset(r, o)).join('')}</div></section>`;
}

function drawOptions(view: BrandView, href: DrawOptions['href']): DrawOptions {
  const logo = view.rooms.find((r) => r.logo !== undefined)?.logo;
  return { roomName: view.roomName ?? view.title, href, ...(logo === undefined ? {} : { logo }) };
}

const FOOTER = (version: string): string =>
  `<footer>Made by rcsctl ${esc(version)} from the manifests. A reply chip or menu item opens the auto-reply it links to. Nothing on this page loads from the network.</footer>`;

/** The page of one brand drawn whole: rooms and their menus, every auto-reply, and the findings. */
export function brandPage(view: BrandView, version: string): string {
  const onPage = new Set([...view.messages.map((m) => m.key), ...view.rooms.map((r) => r.key)]);
  const href = (key: string): string | undefined => (onPage.has(key) ? `#${key}` : undefined);
  const o = drawOptions(view, href);
  const body = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top"><h1>${esc(view.title)}</h1><p>Brand ${esc(view.brandId)} · ${count(view.messages.length, 'auto-reply', 'auto-replies')} · ${count(view.rooms.length, 'room')} · ${count(view.findings.length, 'finding')}</p></header>
<div class="layout">
<nav class="toc" aria-label="Contents">${toc('Rooms', view.rooms, href)}${toc('Auto-replies', view.messages, href)}</nav>
<main id="main">
${roomsSection(view, o)}
${messagesSection(view.messages, o, findingsByKey(view.findings))}
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(view.findings, href, 'No findings: every auto-reply is reachable and leads on.')}</aside>
</div>
${FOOTER(version)}`;
  return page(`${view.title === view.brandId ? view.brandId : `${view.title} (${view.brandId})`}: preview`, body);
}

/** The file names of `n` pages: `page-001.html`, … (wider numbers when there are more than 999). */
export function pageFiles(n: number): string[] {
  const width = Math.max(3, String(n).length);
  return Array.from({ length: n }, (_, i) => `page-${String(i + 1).padStart(width, '0')}.html`);
}

/** Items split into pages: the chunks, their files, the file that draws each key, and each page's range (`501–1000`). */
export interface Paged<T> {
  chunks: T[][];
  files: string[];
  fileOf: Map<string, string>;
  range: (page: number) => string;
}

/** `items` in pages of `perPage`, in order; `keyOf` gives the anchor each item is drawn under. */
export function paginate<T>(items: readonly T[], keyOf: (item: T) => string, perPage: number): Paged<T> {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += perPage) chunks.push(items.slice(i, i + perPage));
  const files = pageFiles(chunks.length);
  const fileOf = new Map<string, string>();
  chunks.forEach((chunk, i) => chunk.forEach((item) => fileOf.set(keyOf(item), files[i] as string)));
  const range = (i: number): string => `${i * perPage + 1}–${i * perPage + (chunks[i]?.length ?? 0)}`;
  return { chunks, files, fileOf, range };
}

/** Links from the file `here` to anchors drawn in other files of the folder: `#key` on the same page, `page-002.html#key` on another. */
export function hrefFrom(fileOf: ReadonlyMap<string, string>, here: string): DrawOptions['href'] {
  return (key) => {
    const file = fileOf.get(key);
    return file === undefined ? undefined : file === here ? `#${key}` : `${file}#${key}`;
  };
}

/** The links from page `i` to the index, the previous and the next page. */
export function pagerNav(paged: Paged<unknown>, i: number, index = 'Rooms and every page'): string {
  const { files, range } = paged;
  const links = [
    `<a href="index.html">${esc(index)}</a>`,
    i > 0 ? `<a rel="prev" href="${files[i - 1]}">Previous: ${range(i - 1)}</a>` : '',
    i + 1 < files.length ? `<a rel="next" href="${files[i + 1]}">Next: ${range(i + 1)}</a>` : '',
  ].filter((a) => a !== '');
  return `<nav class="pager" aria-label="Pages">${links.join(' · ')}</nav>`;
}

/**
 * The files of one brand's preview: `index.html` alone when its auto-replies fit
 * on one page, else an index and a page per `perPage` auto-replies. Made one at a
 * time as they are asked for, so only one page's HTML is held at once. A reply,
 * a menu item or a finding links to its auto-reply wherever it is drawn
 * (`page-002.html#ar-key`), and a page links back to the rooms (`index.html#room-…`).
 */
export function* brandPages(view: BrandView, version: string, perPage = MESSAGES_PER_PAGE): Generator<PageFile> {
  if (view.messages.length <= perPage) {
    yield { file: 'index.html', html: brandPage(view, version) };
    return;
  }
  const paged = paginate(view.messages, (m) => m.key, perPage);
  const { chunks, files, fileOf, range } = paged;
  for (const r of view.rooms) fileOf.set(r.key, 'index.html');
  const byKey = findingsByKey(view.findings);
  const onPages = chunks.map((chunk) => chunk.flatMap((m) => byKey.get(m.key) ?? []));
  const elsewhere = view.findings.filter((f) => f.key === undefined || !fileOf.has(f.key) || fileOf.get(f.key) === 'index.html');
  const heading = `<h1>${esc(view.title)}</h1>`;

  const indexHref = hrefFrom(fileOf, 'index.html');
  const pageList = chunks
    .map((chunk, i) => {
      const from = chunk[0] as MessageView;
      const to = chunk[chunk.length - 1] as MessageView;
      const n = onPages[i]?.length ?? 0;
      return `<li><a href="${files[i]}">Auto-replies ${range(i)}</a>: “${esc(from.name)}” to “${esc(to.name)}”${n === 0 ? '' : ` · ${count(n, 'finding')}`}</li>`;
    })
    .join('');
  const indexBody = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top">${heading}<p>Brand ${esc(view.brandId)} · ${count(view.messages.length, 'auto-reply', 'auto-replies')} on ${count(chunks.length, 'page')} · ${count(view.rooms.length, 'room')} · ${count(view.findings.length, 'finding')}</p></header>
<div class="layout">
<nav class="toc" aria-label="Contents">${toc('Rooms', view.rooms, indexHref)}<h2>Auto-replies</h2><ul>${chunks.map((_, i) => `<li><a href="${files[i]}">${range(i)}</a></li>`).join('')}</ul></nav>
<main id="main">
${roomsSection(view, drawOptions(view, indexHref))}
<section aria-labelledby="pages-h"><h2 id="pages-h">Auto-replies, ${count(perPage, 'handset')} a page</h2><ol class="pages">${pageList}</ol></section>
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(elsewhere, indexHref, 'No findings about the rooms or the manifests.')}<p>The findings about an auto-reply are on its page.</p></aside>
</div>
${FOOTER(version)}`;
  yield { file: 'index.html', html: page(`${view.title} (${view.brandId}): preview`, indexBody) };

  for (let i = 0; i < chunks.length; i++) {
    const here = files[i] as string;
    const href = hrefFrom(fileOf, here);
    const chunk = chunks[i] as MessageView[];
    const body = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top">${heading}<p>Brand ${esc(view.brandId)} · auto-replies ${range(i)} of ${view.messages.length} · page ${i + 1} of ${chunks.length}</p>${pagerNav(paged, i)}</header>
<div class="layout">
<nav class="toc" aria-label="Contents">${toc('Auto-replies', chunk, href)}</nav>
<main id="main">
${messagesSection(chunk, drawOptions(view, href), byKey, `Auto-replies ${range(i)}`)}
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(onPages[i] ?? [], href, 'No findings about the auto-replies on this page.')}</aside>
</div>
${FOOTER(version)}`;
    yield { file: here, html: page(`${view.title} (${view.brandId}): auto-replies ${range(i)}`, body) };
  }
}

/** The index page linking every brand's page. */
export function indexPage(title: string, brands: { brandId: string; summary: string }[], version: string): string {
  const items = brands.map((b) => `<li><a href="${esc(brandFolder(b.brandId))}/index.html">${esc(b.brandId)}</a>: ${esc(b.summary)}</li>`).join('');
  const body = `<header class="top"><h1>${esc(title)}</h1><p>${count(brands.length, 'brand')}</p></header>
<main id="main" style="padding:1.5rem"><ul>${items}</ul></main>
<footer>Made by rcsctl ${esc(version)}.</footer>`;
  return page(title, body);
}

/** Write one brand's files into `<dir>/<brand>/`, each as it is made; returns the path of its `index.html`. */
export function writeBrandFolder(dir: string, brandId: string, files: Iterable<PageFile>, redaction: Redaction): string {
  const folder = join(dir, brandFolder(brandId));
  for (const f of files) writeOutputFile(join(folder, f.file), f.html, redaction);
  return join(folder, 'index.html');
}

/** Write the site's `<dir>/index.html`; returns its path. */
export function writeSiteIndex(dir: string, html: string, redaction: Redaction): string {
  const path = join(dir, 'index.html');
  writeOutputFile(path, html, redaction);
  return path;
}

/** `3 rooms`, `1 room`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
