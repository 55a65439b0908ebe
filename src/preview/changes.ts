// Before and after: each object a plan changes whose kind draws its changes
// (`preview.change`: auto-replies, menus), drawn twice by its kind, live
// against proposed, with the changed parts marked. Built from the plan alone
// (its snapshots hold the normalised live form, each step's `expected` the
// proposed one), so a saved plan file can be previewed as well as a fresh plan.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { formatValue } from '../core/refs.js';
import { esc, type DrawOptions } from '../kinds/handset-draw.js';
import { dataUri, replyTarget, type ImageView, type LinkTarget, type RawReply, type Resolvers } from '../kinds/handset-model.js';
import type { Handset, KindPreview } from '../kinds/handset.js';
import { KINDS, wordsFor } from '../kinds/index.js';
import { previewOf } from '../kinds/resource-kind.js';
import type { BrandPlan, FieldChange, Step } from '../plan/types.js';
import { kindsCss } from './brand.js';
import { page } from './page.js';
import { count, hrefFrom, MESSAGES_PER_PAGE, pagerNav, paginate, type PageFile } from './site.js';
import { optionText, reviewText } from '../core/step.js';

/** An image the page can inline, by its content-addressed upload name. */
export interface PreviewImage {
  uploadName: string;
  bytes: Buffer;
  mimeType: string;
}

/** What the plan alone does not say: images, and the names of things it links to. */
export interface ChangesContext {
  images: ReadonlyMap<string, PreviewImage>;
  /** Names of each kind's objects (by kind name), by key and by live id. */
  names: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The brand's picture on every handset. */
  avatar?: ImageView;
}

/** One changed object, drawn by its kind. */
export interface ChangeView {
  address: string;
  op: Step['op'];
  heading: string;
  gate?: string;
  /** Undefined when the object does not exist on that side (a create, a delete). */
  before?: Handset;
  after?: Handset;
  changes: FieldChange[];
}

/** Anchor of a change on the page. */
export const changeAnchor = (address: string): string => `chg-${address}`;

/** How a handset shows a kind (its drawing); undefined for a kind not drawn, or unknown (a plan file from elsewhere). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function drawingOf(kind: string): KindPreview<any> | undefined {
  const k = KINDS.find((x) => x.name === kind);
  return k === undefined ? undefined : previewOf(k);
}

/** Whether replies open the objects of `kind` (its page's `target`). */
const opened = (kind: string): boolean => drawingOf(kind)?.page?.target !== undefined;

/** What the changes the plan's kinds draw are called: `auto-reply or menu change`, `auto-reply and menu changes`. */
export function changeWords(): { one: string; many: string; none: string } {
  const nouns = KINDS.flatMap((k) => {
    const noun = previewOf(k)?.change?.noun;
    return noun === undefined ? [] : [noun];
  });
  return { one: `${nouns.join(' or ')} change`, many: `${nouns.join(' and ')} changes`, none: `No ${nouns.join(' or ')} changes in this plan.` };
}

/** `3 auto-reply and menu changes`. */
export function countChanges(n: number): string {
  const w = changeWords();
  return count(n, w.one, w.many);
}

/** The name of an object of one of `kinds`, by key or live id. */
function nameIn(ctx: ChangesContext, kinds: readonly string[], id: string): string | undefined {
  for (const kind of kinds) {
    const name = ctx.names.get(kind)?.get(id);
    if (name !== undefined) return name;
  }
  return undefined;
}

/** The key in a step's address (`autoReply.hours` → `hours`). */
const keyOf = (s: Pick<Step, 'kind' | 'address'>): string => s.address.slice(s.kind.length + 1);

/** A placeholder for a message not created yet: `<ref:KIND:key>`. */
const REF = /^<ref:([A-Za-z]+):(.+)>$/;

