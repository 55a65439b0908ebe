// A brand the service refuses with 63001 (No Brand Permission): the account
// holds no role on it, or no such brand exists for it (a mistyped id gets the
// same answer). The brand list of the account tells the two apart, so the
// advice is to check the id, with the closest id the account has, rather than
// to ask for a role on a brand that does not exist.

import type { RcsClient } from '../api/index.js';
import { ERRORS } from '../contract/codes.js';
import { closest } from '../manifest/suggest.js';
import { PERSON_ENV } from '../api/brands.js';
import { isFailed, type BrandOutcome } from './plan-brands.js';

/** At most this many of the account's brand ids are named. */
const NAMED = 5;

/**
 * Rewrite the hint of every brand refused with 63001 after checking the
 * account's brand list (GET /corp/{personId}/brand, read once) as `personId`.
 * Without `personId` the hint says how to let rcsctl check; when the list
 * cannot be read, the hints stay as they were.
 */
export async function explainRefusedBrands(client: RcsClient, outcomes: BrandOutcome[], personId: string | undefined): Promise<void> {
  const refused = outcomes.filter(isFailed).filter((o) => o.error.serviceCode === ERRORS.noBrandPermission.code);
  if (refused.length === 0) return;
  if (personId === undefined || personId === '') {
    for (const o of refused) o.error.hint = `${o.error.hint ?? 'this account holds no brand role on the brand'}; if the brand id may be mistyped, set ${PERSON_ENV} to the account's id and rcsctl checks it against the account's brand list`;
    return;
  }
  let ids: string[];
  try {
    ids = (await client.brands.list(personId)).map((b) => b.brandId);
  } catch {
    return;
  }
  for (const o of refused) {
    if (ids.includes(o.brandId)) continue;
    const near = closest(o.brandId, ids);
    const has = ids.length === 0 ? 'it holds no brand' : `its brands: ${ids.slice(0, NAMED).join(', ')}${ids.length > NAMED ? `, … (${ids.length})` : ''}`;
    o.error.hint = `no such brand for this account: check the id${near !== undefined ? ` (did you mean ${near}?)` : ''}; account ${personId} sees no brand ${o.brandId} (${has}); if the id is right, ask the brand representative to grant this account a role on it`;
  }
}
