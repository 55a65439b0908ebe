// Brand layouts, the pure part: identity by pinned layoutId or by name; both
// sides compared as the service keeps a layout (each component's options over
// its own, the row count a number); no operator review (the service registers
// a layout at once), and no change or delete while its registration is stuck
// part-way (처리중).

import type { Layout } from '../../api/layouts.js';
import type { LayoutComponent, LayoutComposition, LayoutRequest } from '../../contract/wire.js';
import type { Gate } from '../../core/step.js';
import { matchByIdThenName, notRead, unmatched, wasNotRead } from '../match.js';
import type { Drawn, KindPlanning, Previewable, Prunable, ReportsUnmanaged } from '../resource-kind.js';
import { PROFILE_KEY } from '../brand-profile/types.js';
import { declaredTemplateColor, withKeptColour } from './colour.js';
import { layoutPreview } from './preview.js';
import { LAYOUT_AREAS, type DesiredLayout, type DesiredLayoutComponent } from './types.js';

/** The state in which the service neither changes nor deletes a layout (the public document's 처리중). */
export const LAYOUT_STUCK = '처리중';

/** The layout kind's pure part. */
export const layoutPlanning: KindPlanning<DesiredLayout, Layout, 'layout'> & Previewable<DesiredLayout> & Drawn<DesiredLayout> & Prunable & ReportsUnmanaged = {
  name: 'layout',
  label: 'layout',
  preview: layoutPreview,
  drawing: {
    colour: ['#e0f2f1', '#00695c'],
    details: (d) => [`${d.productCode.toUpperCase()}: ${LAYOUT_AREAS.flatMap((a) => d[a].map((c) => c.componentId)).join(', ')}`],
    // A button with a colour takes the brand's templateColor (colour.ts): the brand's page decides it.
    links: (d) => (LAYOUT_AREAS.some((a) => d[a].some((c) => typeof c.options?.color === 'string' && c.options.color !== '')) ? [{ to: `brandProfile.${PROFILE_KEY}`, label: 'button colour' }] : []),
  },
  prune: 'layouts',
  reportsUnmanaged: true,

  desired: (brand) => [...(brand.layouts?.values() ?? [])],
  live: (live) => (live.layouts?.unread !== undefined ? notRead() : (live.layouts?.items ?? [])),
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.layoutName,
    liveId: (l) => l.layoutId,
    liveName: (l) => l.layoutName,
    liveState: (l) => l.approvalResult,
  },

  diff: {
    match(desired, live) {
      // A list the service refused to read is no layout missing (layoutsProblems says why): nothing to create, update or report.
      if (wasNotRead(live)) return unmatched();
      return matchByIdThenName(desired, live, {
        label: 'layout',
        labelPlural: 'layouts',
        address: (d) => `layout.${d.handle}`,
        pinned: (d) => d.layoutId,
        name: (d) => d.layoutName,
        liveId: (l) => l.layoutId,
        liveName: (l) => l.layoutName,
        pinKey: 'layoutId',
        source: (d) => d.source,
      });
    },
    normaliseLive: (l) => comparable(l, (c) => c.options ?? undefined),
    normaliseDesired(d, ctx) {
      const catalogue = new Map((ctx.live.layouts?.components ?? []).map((c) => [c.componentId, c]));
      // A button's colour as the service will keep it: the brand's templateColor when the manifests declare it (colour.ts).
      const template = declaredTemplateColor(ctx.brand)?.colour;
      return comparable(d, (c) => {
        const own = withOwnOptions(c, catalogue.get(c.componentId));
        return own === undefined ? undefined : withKeptColour(own, template);
      });
    },
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'create', request: layoutRequest(d) }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l.layoutId, request: layoutRequest(d) }),
  },

  gates: {
    create: () => ({ type: 'none' }),
    update(l): Gate {
      if (l.approvalResult === LAYOUT_STUCK) return { type: 'blocked', state: l.approvalResult, reason: stuckReason('changes') };
      return { type: 'none' };
    },
    delete(l): Gate {
      if (l.approvalResult === LAYOUT_STUCK) return { type: 'blocked', state: l.approvalResult, reason: stuckReason('deletes') };
      return { type: 'destructive' };
    },
  },
};

function stuckReason(what: string): string {
  return `its registration with the carriers stopped part-way (${LAYOUT_STUCK}) and the service ${what} no layout in that state; ask the service's operator to finish or undo it`;
}

/** The request for a desired layout (RegBrandLayout): every area sent, empty when it has no component. */
export function layoutRequest(d: DesiredLayout): LayoutRequest {
  const area = (items: DesiredLayoutComponent[]): LayoutComposition[] => items.map((c) => (c.options === undefined ? { componentId: c.componentId } : { componentId: c.componentId, options: { ...c.options } }));
  return {
    layoutName: d.layoutName,
    productCode: d.productCode,
    ...(d.sampleLayoutId !== undefined ? { sampleLayoutId: d.sampleLayoutId } : {}),
    headerComposition: area(d.headerComposition),
    bodyComposition: area(d.bodyComposition),
    footerComposition: area(d.footerComposition),
  };
}

/** A component's options as the service keeps them: its own (from the component list) with those given over them; none when it takes none and none are given. */
function withOwnOptions(c: DesiredLayoutComponent, known: LayoutComponent | undefined): Record<string, unknown> | undefined {
  const own = known?.options ?? undefined;
  if (own === undefined && c.options === undefined) return undefined;
  return { ...(own ?? {}), ...(c.options ?? {}) };
}

/** The one shape both sides are compared in: name, product and the three areas, a table's row count a number. */
function comparable(x: { layoutName: string; productCode: string; headerComposition: DesiredLayoutComponent[] | LayoutComposition[]; bodyComposition: DesiredLayoutComponent[] | LayoutComposition[]; footerComposition: DesiredLayoutComponent[] | LayoutComposition[] }, options: (c: DesiredLayoutComponent) => Record<string, unknown> | undefined): unknown {
  const area = (items: (DesiredLayoutComponent | LayoutComposition)[]) =>
    items.map((c) => {
      const o = options({ componentId: c.componentId, ...(c.options !== undefined && c.options !== null ? { options: c.options } : {}) });
      return o === undefined ? { componentId: c.componentId } : { componentId: c.componentId, options: numericRows(o) };
    });
  return { layoutName: x.layoutName, productCode: x.productCode, headerComposition: area(x.headerComposition), bodyComposition: area(x.bodyComposition), footerComposition: area(x.footerComposition) };
}

/** `maxCount` as a number: the service lists some as the string `'5'`. */
function numericRows(o: Record<string, unknown>): Record<string, unknown> {
  return typeof o.maxCount === 'string' && /^\d+$/.test(o.maxCount) ? { ...o, maxCount: Number(o.maxCount) } : o;
}
