// The layout kind's own doctor checks: the component list, the product rules
// and the sample list answer as rcsctl reads them, the brand's layout list
// names each layout's id as the public document does, and a layout's detail
// gives its three areas as plan compares them (read-only GETs; every layout
// route is for agency accounts, so another account's checks are skipped).

import { ERRORS } from '../../contract/codes.js';
import type { DoctorCheck } from '../../core/doctor-check.js';
import type { DoctorEnv } from '../resource-kind.js';
import { USABLE_STATUSES } from './rules.js';

const DOC = 'the public OpenAPI document, layout (GET /baselayout/component, /baselayout/product/rule, /baselayout/sample, /brand/{brandId}/layout)';

type Answer = Awaited<ReturnType<DoctorEnv['inspect']['get']>>;

function resultOf(body: unknown): Record<string, unknown>[] | undefined {
  const result = (body as { result?: unknown } | undefined)?.result;
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : undefined;
}

function refused(a: Answer): string {
  return `HTTP ${a.status}, ${a.error?.code ?? ''} ${a.error?.message ?? ''}`.trim();
}

/** The five checks; skipped, each, when the service refuses the account's role (the detail's also when the brand has no layout). */
export async function layoutDoctor({ inspect, brand, base }: DoctorEnv): Promise<DoctorCheck[]> {
  const [components, rules, samples, layouts] = await Promise.all([
    inspect.get('/api/1.1/baselayout/component', { query: { offset: 0, limit: 1000 } }),
    inspect.get('/api/1.1/baselayout/product/rule'),
    inspect.get('/api/1.1/baselayout/sample', { query: { offset: 0, limit: 1000 } }),
    inspect.get(`${base}/layout`, { brand, query: { offset: 0, limit: 1000 } }),
  ]);
  const check = (id: string, title: string, assumed: string, a: Answer, judge: (items: Record<string, unknown>[]) => { fits: boolean; said: string }): DoctorCheck => {
    if (a.error?.code === ERRORS.invalidToken.code && a.status === 401) return { id, title, status: 'skipped', assumed, said: `${refused(a)}: layouts are for agency accounts`, doc: DOC };
    const items = resultOf(a.body);
    if (a.error !== undefined || items === undefined) return { id, title, status: 'differs', assumed, said: a.error !== undefined ? refused(a) : `HTTP ${a.status}, no result list`, doc: DOC, ...(a.error !== undefined ? { serviceCode: a.error.code } : {}) };
    const { fits, said } = judge(items);
    return { id, title, status: fits ? 'ok' : 'differs', assumed, said: `HTTP ${a.status}, ${said}`, doc: DOC };
  };
  // A layout's detail, read for the first one listed: plan compares its areas component by component.
  const first = resultOf(layouts.body)?.find((l) => typeof l.sampleLayoutId === 'string');
  const detail = first === undefined ? undefined : await inspect.get(`${base}/layout/${encodeURIComponent(first.sampleLayoutId as string)}`, { brand });
  const detailAssumed = "GET /brand/{brandId}/layout/{layoutId} answers the layout with headerComposition, bodyComposition and footerComposition, each a list of components with a componentId and options (an object, or none)";
  const detailCheck: DoctorCheck =
    detail === undefined
      ? { id: 'layout-detail', title: "a layout's detail", status: 'skipped', assumed: detailAssumed, said: layouts.error !== undefined ? 'the layout list was not read' : 'the brand has no layout to read', doc: DOC }
      : check('layout-detail', "a layout's detail", detailAssumed, detail, (items) => {
          const l = items[0];
          const areas = ['headerComposition', 'bodyComposition', 'footerComposition'];
          const odd = l === undefined ? areas : areas.filter((a) => !Array.isArray(l[a]) || !(l[a] as unknown[]).every((c) => typeof (c as Record<string, unknown>)?.componentId === 'string' && ['object', 'undefined'].includes(typeof (c as Record<string, unknown>).options)));
          const components = l === undefined ? 0 : areas.reduce((n, a) => n + (Array.isArray(l[a]) ? (l[a] as unknown[]).length : 0), 0);
          return { fits: odd.length === 0, said: odd.length === 0 ? `${String(first?.sampleLayoutId)}: ${components} components in its three areas` : `${String(first?.sampleLayoutId)}: ${odd.join(', ')} not a list of components with a componentId (plan could not compare it)` };
        });
  return [
    check('layout-components', 'the layout components', 'GET /baselayout/component lists components with componentId, status and headerYn, bodyYn, footerYn', components, (items) => {
      const fits = items.every((c) => typeof c.componentId === 'string' && typeof c.status === 'string' && ['headerYn', 'bodyYn', 'footerYn'].every((k) => c[k] === 'Y' || c[k] === 'N'));
      const usable = items.filter((c) => USABLE_STATUSES.includes(c.status as string)).length;
      return { fits, said: `${items.length} components, ${usable} usable in a layout${fits ? '' : ', not all in that shape'}` };
    }),
    check('layout-rules', 'the layout product rules', 'GET /baselayout/product/rule answers a rule per product with componentCount, componentMinCount, buttonCount and componentLimit', rules, (items) => {
      const fits = items.length > 0 && items.every((r) => typeof r.productCode === 'string' && typeof r.componentCount === 'number' && typeof r.componentMinCount === 'number' && typeof r.buttonCount === 'number' && typeof r.componentLimit === 'object');
      return { fits, said: `${items.map((r) => `${String(r.productCode)} ${String(r.componentCount)}`).join(', ') || 'no rules'}` };
    }),
    check('layout-samples', 'the sample layouts', 'GET /baselayout/sample lists samples with sampleLayoutId and productCode', samples, (items) => {
      const fits = items.every((s) => typeof s.sampleLayoutId === 'string' && typeof s.productCode === 'string');
      return { fits, said: `${items.length} samples${fits ? '' : ', not all in that shape'}` };
    }),
    check('layout-list', "the brand's layout list", "GET /brand/{brandId}/layout names each layout's id and name sampleLayoutId and sampleLayoutName (the document's BrandLayout)", layouts, (items) => {
      const fits = items.every((l) => typeof l.sampleLayoutId === 'string' && typeof l.sampleLayoutName === 'string' && typeof l.approvalResult === 'string');
      return { fits, said: `${items.length} layouts${fits ? '' : ', not named so (rcsctl would not find their ids)'}` };
    }),
    detailCheck,
  ];
}
