// The page at `/`: the brands for a person to work from. Counts per state,
// then one table that sorts (click a heading) and filters by state, brand,
// owner and how long a brand has been in its state; every brand links to its
// own page (brand-page.ts). The server draws it whole, so it reads without
// script; its one inline script (allowed by hash, page-parts.ts) fetches
// /status every few seconds and draws the same table again, keeping the sort
// and filters (also kept in the address's #fragment). Nothing loads from the
// network; every value is escaped, and the page goes out through the one
// redaction like every body the controller serves.

import { age, esc, PAGE_CSS, pagePolicy, plural, STATE_COLOURS, STATE_ORDER } from './page-parts.js';
import type { BrandStatus, ControllerStatus } from './status.js';

/** How often the page fetches /status again. */
export const REFRESH_MS = 5000;

/** The columns, in order: `key` sorts and names it; the owners column shows only when some brand declares owners. */
const COLUMNS = [
  { key: 'brand', title: 'Brand' },
  { key: 'owners', title: 'Owners' },
  { key: 'state', title: 'State' },
  { key: 'age', title: 'In state for' },
  { key: 'pass', title: 'Last pass' },
  { key: 'pending', title: 'Pending' },
  { key: 'error', title: 'Last error' },
  { key: 'retry', title: 'Retry' },
] as const;

/** The column headings that sort (the others are text to read). */
const SORTABLE = new Set(['brand', 'owners', 'state', 'age', 'pass']);

/** Reasons shown per row; the brand's page has them all. */
const REASONS_SHOWN = 3;