/** The changes of one brand's plan that their kinds draw. */
export function changesView(plan: BrandPlan, ctx: ChangesContext): ChangeView[] {
  const targets = KINDS.filter((k) => opened(k.name)).map((k) => k.name);
  const addressOfId = new Map<string, string>();
  for (const s of plan.steps) if (opened(s.kind) && s.liveId !== undefined) addressOfId.set(s.liveId, s.address);
  const link = (reply: RawReply): LinkTarget => {
    // A plan's forms name what a reply opens by live id, or by a placeholder for one not created yet.
    const to = replyTarget(reply);
    const id = to !== undefined && 'id' in to ? to.id : '';
    const match = REF.exec(id);
    const ref = match !== null && opened(match[1] as string) ? { kind: match[1] as string, key: match[2] as string } : undefined;
    const address = ref !== undefined ? `${ref.kind}.${ref.key}` : addressOfId.get(id);
    const name = nameIn(ctx, ref === undefined ? targets : [ref.kind], ref?.key ?? id) ?? ref?.key ?? id;
    return address === undefined ? { name } : { key: changeAnchor(address), name };
  };
  const resolvers: Resolvers = {
    image: (value, alt) => {
      const img = typeof value === 'string' ? ctx.images.get(value) : undefined;
      const src = img === undefined ? undefined : dataUri(img);
      return src === undefined ? { name: String(value), alt } : { name: String(value), alt, src };
    },
    link,
  };
  // A link step is the second half of a create (cycles): one view, with the final form.
  const byAddress = new Map<string, Step[]>();
  for (const s of plan.steps) if (drawingOf(s.kind)?.change !== undefined) byAddress.set(s.address, [...(byAddress.get(s.address) ?? []), s]);
  return [...byAddress.entries()].map(([address, steps]) => {
    const main = steps.find((s) => s.op !== 'link') ?? (steps[0] as Step);
    const before = plan.snapshots[address]?.value;
    // The final form: the last step's that states one. A link step states none (its
    // create's expected form already holds the links), and reading it as "nothing"
    // drew a create in a reply cycle as "Will be deleted".
    const after = main.op === 'delete' && main.declared !== true ? undefined : [...steps].reverse().find((s) => s.expected !== undefined)?.expected;
    const change = drawingOf(main.kind)?.change;
    const draw = (value: unknown): Handset | undefined => {
      if (value === undefined || value === null || change === undefined) return undefined;
      return change.handset(value, {
        step: main,
        anchor: changeAnchor(address),
        resolvers,
        nameOf: (kind, id) => ctx.names.get(kind)?.get(id),
        ...(ctx.avatar !== undefined ? { avatar: ctx.avatar } : {}),
      });
    };
    const view: ChangeView = { address, op: main.op, heading: heading(main), changes: steps.flatMap((s) => s.changes) };
    const gate = gateText(main);
    if (gate !== undefined) view.gate = gate;
    // A create has no live form, unless its object lives inside another (a menu created on a live room).
    const b = draw(before);
    const a = draw(after);
    if (b !== undefined) view.before = b;
    if (a !== undefined) view.after = a;
    return view;
  });
}

function heading(step: Step): string {
  const what = wordsFor(step)?.plan ?? (step.op === 'create' ? 'will be created' : step.op === 'delete' ? 'will be deleted' : 'will be updated');
  return `${step.address} “${step.name}” ${what}`;
}

function gateText(step: Step): string | undefined {
  switch (step.gate.type) {
    case 'blocked':
      return `blocked (${step.gate.state}): ${step.gate.reason}; apply will not send this step`;
    case 'review':
      return `needs review: ${reviewText(step.gate)}`;
    case 'destructive':
      return 'deletes a live object';
    case 'option':
      return step.gate.set === true ? optionText(step.gate) : `${optionText(step.gate)}; apply will not send this step`;
    default:
      return undefined;
  }
}

/** Whether a drawn part at `path` is touched by a change on this side. */
export function changedOn(changes: FieldChange[], side: 'before' | 'after'): (path: string) => boolean {
  const paths = changes.filter((c) => c.type === 'change' || (side === 'before' ? c.type === 'remove' : c.type === 'add')).map((c) => c.path);
  return (p) => paths.some((c) => c === p || c.startsWith(`${p}.`) || c.startsWith(`${p}[`));
}

