// Brand layouts, the product rules and the sample layouts, as the public
// OpenAPI document describes them (docs/decisions.md, "Layouts"): a layout is
// built from the service's layout components, checked against its product's
// rule, registered at once (no operator review), and announced to the brand's
// agencies as `formatbr`. Every route is for the agency account role. The
// layouts live in the brand's `layouts` slot (src/emulator/module.ts).

import type { LayoutComponent, LayoutComposition, LayoutRule, SampleLayoutDetail } from '../../contract/wire.js';
import { formatServiceTime } from '../../util/time.js';
import { authorizeBrand, requireAgency } from '../auth.js';
import { ok, paged, type RequestContext, type Reply } from '../http-types.js';
import { announce, notice, type NotiMethod } from '../messaging/notifications.js';
import type { EmulatorModule } from '../module.js';
import type { Route } from '../router.js';
import { fail } from '../service-error.js';
import type { EmulatorStore, StoredBrand } from '../store.js';
import { asObject, optionalString, requiredString, sameJson } from '../validate.js';

const BRAND_LAYOUT = '/api/1.1/brand/:brandId/layout';
const BASE = '/api/1.1/baselayout';

/** The document's layout states: registered with the carriers, saved in the console only, or stuck part-way (no change, no delete). */
export const LAYOUT_STATES = ['등록완료', '저장', '처리중'] as const;
/** The message products a layout is for. */
const PRODUCTS = ['sms', 'lms', 'mms'];
/** Component statuses a layout may use: public, and layout, which observed data shows (*chosen*: a layout-only component). */
const USABLE = ['public', 'layout'];
/** The longest layout name (RegBrandLayout.layoutName). */
const NAME_MAX = 40;
const AREAS = ['headerComposition', 'bodyComposition', 'footerComposition'] as const;
type Area = (typeof AREAS)[number];
const AREA_FLAG: Record<Area, 'headerYn' | 'bodyYn' | 'footerYn'> = { headerComposition: 'headerYn', bodyComposition: 'bodyYn', footerComposition: 'footerYn' };
const TABLE_CHOICES: Record<string, readonly unknown[]> = {
  leftAlign: ['left', 'right', 'center'],
  rightAlign: ['left', 'right', 'center'],
  leftTextStyle: ['normal', 'bold'],
  rightTextStyle: ['normal', 'bold'],
  maxCount: [5, 10, '5', '10'],
};

/**
 * The product rules (*chosen*: the document gives the shape and LMS's figures;
 * SMS and LMS take no image, MMS one), keyed on the default components' group.
 */
export const LAYOUT_RULES: readonly LayoutRule[] = [
  { productCode: 'sms', componentCount: 2, componentMinCount: 1, buttonCount: 1, componentLimit: { GRP_MEDIA: 0 } },
  { productCode: 'lms', componentCount: 6, componentMinCount: 1, buttonCount: 3, componentLimit: { GRP_MEDIA: 0 } },
  { productCode: 'mms', componentCount: 6, componentMinCount: 1, buttonCount: 3, componentLimit: { GRP_MEDIA: 1 } },
];

/** A layout as the emulator keeps it: its areas with every option the service fills in. */
export interface StoredLayout {
  layoutId: string;
  layoutName: string;
  productCode: string;
  sampleLayoutId: string | null;
  status: 'ready' | 'pause';
  approvalResult: string;
  approvalReason?: string | null;
  registerId: string | null;
  registerDate: string;
  updateDate: string;
  headerComposition: LayoutComposition[];
  bodyComposition: LayoutComposition[];
  footerComposition: LayoutComposition[];
}

const SLOT = 'layouts';

/** A brand's layouts. */
export function layoutsOf(brand: StoredBrand): Map<string, StoredLayout> {
  return brand.slots.get(SLOT) as Map<string, StoredLayout>;
}

