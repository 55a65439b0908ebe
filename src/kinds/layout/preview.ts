// How a handset shows a layout: the card its components make, header, body and
// footer in order, each drawn by what it is (a title, a text, an image, a
// table of so many rows, a list, a button in its colour), with placeholders
// where a message fills in its values; in a section of the brand page of its
// own, and before and after on `plan --preview`. The preview reads no service,
// so a component is known by its options (a table's, a list's row count, a
// button's colour) and its id's words (TITLE, IMAGE, VIDEO); any other is a
// text block, named by its id. A button is drawn in the colour the service
// keeps: the brand's templateColor when the manifests declare it (colour.ts).

import type { DesiredBrand } from '../../manifest/types.js';
import { esc, phone, type DrawOptions } from '../handset-draw.js';
import type { Handset, KindPreview } from '../handset.js';
import { declaredTemplateColor, withKeptColour } from './colour.js';
import { LAYOUT_AREAS, type DesiredLayout, type DesiredLayoutComponent, type LayoutArea } from './types.js';

/** One component as the card draws it. */
export interface ComponentView {
  /** Its plan path (`bodyComposition[1]`), which a change marks. */
  path: string;
  componentId: string;
  /** What the handset draws it as. */
  shape: 'title' | 'text' | 'media' | 'table' | 'list' | 'button';
  options: Readonly<Record<string, unknown>>;
}

/** A layout as a handset shows it. */
export interface LayoutView {
  key: string;
  address: string;
  name: string;
  productCode: string;
  components: ComponentView[];
  source?: string;
}

/** What a layout's drawing reads: the desired object, or the normalised form a plan carries. */
type Drawable = Pick<DesiredLayout, 'layoutName' | 'productCode' | LayoutArea>;

function shapeOf(c: DesiredLayoutComponent): ComponentView['shape'] {
  const o = c.options ?? {};
  if ('color' in o) return 'button';
  if ('leftAlign' in o || 'rightAlign' in o || 'leftTextStyle' in o || 'rightTextStyle' in o) return 'table';
  if ('maxCount' in o) return 'list';
  const id = c.componentId.toUpperCase();
  if (id.includes('TITLE')) return 'title';
  if (id.includes('IMAGE') || id.includes('VIDEO') || id.includes('MEDIA')) return 'media';
  return 'text';
}

/** The view of a layout (desired, or a plan's normalised form). */
export function layoutView(d: Drawable, at: { key: string; address: string; source?: string }): LayoutView {
  const components = LAYOUT_AREAS.flatMap((area) => ((d[area] ?? []) as DesiredLayoutComponent[]).map((c, i) => ({ path: `${area}[${i}]`, componentId: c.componentId, shape: shapeOf(c), options: c.options ?? {} })));
  return { key: at.key, address: at.address, name: d.layoutName, productCode: d.productCode, components, ...(at.source !== undefined ? { source: at.source } : {}) };
}

/** A declared layout with each button in the colour the service will give it. */
function asKept(d: DesiredLayout, brand: DesiredBrand): Drawable {
  const template = declaredTemplateColor(brand)?.colour;
  const area = (items: DesiredLayoutComponent[]) => items.map((c) => (c.options === undefined ? c : { ...c, options: withKeptColour(c.options, template) }));
  return { layoutName: d.layoutName, productCode: d.productCode, headerComposition: area(d.headerComposition), bodyComposition: area(d.bodyComposition), footerComposition: area(d.footerComposition) };
}

/** Rows a table or list draws: its row count (5 or 10; the service lists some as a string), at most 10. */
function rows(o: Readonly<Record<string, unknown>>): number {
  const n = Number(o.maxCount ?? 5);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 10) : 5;
}

/** A colour the handset may paint with: `#RRGGBB` only (anything else is the default colour). */
function colour(o: Readonly<Record<string, unknown>>): string | undefined {
  return typeof o.color === 'string' && /^#[0-9A-Fa-f]{6}$/.test(o.color) ? o.color : undefined;
}

/** A column's alignment; unset, the document's default for a table (the left column left, the right one right). */
function align(v: unknown, side: 'left' | 'right'): string {
  return v === 'left' || v === 'right' || v === 'center' ? v : side;
}

