// The brand's own page: the categories, the detail, a modification (the
// multipart form: regBrand as JSON plus the image parts) and the withdrawal of
// a pending review (the public OpenAPI document;
// docs/decisions.md, "The brand profile"). The /corp routes name the calling account (`personId`).

import { ERRORS } from '../contract/codes.js';
import type { BrandCategory, BrandDetail, RegBrand } from '../contract/wire.js';
import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { API_PREFIX, appendFile, appendJson, listAll, newForm, seg, type UploadFile } from './resource.js';
import { any, arr, obj, opt, str, unsetAsNull } from './shape.js';
import type { BrandRef, Transport } from './transport.js';

/** The environment variable that names the account (personId) the /corp routes act as, when a manifest does not. */
export const PERSON_ENV = 'RCSCTL_PERSON_ID';

/** A modification: the page (regBrand) and the images to replace; `background: null` removes it. Parts left out keep what the brand has. */
export interface BrandModification {
  regBrand?: RegBrand;
  profile?: UploadFile;
  background?: UploadFile | null;
}

/** Client methods for the brand page. */
export interface BrandsApi {
  /** The categories a brand may take (each with its sub-categories). */
  categories(): Promise<BrandCategory[]>;
  /** The ids (and names) of the brands `personId` (a master or manager) holds a role on, every page. */
  list(personId: string): Promise<{ brandId: string; name: string | null }[]>;
  /** The brand's page as `personId` (a master or manager with a role on the brand) reads it. */
  get(brand: BrandRef, personId: string): Promise<BrandDetail>;
  /** Modify the running brand; a new name or profile image requests review again. 64323 answered to a retry counts as success. */
  modify(brand: BrandRef, personId: string, req: BrandModification): Promise<void>;
  /** Withdraw the brand's pending review (승인대기(수정) rolls back to 승인). */
  cancel(brand: BrandRef, personId: string): Promise<void>;
}

// docs/decisions.md, "The brand profile": BrandDetail, checked for what rcsctl reads.
const menuItem = obj({ buttonType: str, weblink: opt(str), applink: opt(obj({ packageName: str, action: str, uri: str })) });
const media = obj({ fileId: str, url: str, typeName: str, fileName: opt(str) });
const detail = obj({
  brandId: str,
  name: str,
  status: str,
  description: opt(str),
  tel: opt(str),
  menus: opt(arr(menuItem)),
  categoryId: opt(str),
  subCategoryId: opt(str),
  mediaUrl: opt(arr(media)),
  approvalReason: opt(str),
  initTab: opt(str),
  initFeedItems: opt(arr(str)),
});
// The list's BrandInfo items, checked for what the list is read for.
const listItem = obj({ brandId: str, name: opt(str) });
const category = obj({ categoryId: str, categoryName: opt(str), subCategories: arr(obj({ subCategoryId: str, subCategoryName: opt(str) })) });

/** Fields a brand answers without a value in one of three forms (absent, null, ""): read as null. */
const UNSET: (keyof BrandDetail)[] = ['categoryOpt', 'zipCode', 'roadAddress', 'detailAddress', 'email', 'webSiteUrl', 'approvalReason', 'brandFeedUrl', 'initFeedItem', 'initFeedItems', 'templateColor', 'bizInfoTitle', 'bizInfoContent'];

function personPath(personId: string, brand: BrandRef, rest = ''): string {
  return `${API_PREFIX}/corp/${seg(personId)}/brand/${seg(brand.id)}${rest}`;
}

function entity(brand: BrandRef): string {
  return `brand page of ${brand.id}`;
}

function modificationForm(req: BrandModification): () => import('undici').FormData {
  return () => {
    const form = newForm();
    if (req.regBrand !== undefined) appendJson(form, 'regBrand', { regBrand: req.regBrand });
    if (req.profile !== undefined) appendFile(form, 'brandProfile', req.profile);
    // The document: the background part without a file removes the background.
    if (req.background === null) form.append('brandBackground', '');
    else if (req.background !== undefined) appendFile(form, 'brandBackground', req.background);
    return form;
  };
}

/** The brand page methods over `transport`. */
export function brandsApi(transport: Transport): BrandsApi {
  return {
    async categories() {
      const label: OperationLabel = { operation: 'list', entity: 'brand categories' };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/corp/brand/categories`, label });
      return results<BrandCategory>(res, category, label);
    },
    async list(personId) {
      const label: OperationLabel = { operation: 'list', entity: `brands of account ${personId}` };
      const out: { brandId: string; name: string | null }[] = [];
      for await (const b of listAll<{ brandId: string; name?: string | null }>(transport, `${API_PREFIX}/corp/${seg(personId)}/brand`, listItem, label)) out.push({ brandId: b.brandId, name: b.name ?? null });
      return out;
    },
    async get(brand, personId) {
      const label: OperationLabel = { operation: 'get', entity: entity(brand) };
      const res = await transport.send({ method: 'GET', path: personPath(personId, brand), brand, label });
      return unsetAsNull(single<BrandDetail>(res, detail, label), UNSET);
    },
    async modify(brand, personId, req) {
      const label: OperationLabel = { operation: 'update', entity: entity(brand) };
      const res = await transport.send({ method: 'PUT', path: personPath(personId, brand), brand, label, form: modificationForm(req), successAfterRetry: [ERRORS.noChanges.code] });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async cancel(brand, personId) {
      const label: OperationLabel = { operation: 'cancel review of', entity: entity(brand) };
      const res = await transport.send({ method: 'PUT', path: personPath(personId, brand, '/cancel'), brand, label });
      results(res, any, label);
    },
  };
}
