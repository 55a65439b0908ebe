// The privileges' own doctor check: the list answers as rcsctl reads it
// (a read-only GET as RCSCTL_PERSON_ID).

import { ERRORS } from '../../contract/codes.js';
import type { DoctorCheck } from '../../core/doctor-check.js';
import type { DoctorEnv } from '../resource-kind.js';
import { PERSON_ENV } from '../../api/brands.js';

const DOC = 'the public OpenAPI document, GET /corp/{personId}/brand/{brandId}/privilege (PrivilegeInfo)';
const ASSUMED = 'GET /corp/{personId}/brand/{brandId}/privilege answers PrivilegeInfo items: privilegeType Manager, SubManager or Agency, an id, status Ok, Processing or Waiting, one Manager';
const TYPES = ['Manager', 'SubManager', 'Agency'];
const STATUSES = ['Ok', 'Processing', 'Waiting'];

/** The privilege list as RCSCTL_PERSON_ID reads it (skipped without one, or for an agency's token). */
export async function privilegeDoctor({ inspect, brand, account }: DoctorEnv): Promise<DoctorCheck[]> {
  const base = { id: 'privileges', title: 'who may operate the brand', assumed: ASSUMED, doc: DOC };
  const personId = account;
  if (personId === undefined) return [{ ...base, status: 'skipped', said: `${PERSON_ENV} is not set: no account to read it as` }];
  const res = await inspect.get(`/api/1.1/corp/${encodeURIComponent(personId)}/brand/${encodeURIComponent(brand.id)}/privilege`, { brand });
  if (res.error?.code === ERRORS.noPermission.code) return [{ ...base, status: 'skipped', said: `HTTP ${res.status}, ${res.error.code} ${res.error.message}: the account is not a master or manager` }];
  if (res.error !== undefined) return [{ ...base, status: 'differs', said: `HTTP ${res.status}, ${res.error.code} ${res.error.message}` }];
  const result = (res.body as { result?: unknown } | undefined)?.result;
  const items = Array.isArray(result) ? (result as Record<string, unknown>[]) : undefined;
  const unknown = items?.filter((i) => !TYPES.includes(i.privilegeType as string) || !STATUSES.includes(i.status as string) || typeof i.id !== 'string') ?? [];
  const managers = items?.filter((i) => i.privilegeType === 'Manager' && i.status !== 'Waiting').length ?? 0;
  const fits = items !== undefined && unknown.length === 0 && managers === 1;
  const said = items === undefined ? `HTTP ${res.status}, no result list` : `HTTP ${res.status}, ${items.length} privileges, ${managers} representative${managers === 1 ? '' : 's'}${unknown.length > 0 ? `, ${unknown.length} in a shape rcsctl does not know (${JSON.stringify(unknown[0])})` : ''}`;
  return [{ ...base, status: fits ? 'ok' : 'differs', said }];
}
