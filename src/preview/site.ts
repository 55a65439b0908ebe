// The preview site: one self-contained page per brand (`<dir>/<brandId>/index.html`)
// and an index of the brands (`<dir>/index.html`). A brand's page draws the
// sections the kinds bring (src/preview/brand.ts) in their order. A brand with
// more handsets in its paged sections (auto-replies) than a page holds
// (MESSAGES_PER_PAGE) gets an index page (the other sections, the list of
// pages, the findings about no one paged handset) and `page-001.html`, … of
// MESSAGES_PER_PAGE handsets each: a browser opens any of them at once, and the
// work and memory grow with the brand, page by page. Written atomically per file,
// through the run's redaction (writeOutputFile).

import { join } from 'node:path';
import { writeOutputFile } from '../util/output-file.js';
import type { Redaction } from '../util/redaction.js';
import { esc, type DrawOptions } from '../kinds/handset-draw.js';
import type { Handset } from '../kinds/handset.js';
import type { Finding } from '../kinds/handset-model.js';
import { drawnSections, type BrandView, type SectionView } from './brand.js';
import { page } from './page.js';

/** Handsets of the paged sections (auto-replies) on one page of a brand's preview: a page of about 1 MB that a browser opens at once. */
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
  return findings.length === 0 ? `<p>${esc(none)}</p>` : `<ul>${findings.map((f) => findingItem(f, href)).join('')}</ul>`;
}

function toc(title: string, items: readonly { key: string; name: string }[], href: DrawOptions['href']): string {
  return items.length === 0 ? '' : `<h2>${esc(title)}</h2><ul>${items.map((i) => `<li><a href="${esc(href(i.key) ?? `#${i.key}`)}">${esc(i.name)}</a></li>`).join('')}</ul>`;
}

/** One section: its handsets, those replies open each with the badges of its own findings. */
function sectionHtml(section: SectionView, handsets: readonly Handset[], o: DrawOptions, byKey: ReadonlyMap<string, Finding[]>, heading = section.heading): string {
  const badges = (key: string): string => {
    const own = byKey.get(key) ?? [];
    return own.length === 0 ? '' : `<ul class="badges">${own.map((f) => `<li><span class="sev sev-${f.severity}">${f.code}</span>${esc(f.message)}</li>`).join('')}</ul>`;
  };
  const drawn = handsets.map((h) => (section.opened ? h.html(o, badges(h.key)) : h.html(o))).join('');
  return `<section aria-labelledby="${esc(section.id)}-h"><h2 id="${esc(section.id)}-h">${esc(heading)}</h2><div class="grid">${drawn}</div></section>`;
}

function drawOptions(view: BrandView, href: DrawOptions['href']): DrawOptions {
  return { barName: view.barName ?? view.title, href, ...(view.avatar === undefined ? {} : { avatar: view.avatar }) };
}

/** The counted sections' counts in the page's header, the many (paged) first: `3 auto-replies · 2 rooms`; `pages` follows the paged ones. */
export function sectionCounts(view: BrandView, pages?: string): string[] {
  const counted = drawnSections(view).filter((s) => s.counted);
  const paged = counted.filter((s) => s.paged).map((s) => count(s.handsets.length, s.one, s.many));
  if (pages !== undefined && paged.length > 0) paged[paged.length - 1] += ` on ${pages}`;
  return [...paged, ...counted.filter((s) => !s.paged).map((s) => count(s.handsets.length, s.one, s.many))];
}

/** How the paged sections are named together: their heading, their title in the contents, and their plural. */
function pagedWords(sections: readonly SectionView[]): { heading: string; toc: string; many: string } {
  return {
    heading: sections.map((s) => s.heading).join(' and '),
    toc: sections.map((s) => s.toc ?? s.heading).join(' and '),
    many: sections.map((s) => s.many).join(' and '),
  };
}

/** The words of the handsets replies open (`auto-reply`, `auto-replies`), as the page's texts name them. */
function openedWords(view: BrandView): { one: string; many: string } {
  const opened = view.sections.filter((s) => s.opened);
  return { one: opened.map((s) => s.one).join(' or ') || 'handset', many: opened.map((s) => s.many).join(' and ') || 'handsets' };
}

/** `an auto-reply`, `a room`. */
const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

const FOOTER = (version: string, view: BrandView): string =>
  `<footer>Made by rcsctl ${esc(version)} from the manifests. A reply chip or menu item opens the ${esc(openedWords(view).one)} it links to. Nothing on this page loads from the network.</footer>`;

/** The page of one brand drawn whole: every section the kinds bring, and the findings. */
export function brandPage(view: BrandView, version: string): string {
  const sections = drawnSections(view);
  const onPage = new Set(sections.flatMap((s) => s.handsets.map((h) => h.key)));
  const href = (key: string): string | undefined => (onPage.has(key) ? `#${key}` : undefined);
  const o = drawOptions(view, href);
  const byKey = findingsByKey(view.findings);
  const body = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top"><h1>${esc(view.title)}</h1><p>Brand ${esc(view.brandId)} · ${[...sectionCounts(view), count(view.findings.length, 'finding')].join(' · ')}</p></header>
<div class="layout">
<nav class="toc" aria-label="Contents">${sections.map((s) => (s.toc === undefined ? '' : toc(s.toc, s.handsets, href))).join('')}</nav>
<main id="main">
${sections.map((s) => sectionHtml(s, s.handsets, o, byKey)).join('\n')}
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(view.findings, href, `No findings: every ${openedWords(view).one} is reachable and leads on.`)}</aside>
</div>
${FOOTER(version, view)}`;
  return page(`${view.title === view.brandId ? view.brandId : `${view.title} (${view.brandId})`}: preview`, body, view.css);
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
export function pagerNav(paged: Paged<unknown>, i: number, index = 'Every page'): string {
  const { files, range } = paged;
  const links = [
    `<a href="index.html">${esc(index)}</a>`,
    i > 0 ? `<a rel="prev" href="${files[i - 1]}">Previous: ${range(i - 1)}</a>` : '',
    i + 1 < files.length ? `<a rel="next" href="${files[i + 1]}">Next: ${range(i + 1)}</a>` : '',
  ].filter((a) => a !== '');
  return `<nav class="pager" aria-label="Pages">${links.join(' · ')}</nav>`;
}

/**
 * The files of one brand's preview: `index.html` alone when its paged
 * sections' handsets (auto-replies) fit on one page, else an index (the other
 * sections) and a page per `perPage` of them. Made one at a time as they are
 * asked for, so only one page's HTML is held at once. A reply, a menu item or
 * a finding links to its handset wherever it is drawn (`page-002.html#ar-key`),
 * and a page links back to the index (`index.html#room-…`).
 */