/** The sample layouts (*chosen*: two, built from the default components). */
function samples(): SampleLayoutDetail[] {
  const at = '2026-01-05T09:00:00.000+09';
  const head = { status: 'ready', registerId: 'rbc', registerDate: at, updateDate: at, approvalResult: '등록완료', spec: 'openrichcard', cardType: 'format', buttonColor: '' };
  const c = (componentId: string, index: number, options?: Record<string, unknown>): LayoutComposition => ({ index, componentId, ...(options !== undefined ? { options } : {}) });
  return [
    {
      ...head,
      sampleLayoutId: 'SL_RECEIPT_01',
      sampleLayoutName: 'Receipt',
      productCode: 'lms',
      headerComposition: [c('CP_TITLE_01', 1)],
      bodyComposition: [c('CP_TEXT_01', 2), c('CP_TABLE_01', 3, { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'bold', maxCount: 5 })],
      footerComposition: [c('CP_BUTTON_01', 4, { color: '' })],
    },
    { ...head, sampleLayoutId: 'SL_NOTICE_01', sampleLayoutName: 'Notice with image', productCode: 'mms', headerComposition: [c('CP_IMAGE_01', 1)], bodyComposition: [c('CP_TEXT_01', 2)], footerComposition: [] },
  ];
}

/** The layout routes. */
export function layoutRoutes(): Route[] {
  return [
    { method: 'GET', pattern: `${BASE}/product/rule`, handler: rules },
    { method: 'GET', pattern: `${BASE}/sample`, handler: sampleList },
    { method: 'GET', pattern: `${BASE}/sample/:sampleLayoutId`, handler: sampleDetail },
    { method: 'GET', pattern: BRAND_LAYOUT, handler: list },
    { method: 'POST', pattern: BRAND_LAYOUT, handler: register },
    { method: 'GET', pattern: `${BRAND_LAYOUT}/:layoutId`, handler: detail },
    { method: 'PUT', pattern: `${BRAND_LAYOUT}/:layoutId`, handler: modify },
    { method: 'DELETE', pattern: `${BRAND_LAYOUT}/:layoutId`, handler: remove },
  ];
}

/** A seeded layout (docs/emulator.md, "Seed format"): what the console may have made, in any state, unchecked. */
interface SeedLayout {
  layoutId?: string;
  layoutName: string;
  productCode: string;
  status?: 'ready' | 'pause';
  approvalResult?: string;
  headerComposition?: LayoutComposition[];
  bodyComposition?: LayoutComposition[];
  footerComposition?: LayoutComposition[];
}

/** The layout family: its routes, each brand's layouts, the seed's `layouts:` and the `layout` admin kind (states only: a layout is never reviewed). */
export const layoutModule: EmulatorModule = {
  routes: layoutRoutes,
  state: {
    slot: SLOT,
    create: () => new Map<string, StoredLayout>(),
    dump: (state) => [...(state as Map<string, StoredLayout>).values()],
  },
  seed: {
    key: 'layouts',
    check(c, value, q) {
      for (const [i, raw] of c.array(value, q).entries()) {
        const at = `${q}[${i}]`;
        const l = c.object(raw, at);
        c.required(l, 'layoutName', 'string', at);
        c.required(l, 'productCode', 'string', at);
        c.optional(l, 'layoutId', 'string', at);
        if (l.approvalResult !== undefined) c.enumOf(l.approvalResult, LAYOUT_STATES, `${at}.approvalResult`);
        if (l.status !== undefined) c.enumOf(l.status, ['ready', 'pause'], `${at}.status`);
        for (const area of AREAS) if (l[area] !== undefined) for (const [j, item] of c.array(l[area], `${at}.${area}`).entries()) c.required(c.object(item, `${at}.${area}[${j}]`), 'componentId', 'string', `${at}.${area}[${j}]`);
      }
    },
    apply(store, brand, value, now) {
      for (const s of value as SeedLayout[]) {
        const layoutId = s.layoutId ?? newLayoutId(store, brand.brandId);
        const area = (items: LayoutComposition[] | undefined) => (items ?? []).map((x) => ({ componentId: x.componentId, ...(x.options !== undefined && x.options !== null ? { options: x.options } : {}) }));
        layoutsOf(brand).set(layoutId, {
          layoutId,
          layoutName: s.layoutName,
          productCode: s.productCode,
          sampleLayoutId: null,
          status: s.status ?? 'ready',
          approvalResult: s.approvalResult ?? '등록완료',
          registerId: 'console',
          registerDate: now,
          updateDate: now,
          headerComposition: area(s.headerComposition),
          bodyComposition: area(s.bodyComposition),
          footerComposition: area(s.footerComposition),
        });
      }
    },
  },
  review: {
    layout: {
      states: LAYOUT_STATES,
      find: (brand, id) => layoutsOf(brand).get(id),
      // Layouts are registered without review: there is no move, only a forced state.
      transition: () => undefined,
      notice: () => undefined,
    },
  },
};