/** The page's script: draws the table from /status, sorts and filters it. It runs in the browser: plain ES2020, DOM calls only, no HTML strings. */
const SCRIPT = `(() => {
'use strict';
const ORDER = ${JSON.stringify(STATE_ORDER)};
const COLOURS = ${JSON.stringify(STATE_COLOURS)};
const COLUMNS = ${JSON.stringify(COLUMNS)};
const SORTABLE = ${JSON.stringify([...SORTABLE])};
const REASONS = ${REASONS_SHOWN};
const $ = (id) => document.getElementById(id);
const view = { sort: 'state', dir: 1, state: '', brand: '', owner: '', age: 0 };
const fromHash = () => { const p = new URLSearchParams(location.hash.slice(1)); for (const k of Object.keys(view)) if (p.has(k)) view[k] = typeof view[k] === 'number' ? Number(p.get(k)) || 0 : p.get(k); if (view.dir !== -1) view.dir = 1; };
const toHash = () => { const p = new URLSearchParams(); for (const [k, v] of Object.entries(view)) if (v !== '' && v !== 0 && !(k === 'dir' && v === 1) && !(k === 'sort' && v === 'state')) p.set(k, String(v)); history.replaceState(null, '', p.toString() === '' ? location.pathname : '#' + p.toString()); };
let last;
const ageOf = (b, now) => b.stateSince ? now - Date.parse(b.stateSince) : -1;
const ago = (ms) => { const s = Math.max(0, Math.round(ms / 1000)); return s < 60 ? s + ' s' : s < 3600 ? Math.floor(s / 60) + ' min' : s < 86400 ? Math.floor(s / 3600) + ' h' : Math.floor(s / 86400) + ' d'; };
const el = (tag, props, ...kids) => { const e = document.createElement(tag); Object.assign(e, props || {}); for (const k of kids) if (k !== undefined && k !== null) e.append(k); return e; };
const rank = (s) => { const i = ORDER.indexOf(s); return i < 0 ? ORDER.length : i; };
function cells(b, now, owners) {
  const link = el('a', { href: 'brands/' + encodeURIComponent(b.brandId), textContent: b.brandId });
  const state = el('td', { className: 'state', textContent: b.state });
  state.style.color = COLOURS[b.state] || '#1f2328';
  const reasons = el('ul', { className: 'reasons' });
  for (const r of b.pendingReasons.slice(0, REASONS)) reasons.append(el('li', { textContent: r }));
  if (b.pendingReasons.length > REASONS) reasons.append(el('li', { className: 'muted', textContent: '… and ' + (b.pendingReasons.length - REASONS) + ' more' }));
  const out = [el('td', {}, link)];
  if (owners) out.push(el('td', { textContent: (b.owners || []).join(', ') }));
  out.push(state, el('td', { textContent: b.stateSince ? ago(ageOf(b, now)) : '—' }));
  out.push(el('td', { textContent: b.lastPassAt ? ago(now - Date.parse(b.lastPassAt)) + ' ago' + (b.lastPassDurationMs !== undefined ? ', took ' + b.lastPassDurationMs + ' ms' : '') : '—' }));
  out.push(el('td', {}, b.pendingReasons.length > 0 ? reasons : ''));
  out.push(el('td', { textContent: b.lastError ? b.lastError.message : '' }));
  out.push(el('td', { textContent: b.retry ? 'attempt ' + b.retry.attempt + ', next at ' + b.retry.nextAt : '' }));
  return out;
}
function keyOf(b, now) {
  switch (view.sort) {
    case 'owners': return (b.owners || []).join(', ');
    case 'state': return rank(b.state);
    case 'age': return ageOf(b, now);
    case 'pass': return b.lastPassAt ? Date.parse(b.lastPassAt) : 0;
    default: return b.brandId;
  }
}
function shown(b, now) {
  if (view.state !== '' && b.state !== view.state) return false;
  if (view.brand !== '' && !b.brandId.toLowerCase().includes(view.brand.toLowerCase())) return false;
  if (view.owner !== '' && !(b.owners || []).some((o) => o.toLowerCase().includes(view.owner.toLowerCase()))) return false;
  if (view.age > 0 && ageOf(b, now) < view.age * 1000) return false;
  return true;
}
function draw() {
  if (last === undefined) return;
  const now = Date.now();
  const brands = last.brands;
  const owners = brands.some((b) => b.owners && b.owners.length > 0);
  $('owner-filter').hidden = !owners;
  if (!owners) view.owner = '';
  const counts = new Map();
  for (const b of brands) counts.set(b.state, (counts.get(b.state) || 0) + 1);
  const list = $('counts');
  list.replaceChildren(...[...counts].sort((a, b) => rank(a[0]) - rank(b[0])).map(([s, n]) => {
    const btn = el('button', { type: 'button' }, el('b', { textContent: String(n) }), ' ' + s);
    btn.style.color = COLOURS[s] || '#1f2328';
    btn.setAttribute('aria-pressed', String(view.state === s));
    btn.dataset.state = s;
    btn.addEventListener('click', () => { view.state = view.state === s ? '' : s; sync(); });
    return el('li', {}, btn);
  }));
  const select = $('state');
  const states = [...new Set([...ORDER.filter((s) => counts.has(s)), ...counts.keys(), ...(view.state ? [view.state] : [])])];
  select.replaceChildren(el('option', { value: '', textContent: 'every state' }), ...states.map((s) => el('option', { value: s, textContent: s + ' (' + (counts.get(s) || 0) + ')' })));
  select.value = view.state;
  const head = el('tr');
  for (const c of COLUMNS) {
    if (c.key === 'owners' && !owners) continue;
    const th = el('th', { scope: 'col' });
    if (SORTABLE.includes(c.key)) {
      const btn = el('button', { type: 'button', textContent: c.title });
      btn.dataset.sort = c.key;
      btn.addEventListener('click', () => { if (view.sort === c.key) view.dir = -view.dir; else { view.sort = c.key; view.dir = 1; } sync(); });
      th.append(btn);
      if (view.sort === c.key) th.setAttribute('aria-sort', view.dir === 1 ? 'ascending' : 'descending');
    } else th.textContent = c.title;
    head.append(th);
  }
  $('brands').tHead.replaceChildren(head);
  const rows = brands.filter((b) => shown(b, now)).sort((a, b) => { const x = keyOf(a, now), y = keyOf(b, now); return (x < y ? -1 : x > y ? 1 : a.brandId < b.brandId ? -1 : a.brandId > b.brandId ? 1 : 0) * (x === y ? 1 : view.dir); });
  $('brands').tBodies[0].replaceChildren(...rows.map((b) => { const tr = el('tr', {}, ...cells(b, now, owners)); tr.dataset.brand = b.brandId; return tr; }));
  $('shown').textContent = rows.length === brands.length ? brands.length + ' brands' : rows.length + ' of ' + brands.length + ' brands shown';
  const svc = last.service;
  const line = $('service');
  line.replaceChildren('Service ', Object.assign(el('b', { textContent: svc.state }), {}), ' since ' + svc.since + (svc.state !== 'ok' && svc.lastError ? ': ' + svc.lastError.message : '') + '.');
  line.firstElementChild.style.color = svc.state === 'ok' ? COLOURS['in-sync'] : COLOURS.failed;
  $('summary').textContent = 'Mode ' + last.mode + (last.shard ? ', shard ' + last.shard : '') + '; ' + (last.ready ? 'ready' : 'not ready') + '; ' + brands.length + ' brand' + (brands.length === 1 ? '' : 's') + '; ' + last.queueDepth + ' waiting; last resync ' + (last.lastResyncAt || '—') + '.';
}
function sync() {
  $('brand').value = view.brand; $('owner').value = view.owner; $('age').value = String(view.age);
  toHash(); draw();
}
async function refresh() {
  try {
    const res = await fetch('status', { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    last = await res.json();
    $('updated').textContent = 'Updated ' + new Date().toLocaleTimeString();
    $('updated').className = '';
    draw();
  } catch (err) {
    $('updated').textContent = 'Could not refresh (' + err.message + '); trying again.';
    $('updated').className = 'stale';
  }
  setTimeout(refresh, document.hidden ? ${REFRESH_MS * 6} : ${REFRESH_MS});
}
fromHash();
for (const id of ['brand', 'owner']) $(id).addEventListener('input', (e) => { view[id] = e.target.value; sync(); });
$('state').addEventListener('change', (e) => { view.state = e.target.value; sync(); });
$('age').addEventListener('change', (e) => { view.age = Number(e.target.value) || 0; sync(); });
window.addEventListener('hashchange', () => { fromHash(); sync(); });
sync();
refresh();
})();`;