function componentHtml(c: ComponentView, o: DrawOptions): string {
  const changed = o.changed?.(c.path) === true;
  const attrs = ` data-path="${esc(c.path)}" data-component="${esc(c.componentId)}"${changed ? ' data-changed="true"' : ''}`;
  const mark = changed ? '<span class="chg-mark"> (changed)</span>' : '';
  const tag = `<small class="lo-id">${esc(c.componentId)}</small>`;
  let inner: string;
  switch (c.shape) {
    case 'title':
      inner = `<p class="lo-title">Title</p>`;
      break;
    case 'media':
      inner = `<div class="media missing lo-media" role="img" aria-label="${esc(c.componentId)}"><span>Image</span><small>filled in by each message</small></div>`;
      break;
    case 'table': {
      const cell = (side: 'left' | 'right', text: string) =>
        `<td style="text-align:${align(c.options[`${side}Align`], side)}"${c.options[`${side}TextStyle`] === 'bold' ? ' class="lo-bold"' : ''}>${text}</td>`;
      inner = `<table class="lo-table">${Array.from({ length: rows(c.options) }, (_, i) => `<tr>${cell('left', `Item ${i + 1}`)}${cell('right', 'Value')}</tr>`).join('')}</table>`;
      break;
    }
    case 'list':
      inner = `<ul class="lo-list">${Array.from({ length: rows(c.options) }, (_, i) => `<li>Line ${i + 1}</li>`).join('')}</ul>`;
      break;
    case 'button': {
      const paint = colour(c.options);
      inner = `<span class="sg btn lo-btn"${paint === undefined ? '' : ` style="border-color:${paint};color:${paint}"`}><span class="label">Button</span></span>`;
      break;
    }
    default:
      inner = `<p class="lo-text">Text</p>`;
  }
  return `<div class="lo-part lo-${c.shape}-part"${attrs}>${inner}${tag}${mark}</div>`;
}

/** A layout in its handset: the card, with its caption (name, address, product, where it is declared). */
export function layoutHandset(v: LayoutView, o: DrawOptions, extra = ''): string {
  const id = o.side === undefined ? ` id="${esc(v.key)}"` : '';
  const headId = `${o.side === undefined ? '' : `${o.side}-`}${v.key}-name`;
  const meta = [v.address, v.productCode.toUpperCase(), v.source].filter((x): x is string => x !== undefined).map(esc).join(' · ');
  const card = `<div class="msg"><div class="card lo-card">${v.components.map((c) => componentHtml(c, o)).join('')}</div></div>`;
  return `<article class="handset lo-handset"${id} data-address="${esc(v.address)}" aria-labelledby="${esc(headId)}"><h3 class="caption" id="${esc(headId)}">${esc(v.name)}</h3><p class="meta">${meta}</p>${phone(o.barName, o.avatar, card)}${extra}</article>`;
}

function handsetOf(v: LayoutView): Handset<LayoutView> {
  return { key: v.key, address: v.address, name: v.name, links: [], view: v, html: (o, extra) => layoutHandset(v, o, extra) };
}

/** The layout kind's drawing. */
export const layoutPreview: KindPreview<DesiredLayout> = {
  page: {
    id: 'layouts',
    heading: 'Layouts',
    toc: 'Layouts',
    order: 40,
    anchor: 'layout',
    counted: true,
    name: (d) => d.layoutName,
    handset: (d, ctx) => handsetOf(layoutView(asKept(d, ctx.brand), { key: ctx.anchor, address: ctx.address, source: ctx.where(d.source) })),
  },
  change: {
    noun: 'layout',
    handset: (value, ctx) => handsetOf(layoutView(value as Drawable, { key: ctx.anchor, address: ctx.step.address })),
  },
  css:
    '.lo-card{padding:.5rem}.lo-part{position:relative;padding:.3rem .2rem;border-bottom:1px dashed #d0d7de}.lo-part:last-child{border-bottom:0}' +
    '.lo-id{display:block;font-size:.65rem;color:#6e7781}.lo-title{font-weight:700;margin:0}.lo-text{margin:0;color:#57606a}' +
    '.lo-table{width:100%;border-collapse:collapse;font-size:.8rem}.lo-table td{padding:.1rem .3rem;border-top:1px solid #eaeef2}.lo-bold{font-weight:700}' +
    '.lo-list{margin:0;padding-left:1.1rem;font-size:.8rem}.lo-btn{display:block;text-align:center}',
};
