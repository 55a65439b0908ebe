// Read-only catalogues that are not brand-scoped: layout components
// (the service reference, Layout component list) and common messagebases
// (docs/decisions.md, "Common messagebases").

import { API_PREFIX, listAll } from './resource.js';
import { any, obj, opt, str } from './shape.js';
import type { Transport } from './transport.js';
import type { CommonMessagebase, LayoutComponent } from '../contract/wire.js';

/** Layout components; only the agency account role may list them. */
export interface LayoutComponentsApi {
  /** Every layout component. */
  list(): AsyncIterable<LayoutComponent>;
}

/** Common messagebases (templates every brand may use). */
export interface MessagebasesApi {
  /** Every common messagebase. */
  listCommon(): AsyncIterable<CommonMessagebase>;
}

// the service reference, Layout component.
const component = obj({
  componentId: str,
  componentName: str,
  iconImgFileUrl: opt(str),
  status: str,
  headerYn: opt(str),
  bodyYn: opt(str),
  footerYn: opt(str),
  options: any,
  groupComponentId: opt(str),
});

// docs/decisions.md, "Common messagebases".
const messagebase = obj({
  messagebaseId: str,
  tmpltName: opt(str),
  messagebaseformId: opt(str),
  productCode: opt(str),
  status: opt(str),
  approvalResult: opt(str),
});

/** The layout component methods over `transport`. */
export function layoutComponentsApi(transport: Transport): LayoutComponentsApi {
  return {
    list: () => listAll<LayoutComponent>(transport, `${API_PREFIX}/baselayout/component`, component, { operation: 'list', entity: 'layout components' }),
  };
}

/** The messagebase methods over `transport`. */
export function messagebasesApi(transport: Transport): MessagebasesApi {
  return {
    listCommon: () => listAll<CommonMessagebase>(transport, `${API_PREFIX}/messagebase/common`, messagebase, { operation: 'list', entity: 'common messagebases' }),
  };
}