/** The page's Content-Security-Policy: its own script and fetches to its own origin, nothing else. */
export const STATUS_PAGE_POLICY = pagePolicy(SCRIPT);

/** "In state for at least" choices, in seconds. */
const AGES: [number, string][] = [
  [0, 'any time'],
  [300, '5 min or more'],
  [3600, '1 h or more'],
  [86_400, '1 day or more'],
  [604_800, '7 days or more'],
];

/** The page, drawn whole from `s` (the script draws it again from /status). */
export function renderStatusPage(s: ControllerStatus, now: number = Date.now()): string {
  const owners = s.brands.some((b) => (b.owners ?? []).length > 0);
  const counts = new Map<string, number>();
  for (const b of s.brands) counts.set(b.state, (counts.get(b.state) ?? 0) + 1);
  const rank = (state: string): number => (STATE_ORDER.includes(state) ? STATE_ORDER.indexOf(state) : STATE_ORDER.length);
  const chips = [...counts]
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([state, n]) => `<li><button type="button" data-state="${esc(state)}" aria-pressed="false" style="color:${STATE_COLOURS[state] ?? '#1f2328'}"><b>${n}</b> ${esc(state)}</button></li>`)
    .join('');
  const brands = [...s.brands].sort((a, b) => rank(a.state) - rank(b.state) || a.brandId.localeCompare(b.brandId));
  const head = COLUMNS.filter((c) => c.key !== 'owners' || owners)
    .map((c) => (SORTABLE.has(c.key) ? `<th scope="col"${c.key === 'state' ? ' aria-sort="ascending"' : ''}><button type="button" data-sort="${c.key}">${c.title}</button></th>` : `<th scope="col">${c.title}</th>`))
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>rcsctl controller</title>
<style>${PAGE_CSS}</style></head>
<body><h1>rcsctl controller</h1>
<p id="summary">Mode <b>${esc(s.mode)}</b>${s.shard !== undefined ? `, shard ${esc(s.shard)}` : ''}; ${s.ready ? 'ready' : 'not ready'}; ${plural(s.brands.length, 'brand')}; ${s.queueDepth} waiting; last resync ${esc(s.lastResyncAt ?? '—')}.</p>
${serviceLine(s)}
<ul class="counts" id="counts" aria-label="Brands per state">${chips}</ul>
<div class="filters" role="search">
<label>State<select id="state"><option value="">every state</option>${[...counts.keys()].sort((a, b) => rank(a) - rank(b)).map((st) => `<option value="${esc(st)}">${esc(st)} (${counts.get(st)})</option>`).join('')}</select></label>
<label>Brand<input id="brand" type="search" placeholder="id contains" autocomplete="off"></label>
<label id="owner-filter"${owners ? '' : ' hidden'}>Owner<input id="owner" type="search" placeholder="owner contains" autocomplete="off"></label>
<label>In state for<select id="age">${AGES.map(([sec, text]) => `<option value="${sec}">${text}</option>`).join('')}</select></label>
<span id="shown" class="muted">${plural(s.brands.length, 'brand')}</span>
</div>
<table id="brands"><thead><tr>${head}</tr></thead>
<tbody>
${brands.map((b) => row(b, owners, now)).join('\n')}
</tbody></table>
<p class="small"><span id="updated">Drawn by the server; refreshes every ${REFRESH_MS / 1000} s.</span> · <a href="status">JSON</a> · <a href="metrics">metrics</a></p>
<script>${SCRIPT}</script>
</body></html>
`;
}

/** One brand's row, as the script draws it too. */
function row(b: BrandStatus, owners: boolean, now: number): string {
  const reasons = b.pendingReasons.length === 0 ? '' : `<ul class="reasons">${b.pendingReasons.slice(0, REASONS_SHOWN).map((r) => `<li>${esc(r)}</li>`).join('')}${b.pendingReasons.length > REASONS_SHOWN ? `<li class="muted">… and ${b.pendingReasons.length - REASONS_SHOWN} more</li>` : ''}</ul>`;
  const pass = b.lastPassAt !== undefined ? `${age(b.lastPassAt, now)} ago${b.lastPassDurationMs !== undefined ? `, took ${b.lastPassDurationMs} ms` : ''}` : '—';
  return (
    `<tr data-brand="${esc(b.brandId)}"><td><a href="brands/${encodeURIComponent(b.brandId)}">${esc(b.brandId)}</a></td>` +
    (owners ? `<td>${esc((b.owners ?? []).join(', '))}</td>` : '') +
    `<td class="state" style="color:${STATE_COLOURS[b.state] ?? '#1f2328'}">${esc(b.state)}</td><td>${b.stateSince !== undefined ? age(b.stateSince, now) : '—'}</td><td>${pass}</td><td>${reasons}</td>` +
    `<td>${esc(b.lastError?.message ?? '')}</td><td>${b.retry !== undefined ? `attempt ${b.retry.attempt}, next at ${esc(b.retry.nextAt)}` : ''}</td></tr>`
  );
}

/** The service's condition: one line, red unless it is ok. */
function serviceLine(s: ControllerStatus): string {
  const svc = s.service;
  const colour = svc.state === 'ok' ? STATE_COLOURS['in-sync'] : STATE_COLOURS.failed;
  const error = svc.lastError !== undefined && svc.state !== 'ok' ? `: ${esc(svc.lastError.message)}` : '';
  return `<p id="service">Service <b style="color:${colour}">${esc(svc.state)}</b> since ${esc(svc.since)}${error}.</p>`;
}