export function* brandPages(view: BrandView, version: string, perPage = MESSAGES_PER_PAGE): Generator<PageFile> {
  const sections = drawnSections(view);
  const pagedSections = sections.filter((s) => s.paged);
  const indexSections = sections.filter((s) => !s.paged);
  const many = pagedSections.flatMap((s) => s.handsets.map((h) => ({ h, s })));
  if (many.length <= perPage) {
    yield { file: 'index.html', html: brandPage(view, version) };
    return;
  }
  const words = pagedWords(pagedSections);
  const paged = paginate(many, ({ h }) => h.key, perPage);
  const { chunks, files, fileOf, range } = paged;
  for (const s of indexSections) for (const h of s.handsets) fileOf.set(h.key, 'index.html');
  const byKey = findingsByKey(view.findings);
  const onPages = chunks.map((chunk) => chunk.flatMap(({ h }) => byKey.get(h.key) ?? []));
  const elsewhere = view.findings.filter((f) => f.key === undefined || !fileOf.has(f.key) || fileOf.get(f.key) === 'index.html');
  const heading = `<h1>${esc(view.title)}</h1>`;
  const indexTocs = indexSections.flatMap((s) => (s.toc === undefined ? [] : [s.toc]));
  const backToIndex = indexTocs.length === 0 ? 'Every page' : `${indexTocs.join(', ')} and every page`;

  const indexHref = hrefFrom(fileOf, 'index.html');
  const pageList = chunks
    .map((chunk, i) => {
      const from = chunk[0]?.h as Handset;
      const to = chunk[chunk.length - 1]?.h as Handset;
      const n = onPages[i]?.length ?? 0;
      return `<li><a href="${files[i]}">${esc(words.heading)} ${range(i)}</a>: “${esc(from.name)}” to “${esc(to.name)}”${n === 0 ? '' : ` · ${count(n, 'finding')}`}</li>`;
    })
    .join('');
  const indexBody = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top">${heading}<p>Brand ${esc(view.brandId)} · ${[...sectionCounts(view, count(chunks.length, 'page')), count(view.findings.length, 'finding')].join(' · ')}</p></header>
<div class="layout">
<nav class="toc" aria-label="Contents">${indexSections.map((s) => (s.toc === undefined ? '' : toc(s.toc, s.handsets, indexHref))).join('')}<h2>${esc(words.toc)}</h2><ul>${chunks.map((_, i) => `<li><a href="${files[i]}">${range(i)}</a></li>`).join('')}</ul></nav>
<main id="main">
${[...indexSections.map((s) => sectionHtml(s, s.handsets, drawOptions(view, indexHref), byKey)), `<section aria-labelledby="pages-h"><h2 id="pages-h">${esc(words.heading)}, ${count(perPage, 'handset')} a page</h2><ol class="pages">${pageList}</ol></section>`].join('\n')}
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(elsewhere, indexHref, `No findings about ${[...indexSections.filter((s) => s.counted).map((s) => `the ${s.many}`), 'the manifests'].join(' or ')}.`)}<p>The findings about ${esc(withArticle(pagedSections.map((s) => s.one).join(' or ')))} are on its page.</p></aside>
</div>
${FOOTER(version, view)}`;
  yield { file: 'index.html', html: page(`${view.title} (${view.brandId}): preview`, indexBody, view.css) };

  for (let i = 0; i < chunks.length; i++) {
    const here = files[i] as string;
    const href = hrefFrom(fileOf, here);
    const chunk = chunks[i] as { h: Handset; s: SectionView }[];
    const o = drawOptions(view, href);
    // The page's handsets by their section, in the sections' order.
    const drawn = pagedSections
      .map((s) => ({ s, handsets: chunk.filter((c) => c.s === s).map((c) => c.h) }))
      .filter(({ handsets }) => handsets.length > 0)
      .map(({ s, handsets }) => sectionHtml(s, handsets, o, byKey, `${s.heading} ${range(i)}`));
    const body = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top">${heading}<p>Brand ${esc(view.brandId)} · ${esc(words.many)} ${range(i)} of ${many.length} · page ${i + 1} of ${chunks.length}</p>${pagerNav(paged, i, backToIndex)}</header>
<div class="layout">
<nav class="toc" aria-label="Contents">${toc(words.toc, chunk.map((c) => c.h), href)}</nav>
<main id="main">
${drawn.join('\n')}
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findingsList(onPages[i] ?? [], href, `No findings about the ${words.many} on this page.`)}</aside>
</div>
${FOOTER(version, view)}`;
    yield { file: here, html: page(`${view.title} (${view.brandId}): ${words.many} ${range(i)}`, body, view.css) };
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
