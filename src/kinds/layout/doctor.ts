// The layout kind's own doctor checks: the component list, the product rules
// and the sample list answer as rcsctl reads them, and the brand's layout list
// names each layout's id as the public document does (read-only GETs; every
// layout route is for agency accounts, so another account's checks are skipped).

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

/** The four checks; skipped, each, when the service refuses the account's role. */
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
  ];
}