function sideHtml(side: 'before' | 'after', view: Handset | undefined, change: ChangeView, base: Omit<DrawOptions, 'side' | 'changed'>): string {
  const label = side === 'before' ? 'Live' : 'Proposed';
  const o: DrawOptions = { ...base, side, changed: changedOn(change.changes, side) };
  let inner: string;
  if (view === undefined) inner = `<div class="absent">${side === 'before' ? 'Does not exist yet' : 'Will be deleted'}</div>`;
  else inner = view.html(o);
  return `<figure class="side ${side}"><figcaption>${label}</figcaption>${inner}</figure>`;
}

function changeLine(c: FieldChange): string {
  const show = (v: unknown): string => esc(formatValue(v));
  if (c.type === 'add') return `<span class="add">+ ${esc(c.path)}: ${show(c.after)}</span>`;
  if (c.type === 'remove') return `<span class="del">- ${esc(c.path)}: ${show(c.before)}</span>`;
  return `~ ${esc(c.path)}: <span class="del">${show(c.before)}</span> → <span class="add">${show(c.after)}</span>`;
}

/** What a before/after page needs besides the changes: the brand's name (the page's title), the name and picture the handsets show at their top, and rcsctl's version. */
export interface ChangesPageContext {
  avatar?: ImageView;
  /** The brand's name, or its id when none is known. */
  title: string;
  /** The name the handsets show at their top (a room's); the title when none. */
  barName?: string;
  version: string;
}

function changeSection(c: ChangeView, base: Omit<DrawOptions, 'side' | 'changed'>): string {
  const gate = c.gate === undefined ? '' : `<p class="gate">${esc(c.gate)}</p>`;
  const lines = c.changes.length === 0 ? '' : `<details><summary>${count(c.changes.length, 'field change')}</summary><pre class="changes">${c.changes.map(changeLine).join('\n')}</pre></details>`;
  return (
    `<section class="change" id="${esc(changeAnchor(c.address))}" aria-labelledby="${esc(changeAnchor(c.address))}-h"><h2 id="${esc(changeAnchor(c.address))}-h">${esc(c.heading)}</h2>${gate}` +
    `<div class="sides">${sideHtml('before', c.before, c, base)}${sideHtml('after', c.after, c, base)}</div>${lines}</section>`
  );
}

/** A page of `changes`: `href` says where each change is drawn, `where` what the header says about this page (and its pager). */
function changesHtml(brandId: string, changes: readonly ChangeView[], ctx: ChangesPageContext, href: DrawOptions['href'], where: string): string {
  const base = { barName: ctx.barName ?? ctx.title, href, ...(ctx.avatar === undefined ? {} : { avatar: ctx.avatar }) };
  const toc = changes.length === 0 ? '' : `<nav class="toc" aria-label="Changes"><h2>Changes</h2><ul>${changes.map((c) => `<li><a href="${esc(href(changeAnchor(c.address)) ?? '')}">${esc(c.address)}</a></li>`).join('')}</ul></nav>`;
  const empty = changes.length === 0 ? `<p>${esc(changeWords().none)}</p>` : '';
  const body = `<a class="skip" href="#main">Skip to the changes</a>
<header class="top"><h1>${esc(ctx.title)}: proposed changes</h1>${where}</header>
<div class="layout changes-layout">
${toc}
<main id="main">${empty}${changes.map((c) => changeSection(c, base)).join('\n')}</main>
</div>
<footer>Made by rcsctl ${esc(ctx.version)} from a plan. Nothing on this page loads from the network.</footer>`;
  return page(`${titled(ctx.title, brandId)}: proposed changes`, body, kindsCss());
}

const LIVE_LEFT = 'live on the left, proposed on the right, changed parts outlined';

