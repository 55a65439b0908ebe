// The brand profile and the service: reading the page (as the manifest's
// account, or RCSCTL_PERSON_ID) with the category list, read once per run
// like template forms; re-reading; the one handler, a modification sent as the
// document's multipart form, after withdrawing a pending review when asked.

import type { BrandRef, RcsClient } from '../../api/index.js';
import { PERSON_ENV } from '../../api/brands.js';
import { processAccount } from '../process-account.js';
import { isServiceError } from '../../api/index.js';
import { ERRORS } from '../../contract/codes.js';
import type { BrandCategory } from '../../contract/wire.js';
import type { PlanProblem, Step, StepFile } from '../../core/step.js';
import type { LiveBrand } from '../../core/live.js';
import { readChecked, requestOf, tolerate } from '../apply-helpers.js';
import type { Handler, ListReader, Reread } from '../resource-kind.js';
import { catalogueStore } from '../service-catalogue.js';
import type { LiveProfile, ProfileRequest } from './kind.js';
import { PROFILE_KEY, type DesiredProfile } from './types.js';

/** The environment variable naming the account when the manifest does not. */
export { PERSON_ENV };

/** Service codes: a brand the account has no role on reads as not found; an identical modification is done already; the two refusals of the account (not a company's; not the token's). */
export const PROFILE_CODES = { gone: ERRORS.noBrandPermission.code, noChange: ERRORS.noChanges.code, notCorp: ERRORS.noPermission.code, notCaller: ERRORS.invalidPersonIdPath.code } as const;

/** Why the page was refused, for the codes that say the account cannot read it: the section is then "not read", said at the manifest's line (profileProblems), and the rest of the brand is read. */
function refusal(err: unknown, personId: string, exporting: boolean): string | undefined {
  if (isServiceError(err, PROFILE_CODES.notCorp)) return `the service shows a brand's page to a company's masters and managers only (403 63002), and this token's account is not one (an agency's?): ${exporting ? 'export' : 'plan'} the brand profile with a master's or manager's token`;
  if (isServiceError(err, PROFILE_CODES.notCaller)) return `the brand page is read as ${personId}, which is not the account of this token (400 64104): ${exporting ? 'pass --account' : 'set brandProfile.account'} (or ${PERSON_ENV}) to the token's account`;
  return undefined;
}

/** The live section: the page (none when the brand is not found or not read), the categories, and why nothing was read. */
export interface LiveProfileSection {
  page: LiveProfile | null;
  categories: BrandCategory[];
  /** Set when the page was not read: the account is unknown, or the service refused it the page. */
  unread?: string;
}

// The account each brand was read as in this process, so a re-read asks as the same one.
const readAs = new Map<string, string>();

/** The account to act as: the manifest's, else the run's (`export --account`, else the run's RCSCTL_PERSON_ID: ReadEnv.account). */
function accountFor(desired: DesiredProfile | undefined, account?: string): string | undefined {
  return desired?.account ?? account;
}

/** The service's categories, shared by every brand through the client's catalogues (no notification names them: kept for the catalogue TTL). */
export function categoriesOf(client: RcsClient): Promise<BrandCategory[]> {
  return catalogueStore(client).get('brand.categories', () => client.brands.categories(), []);
}

/** Reads the page when the manifests declare a profile (or, for export, when --account or RCSCTL_PERSON_ID names the account). */
export const profileReader: ListReader<LiveProfileSection | undefined> = {
  async list(env) {
    const declared = env.desired?.brandProfile?.get(PROFILE_KEY);
    if (env.desired !== undefined && declared === undefined) return undefined;
    const personId = accountFor(declared, env.account);
    // Export reads no manifest: its own flag names the account.
    const how = env.desired === undefined ? `pass --account ID or set ${PERSON_ENV}` : `set brandProfile.account or ${PERSON_ENV}`;
    if (personId === undefined) return { page: null, categories: [], unread: `no account to read the brand page as: ${how}` };
    // The category list is refused as the page is: the page's refusal says why.
    const [page, categories] = await Promise.allSettled([readPage(env.client, env.brand, personId), declared === undefined ? Promise.resolve([]) : categoriesOf(env.client)]);
    if (page.status === 'rejected') {
      const why = refusal(page.reason, personId, env.desired === undefined);
      if (why === undefined) throw page.reason;
      return { page: null, categories: [], unread: why };
    }
    if (categories.status === 'rejected') throw categories.reason;
    return { page: page.value, categories: categories.value };
  },
};

async function readPage(client: RcsClient, brand: BrandRef, personId: string): Promise<LiveProfile | null> {
  const page = await tolerate(client.brands.get(brand, personId), [PROFILE_CODES.gone]);
  if (page === undefined) return null;
  readAs.set(brand.id, personId);
  return { ...page, personId };
}

/** The page again, as the account it was read as: the one its step recorded (a saved plan), else this process's read, else RCSCTL_PERSON_ID. */
export async function rereadProfile(client: RcsClient, brand: BrandRef, recorded?: string): Promise<Reread<LiveProfile> | undefined> {
  const personId = recorded ?? readAs.get(brand.id) ?? processAccount();
  if (personId === undefined) return undefined;
  const page = await readPage(client, brand, personId);
  return page === null ? undefined : { live: page, ctx: { liveName: () => undefined } };
}

/** Problems only the service reveals: an unknown account, and a category pair the service does not list. */
export function profileProblems(desired: DesiredProfile[], live: LiveBrand): PlanProblem[] {
  const d = desired[0];
  const section = live.brandProfile;
  if (d === undefined || section === undefined) return [];
  const at = { address: `brandProfile.${PROFILE_KEY}`, file: d.source.file, line: d.source.line };
  if (section.unread !== undefined) return [{ code: 'PROFILE_ACCOUNT', ...at, message: section.unread }];
  if (section.categories.length === 0) return [];
  const category = section.categories.find((c) => c.categoryId === d.categoryId);
  if (category === undefined) return [{ code: 'PROFILE_CATEGORY', ...at, message: `categoryId "${d.categoryId}" is not one of the service's categories (${section.categories.map((c) => c.categoryId).join(', ')})` }];
  if (!category.subCategories.some((s) => s.subCategoryId === d.subCategoryId)) {
    return [{ code: 'PROFILE_CATEGORY', ...at, message: `subCategoryId "${d.subCategoryId}" is not a sub-category of ${d.categoryId} (${category.subCategories.map((s) => s.subCategoryId).join(', ')})` }];
  }
  return [];
}

/** The one handler: withdraw a pending review when asked, then send the page with the images that changed. */
export const profileHandlers: Partial<Record<Step['op'], Handler>> = {
  update: async (step, env) => {
    const req = requestOf<ProfileRequest>(step);
    if (req.cancelReview === true) await tolerate(env.client.brands.cancel(env.brand, req.personId), [ERRORS.invalidBrandStatus.code]);
    const file = async (f: StepFile | null | undefined) => (f === undefined || f === null ? f : readChecked(f));
    const [profile, background] = await Promise.all([file(req.profile), file(req.background)]);
    await tolerate(
      env.client.brands.modify(env.brand, req.personId, {
        regBrand: req.regBrand,
        ...(profile !== undefined && profile !== null ? { profile } : {}),
        ...(background !== undefined ? { background } : {}),
      }),
      [PROFILE_CODES.noChange],
    );
    return {};
  },
};
