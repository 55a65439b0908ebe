// Brand layouts and the service-wide lists they are built from: the product
// rules and the sample layouts (the public OpenAPI document's layout family;
// docs/decisions.md, "Layouts"). The components are the catalogue's
// (src/api/catalogue.ts). Every route is for the agency account role.

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { API_PREFIX, brandPath, listAll, mapAll, seg } from './resource.js';
import { any, anyObject, arr, num, obj, opt, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { LayoutComposition, LayoutDetail, LayoutIdResult, LayoutListItem, LayoutRequest, LayoutRule, SampleLayout, SampleLayoutDetail } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** A brand layout as rcsctl reads it: the list's fields under the names they mean (docs/decisions.md, "Layouts"). */
export interface LayoutSummary {
  layoutId: string;
  layoutName: string;
  productCode: string;
  status: string;
  approvalResult: string;
  registerId: string | null;
  registerDate: string;
  updateDate: string;
}

/** A brand layout in full: its three areas, each component without the index the service numbers them with. */
export interface Layout extends LayoutSummary {
  cardType: string;
  buttonColor: string;
  headerComposition: LayoutComposition[];
  bodyComposition: LayoutComposition[];
  footerComposition: LayoutComposition[];
}

/** Client methods for layouts. */
export interface LayoutsApi {
  /** Every layout of the brand. */
  list(brand: BrandRef): AsyncIterable<LayoutSummary>;
  /** One layout in full. */
  get(brand: BrandRef, layoutId: string): Promise<Layout>;
  /** Register a layout (registered at once: no operator review); a POST, never retried. */
  create(brand: BrandRef, req: LayoutRequest): Promise<{ layoutId: string }>;
  /** Modify a layout; 64323 answered to a retry counts as success. */
  update(brand: BrandRef, layoutId: string, req: LayoutRequest): Promise<{ layoutId: string }>;
  /** Delete a layout; 64545 answered to a retry counts as success. */
  delete(brand: BrandRef, layoutId: string, name?: string): Promise<void>;
  /** The layout rule of each message product. */
  rules(): Promise<LayoutRule[]>;
  /** Every sample layout. */
  samples(): AsyncIterable<SampleLayout>;
  /** One sample layout in full. */
  sample(sampleLayoutId: string): Promise<SampleLayoutDetail>;
}

// The public document's LayoutComponent, as read back (with its index).
const composition = obj({ index: opt(num), componentId: str, options: any });
const listedFields = {
  sampleLayoutId: str,
  sampleLayoutName: str,
  productCode: str,
  status: str,
  registerId: opt(str),
  registerDate: str,
  updateDate: str,
  approvalResult: str,
};
const listed = obj(listedFields);
const detail = obj({
  ...listedFields,
  cardType: opt(str),
  buttonColor: opt(str),
  headerComposition: arr(composition),
  bodyComposition: arr(composition),
  footerComposition: arr(composition),
});
const idResult = obj({ layoutId: str, body: opt(anyObject) });
const rule = obj({ productCode: str, componentCount: num, componentMinCount: num, buttonCount: num, componentLimit: anyObject });
const sample = listed;
const sampleDetail = obj({ sampleLayoutId: str, sampleLayoutName: str, productCode: str, headerComposition: arr(composition), bodyComposition: arr(composition), footerComposition: arr(composition) });

function entity(layoutId: string | undefined, name?: string): string {
  const named = name === undefined ? 'layout' : `layout "${name}"`;
  return layoutId === undefined ? named : `${named} (${layoutId})`;
}

/** The layout methods over `transport`. */
export function layoutsApi(transport: Transport): LayoutsApi {
  return {
    list(brand) {
      return mapAll(listAll<LayoutListItem>(transport, brandPath(brand, '/layout'), listed, { operation: 'list', entity: `layouts of ${brand.id}` }, brand), summaryOf);
    },
    async get(brand, layoutId) {
      const label: OperationLabel = { operation: 'get', entity: entity(layoutId) };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/layout/${seg(layoutId)}`), brand, label });
      return layoutOf(single<LayoutDetail>(res, detail, label));
    },
    async create(brand, req) {
      const label: OperationLabel = { operation: 'create', entity: entity(undefined, req.layoutName) };
      const res = await transport.send({ method: 'POST', path: brandPath(brand, '/layout'), brand, json: req, label });
      return { layoutId: single<LayoutIdResult>(res, idResult, label).layoutId };
    },
    async update(brand, layoutId, req) {
      const label: OperationLabel = { operation: 'update', entity: entity(layoutId, req.layoutName) };
      const res = await transport.send({ method: 'PUT', path: brandPath(brand, `/layout/${seg(layoutId)}`), brand, json: req, label, successAfterRetry: [ERRORS.noChanges.code] });
      if (res.acceptedCode !== undefined) return { layoutId };
      return { layoutId: single<LayoutIdResult>(res, idResult, label).layoutId };
    },
    async delete(brand, layoutId, name) {
      const label: OperationLabel = { operation: 'delete', entity: entity(layoutId, name) };
      const res = await transport.send({ method: 'DELETE', path: brandPath(brand, `/layout/${seg(layoutId)}`), brand, label, successAfterRetry: [ERRORS.invalidLayoutId.code] });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async rules() {
      const label: OperationLabel = { operation: 'list', entity: 'layout rules' };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/baselayout/product/rule`, label });
      return results<LayoutRule>(res, rule, label);
    },
    samples: () => listAll<SampleLayout>(transport, `${API_PREFIX}/baselayout/sample`, sample, { operation: 'list', entity: 'sample layouts' }),
    async sample(sampleLayoutId) {
      const label: OperationLabel = { operation: 'get', entity: `sample layout ${sampleLayoutId}` };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/baselayout/sample/${seg(sampleLayoutId)}`, label });
      return single<SampleLayoutDetail>(res, sampleDetail, label);
    },
  };
}

/** A list entry under the names its fields mean: the document's BrandLayout calls the layout's id and name sampleLayoutId and sampleLayoutName. */
function summaryOf(l: LayoutListItem): LayoutSummary {
  return {
    layoutId: l.sampleLayoutId,
    layoutName: l.sampleLayoutName,
    productCode: l.productCode,
    status: l.status,
    approvalResult: l.approvalResult,
    registerId: l.registerId ?? null,
    registerDate: l.registerDate,
    updateDate: l.updateDate,
  };
}

/** A detail as rcsctl compares it: components in area order without their index, options only where given. */
function layoutOf(d: LayoutDetail): Layout {
  const area = (items: LayoutComposition[]): LayoutComposition[] =>
    [...items]
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((c) => (c.options === undefined || c.options === null ? { componentId: c.componentId } : { componentId: c.componentId, options: c.options }));
  return {
    ...summaryOf(d),
    cardType: d.cardType ?? '',
    buttonColor: d.buttonColor ?? '',
    headerComposition: area(d.headerComposition),
    bodyComposition: area(d.bodyComposition),
    footerComposition: area(d.footerComposition),
  };
}