// ------------------------------------------------------------ service-wide

function rules(ctx: RequestContext): Reply {
  requireAgency(ctx);
  return ok(LAYOUT_RULES.map((r) => ({ ...r, componentLimit: { ...r.componentLimit } })));
}

function sampleList(ctx: RequestContext): Reply {
  requireAgency(ctx);
  return paged(ctx, samples(), ({ sampleLayoutId, sampleLayoutName, productCode, status, registerId, registerDate, updateDate, approvalResult }) => ({ sampleLayoutId, sampleLayoutName, productCode, status, registerId, registerDate, updateDate, approvalResult }));
}

function sampleDetail(ctx: RequestContext): Reply {
  requireAgency(ctx);
  const s = samples().find((x) => x.sampleLayoutId === ctx.params.sampleLayoutId);
  if (s === undefined) fail('invalidSampleLayoutId');
  return ok([{ ...s, formattedString: formattedString(s) }]);
}

// ------------------------------------------------------------ brand layouts

/** The brand of a layout call: the agency account role, and a role on the brand. */
function layoutBrand(ctx: RequestContext): { userId: string; brand: StoredBrand } {
  requireAgency(ctx);
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return { userId: account.userId, brand };
}

function list(ctx: RequestContext): Reply {
  const { brand } = layoutBrand(ctx);
  return paged(ctx, [...layoutsOf(brand).values()], listView);
}

function detail(ctx: RequestContext): Reply {
  const { brand } = layoutBrand(ctx);
  const l = find(brand, ctx.params.layoutId as string);
  return ok([detailView(l)]);
}

async function register(ctx: RequestContext): Promise<Reply> {
  const { userId, brand } = layoutBrand(ctx);
  const content = checkLayout(ctx.store, brand, await ctx.json());
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const layoutId = newLayoutId(ctx.store, brand.brandId);
  layoutsOf(brand).set(layoutId, { layoutId, ...content, status: 'ready', approvalResult: '등록완료', registerId: userId, registerDate: now, updateDate: now });
  announced(ctx, brand, layoutId, 'created');
  return ok([{ layoutId }]);
}

async function modify(ctx: RequestContext): Promise<Reply> {
  const { brand } = layoutBrand(ctx);
  const l = find(brand, ctx.params.layoutId as string);
  if (l.approvalResult === '처리중') fail('notAllowedModification');
  const content = checkLayout(ctx.store, brand, await ctx.json());
  const same = (k: keyof typeof content) => sameJson(content[k], l[k]);
  if (same('layoutName') && same('productCode') && AREAS.every(same) && l.approvalResult === '등록완료') fail('noChanges');
  // A layout saved in the console is registered by its modification.
  Object.assign(l, content, { approvalResult: '등록완료', updateDate: formatServiceTime(new Date(ctx.store.stamp())) });
  announced(ctx, brand, l.layoutId, 'modified');
  return ok([{ layoutId: l.layoutId, body: sendBody(l) }]);
}

function remove(ctx: RequestContext): Reply {
  const { brand } = layoutBrand(ctx);
  const l = find(brand, ctx.params.layoutId as string);
  if (l.approvalResult === '처리중') fail('notAllowedDelete');
  layoutsOf(brand).delete(l.layoutId);
  announced(ctx, brand, l.layoutId, 'deleted');
  return ok([{ layoutId: l.layoutId }]);
}