/** The before/after page of one brand, every change on it. */
export function changesPage(brandId: string, changes: ChangeView[], ctx: ChangesPageContext): string {
  const onPage = new Set(changes.map((c) => changeAnchor(c.address)));
  const href = (key: string): string | undefined => (onPage.has(key) ? `#${key}` : undefined);
  return changesHtml(brandId, changes, ctx, href, `<p>Brand ${esc(brandId)} · ${esc(countChanges(changes.length))} · ${LIVE_LEFT}</p>`);
}

/**
 * The files of one brand's before/after preview: `index.html` alone when the
 * changes fit on one page, else an index listing the pages and `page-001.html`, …
 * of `perPage` changes each, made one at a time; a reply that opens a changed
 * auto-reply links to it on its page.
 */
export function* changesPages(brandId: string, changes: ChangeView[], ctx: ChangesPageContext, perPage = MESSAGES_PER_PAGE): Generator<PageFile> {
  if (changes.length <= perPage) {
    yield { file: 'index.html', html: changesPage(brandId, changes, ctx) };
    return;
  }
  const paged = paginate(changes, (c) => changeAnchor(c.address), perPage);
  const { chunks, files, fileOf, range } = paged;
  const list = chunks.map((chunk, i) => `<li><a href="${files[i]}">Changes ${range(i)}</a>: <code>${esc(chunk[0]?.address ?? '')}</code> to <code>${esc(chunk[chunk.length - 1]?.address ?? '')}</code></li>`).join('');
  const total = esc(countChanges(changes.length));
  const indexBody = `<a class="skip" href="#main">Skip to the pages</a>
<header class="top"><h1>${esc(ctx.title)}: proposed changes</h1><p>Brand ${esc(brandId)} · ${total} on ${count(chunks.length, 'page')} · ${LIVE_LEFT}</p></header>
<main id="main" style="padding:1.5rem"><h2>Changes, ${perPage} a page</h2><ol class="pages">${list}</ol></main>
<footer>Made by rcsctl ${esc(ctx.version)} from a plan. Nothing on this page loads from the network.</footer>`;
  yield { file: 'index.html', html: page(`${titled(ctx.title, brandId)}: proposed changes`, indexBody, kindsCss()) };
  for (let i = 0; i < chunks.length; i++) {
    const here = files[i] as string;
    const where = `<p>Brand ${esc(brandId)} · changes ${range(i)} of ${changes.length} · page ${i + 1} of ${chunks.length} · ${LIVE_LEFT}</p>${pagerNav(paged, i, 'Every page')}`;
    yield { file: here, html: changesHtml(brandId, chunks[i] as ChangeView[], ctx, hrefFrom(fileOf, here), where) };
  }
}

/** The images a saved plan's upload steps name, read again and checked against their hash; missing or changed files are left out. */
export function imagesFromPlan(plan: BrandPlan): Map<string, PreviewImage> {
  const images = new Map<string, PreviewImage>();
  for (const s of plan.steps) {
    if (s.op !== 'upload') continue;
    try {
      const bytes = readFileSync(s.file.path);
      if (createHash('sha256').update(bytes).digest('hex') === s.file.sha256) images.set(s.file.fileName, { uploadName: s.file.fileName, bytes, mimeType: s.file.contentType });
    } catch {
      // The file moved since the plan was made: the page shows a named placeholder.
    }
  }
  return images;
}

/** What a plan says about names and images by itself: enough for a saved plan file. */
export function contextFromPlan(plan: BrandPlan): ChangesContext {
  const names = new Map<string, Map<string, string>>();
  for (const s of plan.steps) {
    if (drawingOf(s.kind) === undefined) continue;
    let own = names.get(s.kind);
    if (own === undefined) names.set(s.kind, (own = new Map()));
    own.set(keyOf(s), s.name);
    if (s.liveId !== undefined) own.set(s.liveId, s.name);
  }
  return { images: imagesFromPlan(plan), names };
}

/** A page's title: the brand's name and id, or the id alone when the name is not known. */
function titled(title: string, brandId: string): string {
  return title === brandId ? brandId : `${title} (${brandId})`;
}
