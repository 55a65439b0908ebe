// The preview site: one self-contained page per brand (`<dir>/<brandId>/index.html`)
// and an index of the brands (`<dir>/index.html`). Written atomically per file.

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { esc, messageHandset, page, roomHandset, type DrawOptions } from './draw.js';
import type { BrandView, Finding } from './model.js';

/** The folder name of a brand inside the preview directory (brand ids are safe, but never trust a path). */
export function brandFolder(brandId: string): string {
  const safe = brandId.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || /^\.+$/.test(safe) ? '_' : safe;
}

function findingItem(f: Finding, onPage: ReadonlySet<string>): string {
  const about = f.key !== undefined && onPage.has(f.key) ? ` <a href="#${esc(f.key)}">show</a>` : '';
  const where = f.where === undefined ? '' : ` <code>${esc(f.where)}</code>`;
  return `<li><span class="sev sev-${f.severity}">${f.severity}</span>${esc(f.message)}${where}${about}</li>`;
}

/** The page of one brand: rooms and their menus, every auto-reply, and the findings. */
export function brandPage(view: BrandView, version: string): string {
  const onPage = new Set([...view.messages.map((m) => m.key), ...view.rooms.map((r) => r.key)]);
  const logo = view.rooms.find((r) => r.logo !== undefined)?.logo;
  const o: DrawOptions = { roomName: view.title, onPage, ...(logo === undefined ? {} : { logo }) };
  const badges = (key: string): string => {
    const own = view.findings.filter((f) => f.key === key);
    return own.length === 0 ? '' : `<ul class="badges">${own.map((f) => `<li><span class="sev sev-${f.severity}">${f.code}</span>${esc(f.message)}</li>`).join('')}</ul>`;
  };
  const toc = (title: string, items: { key: string; name: string }[]): string =>
    items.length === 0 ? '' : `<h2>${title}</h2><ul>${items.map((i) => `<li><a href="#${esc(i.key)}">${esc(i.name)}</a></li>`).join('')}</ul>`;
  const findings =
    view.findings.length === 0 ? '<p>No findings: every auto-reply is reachable and leads on.</p>' : `<ul>${view.findings.map((f) => findingItem(f, onPage)).join('')}</ul>`;
  const body = `<a class="skip" href="#main">Skip to the previews</a>
<header class="top"><h1>${esc(view.title)}</h1><p>Brand ${esc(view.brandId)} · ${count(view.messages.length, 'auto-reply', 'auto-replies')} · ${count(view.rooms.length, 'room')} · ${count(view.findings.length, 'finding')}</p></header>
<div class="layout">
<nav class="toc" aria-label="Contents">${toc('Rooms', view.rooms)}${toc('Auto-replies', view.messages)}</nav>
<main id="main">
<section aria-labelledby="rooms-h"><h2 id="rooms-h">Rooms and their menus</h2><div class="grid">${view.rooms.map((r) => roomHandset(r, o)).join('')}</div></section>
<section aria-labelledby="replies-h"><h2 id="replies-h">Auto-replies</h2><div class="grid">${view.messages.map((m) => messageHandset(m, o, badges(m.key))).join('')}</div></section>
</main>
<aside class="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>${findings}</aside>
</div>
<footer>Made by rcsctl ${esc(version)} from the manifests. A reply chip or menu item opens the auto-reply it links to. Nothing on this page loads from the network.</footer>`;
  return page(`${view.title} (${view.brandId}): preview`, body);
}

/** The index page linking every brand's page. */
export function indexPage(title: string, brands: { brandId: string; summary: string }[], version: string): string {
  const items = brands.map((b) => `<li><a href="${esc(brandFolder(b.brandId))}/index.html">${esc(b.brandId)}</a>: ${esc(b.summary)}</li>`).join('');
  const body = `<header class="top"><h1>${esc(title)}</h1><p>${count(brands.length, 'brand')}</p></header>
<main id="main" style="padding:1.5rem"><ul>${items}</ul></main>
<footer>Made by rcsctl ${esc(version)}.</footer>`;
  return page(title, body);
}

/** Write `<dir>/index.html` and one `<dir>/<brand>/index.html` per page; returns the paths written. */
export function writeSite(dir: string, index: string, pages: { brandId: string; html: string }[]): string[] {
  const written: string[] = [];
  for (const p of pages) {
    const folder = join(dir, brandFolder(p.brandId));
    mkdirSync(folder, { recursive: true });
    written.push(writeAtomic(join(folder, 'index.html'), p.html));
  }
  mkdirSync(dir, { recursive: true });
  written.push(writeAtomic(join(dir, 'index.html'), index));
  return written;
}

function writeAtomic(path: string, text: string): string {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** `3 rooms`, `1 room`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