/** NotiFormatBr: a layout's registration, modification or deletion, under its messagebaseId (a layout's id is one). */
function announced(ctx: RequestContext, brand: StoredBrand, layoutId: string, method: NotiMethod): void {
  announce(ctx, notice('formatbr', brand.brandId, { messagebaseId: layoutId }, method));
}

function find(brand: StoredBrand, id: string): StoredLayout {
  const l = layoutsOf(brand).get(id);
  if (l === undefined) fail('invalidLayoutId');
  return l;
}

/** A layout id like the document's `CLLBR.7PmB4yrmf1-W3c87N1a…`: CLL, the brand id, a counter. */
function newLayoutId(store: EmulatorStore, brandId: string): string {
  return `CLL${brandId}-${String(store.next('CLL')).padStart(8, '0')}`;
}

type LayoutContent = Pick<StoredLayout, 'layoutName' | 'productCode' | 'sampleLayoutId' | Area>;

/**
 * A registration or modification checked as the document lists its errors:
 * the fields (64336, 64304, 64303), the product (64546), the sample (64603),
 * each area's count (64549, 64550, 64601), each component (64600) and its
 * area (64552), a body's component groups (64604), and the product's rule
 * (64304 naming the count: *chosen*, the document lists no code for it).
 */
function checkLayout(store: EmulatorStore, brand: StoredBrand, body: unknown): LayoutContent {
  const o = asObject(body, 'body');
  const layoutName = requiredString(o, 'layoutName', NAME_MAX);
  const productCode = requiredString(o, 'productCode', 20);
  const rule = LAYOUT_RULES.find((r) => r.productCode === productCode);
  if (!PRODUCTS.includes(productCode) || rule === undefined) fail('invalidProductCode');
  const sampleLayoutId = optionalString(o, 'sampleLayoutId', 40) ?? null;
  if (sampleLayoutId !== null && !samples().some((s) => s.sampleLayoutId === sampleLayoutId)) fail('invalidSampleLayoutId');
  const areas = {} as Record<Area, LayoutComposition[]>;
  for (const area of AREAS) {
    const v = o[area];
    if (v === undefined || v === null) fail('requiredValue', area);
    if (!Array.isArray(v)) fail('invalidType', area);
    areas[area] = v.map((item, i) => component(store, brand, area, i, item));
  }
  if (areas.bodyComposition.length === 0) fail('layoutBodyRequired');
  if (areas.headerComposition.length > 1) fail('layoutOneHeader');
  if (areas.footerComposition.length > 1) fail('layoutOneFooter');
  const catalogue = new Map(store.layoutComponents.map((c) => [c.componentId, c]));
  const groupOf = (c: LayoutComposition) => catalogue.get(c.componentId)?.groupComponentId ?? null;
  const bodyGroups = new Map<string, string>();
  for (const c of areas.bodyComposition) {
    const g = groupOf(c);
    if (g === null) continue;
    const other = bodyGroups.get(g);
    if (other !== undefined && other !== c.componentId) fail('componentGroupClash');
    bodyGroups.set(g, c.componentId);
  }
  const all = AREAS.flatMap((a) => areas[a]);
  const buttons = all.filter((c) => isButton(catalogue.get(c.componentId)));
  const others = all.length - buttons.length;
  if (others > rule.componentCount || others < rule.componentMinCount) fail('overSize', 'componentCount');
  if (buttons.length > rule.buttonCount) fail('overSize', 'buttonCount');
  for (const [g, limit] of Object.entries(rule.componentLimit)) if (all.filter((c) => groupOf(c) === g).length > limit) fail('overSize', `componentLimit.${g}`);
  return { layoutName, productCode, sampleLayoutId, ...areas };
}

/** A button component: one whose options are a ButtonOption (a colour). */
function isButton(c: LayoutComponent | undefined): boolean {
  return c?.options !== null && c?.options !== undefined && 'color' in c.options;
}

