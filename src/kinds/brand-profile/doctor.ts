// The brand profile's own doctor checks: the category list and the brand
// detail route answer as rcsctl reads them (read-only GETs).

import { ERRORS } from '../../contract/codes.js';
import type { DoctorCheck } from '../../core/doctor-check.js';
import type { DoctorEnv } from '../resource-kind.js';
import { PERSON_ENV } from './service.js';

const DOC = 'the public OpenAPI document, GET /corp/brand/categories and GET /corp/{personId}/brand/{brandId}';

function resultOf(body: unknown): unknown[] | undefined {
  const result = (body as { result?: unknown } | undefined)?.result;
  return Array.isArray(result) ? result : undefined;
}

/** The category list, and the brand's page as RCSCTL_PERSON_ID reads it (skipped without one). */
export async function profileDoctor({ inspect, brand, account }: DoctorEnv): Promise<DoctorCheck[]> {
  const categories = await inspect.get('/api/1.1/corp/brand/categories');
  // The /corp routes are for master and manager accounts: an agency's token has nothing to check there.
  if (categories.error?.code === ERRORS.noPermission.code) {
    const said = `HTTP ${categories.status}, ${categories.error.code} ${categories.error.message}: the account is not a master or manager`;
    return [
      { id: 'brand-categories', title: 'the brand category list', status: 'skipped', assumed: 'GET /corp/brand/categories answers categories', said, doc: DOC },
      { id: 'brand-detail', title: 'the brand page', status: 'skipped', assumed: 'GET /corp/{personId}/brand/{brandId} answers the page', said, doc: DOC },
    ];
  }
  const list = resultOf(categories.body);
  const shaped = list?.every((c) => typeof (c as { categoryId?: unknown }).categoryId === 'string' && Array.isArray((c as { subCategories?: unknown }).subCategories));
  const out: DoctorCheck[] = [
    {
      id: 'brand-categories',
      title: 'the brand category list',
      status: categories.error === undefined && shaped === true ? 'ok' : 'differs',
      assumed: 'GET /corp/brand/categories answers categories, each with categoryId and subCategories',
      said: categories.error !== undefined ? `HTTP ${categories.status}, ${categories.error.code} ${categories.error.message}` : `HTTP ${categories.status}, ${list?.length ?? 0} categories${shaped === true ? '' : ', not in that shape'}`,
      doc: DOC,
    },
  ];
  const personId = account;
  if (personId === undefined) {
    out.push({ id: 'brand-detail', title: 'the brand page', status: 'skipped', assumed: 'GET /corp/{personId}/brand/{brandId} answers the page', said: `${PERSON_ENV} is not set: no account to read it as`, doc: DOC });
    return out;
  }
  const detail = await inspect.get(`/api/1.1/corp/${encodeURIComponent(personId)}/brand/${encodeURIComponent(brand.id)}`, { brand });
  const page = resultOf(detail.body)?.[0] as { brandId?: unknown; name?: unknown; status?: unknown } | undefined;
  const fits = page !== undefined && page.brandId === brand.id && typeof page.name === 'string' && typeof page.status === 'string';
  out.push({
    id: 'brand-detail',
    title: 'the brand page',
    status: detail.error === undefined && fits ? 'ok' : 'differs',
    assumed: 'GET /corp/{personId}/brand/{brandId} answers one BrandDetail with brandId, name and status',
    said: detail.error !== undefined ? `HTTP ${detail.status}, ${detail.error.code} ${detail.error.message}` : fits ? `HTTP ${detail.status}, "${String(page.name)}" in ${String(page.status)}` : `HTTP ${detail.status}, not a BrandDetail`,
    doc: DOC,
  });
  return out;
}