/** One component of an area, with its options as the service keeps them: the component's own, overlaid with those given. */
function component(store: EmulatorStore, brand: StoredBrand, area: Area, i: number, raw: unknown): LayoutComposition {
  const at = `${area}[${i}]`;
  const o = asObject(raw, at);
  const componentId = requiredString(o, 'componentId', 40);
  const known = store.layoutComponents.find((c) => c.componentId === componentId);
  if (known === undefined || !USABLE.includes(known.status)) fail('invalidComponentId');
  if (known[AREA_FLAG[area]] !== 'Y') fail('componentNotForArea', `${componentId} component is not available for ${area}`);
  if (known.options === null) {
    if (o.options !== undefined && o.options !== null) fail('invalidType', `${at}.options`);
    return { componentId };
  }
  const given = o.options === undefined || o.options === null ? {} : asObject(o.options, `${at}.options`);
  for (const [k, v] of Object.entries(given)) {
    if (!(k in known.options)) fail('invalidType', `${at}.options.${k}`);
    const choices = TABLE_CHOICES[k];
    if (choices !== undefined && !choices.includes(v)) fail('invalidType', `${at}.options.${k}`);
    if (k === 'color' && (typeof v !== 'string' || !/^(#[0-9A-Fa-f]{6})?$/.test(v))) fail('invalidType', `${at}.options.${k}`);
  }
  const options = { ...known.options, ...given };
  // A colour other than the brand's templateColor is set to it (ButtonOption); an empty one is the default colour.
  if (typeof options.color === 'string' && options.color !== '' && options.color.toUpperCase() !== brand.templateColor.toUpperCase()) options.color = brand.templateColor;
  return { componentId, options };
}

function listView(l: StoredLayout) {
  // BrandLayout names the layout's own id and name sampleLayoutId and sampleLayoutName (docs/decisions.md, "Layouts").
  return { sampleLayoutId: l.layoutId, sampleLayoutName: l.layoutName, productCode: l.productCode, status: l.status, registerId: l.registerId, registerDate: l.registerDate, updateDate: l.updateDate, approvalResult: l.approvalResult };
}

function detailView(l: StoredLayout) {
  const numbered = AREAS.map((a) => l[a]).flat();
  const index = (c: LayoutComposition) => numbered.indexOf(c) + 1;
  const area = (items: LayoutComposition[]) => items.map((c) => ({ index: index(c), componentId: c.componentId, ...(c.options !== undefined ? { options: c.options } : {}) }));
  const colour = l.footerComposition.concat(l.bodyComposition).find((c) => typeof c.options?.color === 'string')?.options?.color;
  return {
    ...listView(l),
    spec: 'openrichcard',
    cardType: 'formatBr',
    buttonColor: typeof colour === 'string' ? colour : '',
    headerComposition: area(l.headerComposition),
    bodyComposition: area(l.bodyComposition),
    footerComposition: area(l.footerComposition),
    formattedString: formattedString(l),
  };
}

/** The openrichcard message a layout's components make (reference data: one row per component, in order). */
function formattedString(l: Pick<StoredLayout, Area>): Record<string, unknown> {
  const rows = AREAS.flatMap((a) => l[a]).map((c) => ({ widget: 'LinearLayout', id: c.componentId, width: 'match', height: 'content' }));
  return { RCSMessage: { openrichcardMessage: { layout: { widget: 'LinearLayout', orientation: 'vertical', width: 'match', height: 'content', children: rows } } } };
}

/** The send body's fields a layout takes (*chosen* names, after the document's example: mTitle, description, mediaUrl1, …). */
function sendBody(l: Pick<StoredLayout, Area>): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const c of AREAS.flatMap((a) => l[a])) {
    n++;
    const id = c.componentId.toUpperCase();
    const name = id.includes('TITLE') ? 'mTitle' : id.includes('IMAGE') ? `mediaUrl${n}` : id.includes('BUTTON') ? `button${n}` : `description${n}`;
    out[name] = '';
  }
  return out;
}

