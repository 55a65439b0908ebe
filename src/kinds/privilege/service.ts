// Privileges, the service side: reading the list as the account rcsctl runs
// as, re-reading one entry, the grant, delegation and removal handlers, and
// what only the live list reveals (an account listed in the wrong role).

import type { BrandRef, RcsClient } from '../../api/index.js';
import { PERSON_ENV } from '../../api/brands.js';
import { processAccount } from '../process-account.js';
import { isServiceError } from '../../api/index.js';
import { ERRORS } from '../../contract/codes.js';
import type { PlanProblem, Step } from '../../core/step.js';
import { liveSection, type LiveBrand } from '../../core/live.js';
import { requestOf, tolerate } from '../apply-helpers.js';
import type { Handler, ListReader, Reread } from '../resource-kind.js';
import { livePrivileges, type LivePrivilege, type LivePrivilegeSection, type PrivilegeRequest } from './kind.js';
import { REPRESENTATIVE_KEY, type DesiredPrivilege } from './types.js';

/** Service codes the handlers take as "already as asked": a grant of an account with access, a removal of one without. */
export const PRIVILEGE_CODES = { granted: ERRORS.privilegeAlreadyRegistered.code, gone: ERRORS.privilegeNotRegistered.code, noRole: ERRORS.noBrandPermission.code, notCorp: ERRORS.noPermission.code, notCaller: ERRORS.invalidPersonIdPath.code } as const;

/** Why the list was refused, for the codes that say the account cannot read it: the section is then "not read", said at the manifest's line (privilegeProblems), and the rest of the brand is read. */
function refusal(err: unknown, personId: string): string | undefined {
  if (isServiceError(err, PRIVILEGE_CODES.noRole)) return `account ${personId} has no privilege on the brand (63001): only its representative and operators can read who operates it`;
  if (isServiceError(err, PRIVILEGE_CODES.notCorp)) return `the service lists who operates a brand to a company's masters and managers only (403 63002), and this token's account is not one (an agency's?): plan privileges with a master's or manager's token`;
  if (isServiceError(err, PRIVILEGE_CODES.notCaller)) return `the privileges are read as ${personId}, which is not the account of this token (400 64104): set privileges.account (or ${PERSON_ENV}) to the token's account`;
  return undefined;
}

// The account each brand was read as in this process, so a re-read asks as the same one.
const readAs = new Map<string, string>();

/** The account to act as: the manifest's, else the run's (`export --account`, else the run's RCSCTL_PERSON_ID: ReadEnv.account). */
function accountFor(desired: DesiredPrivilege | undefined, account?: string): string | undefined {
  return desired?.actAs ?? account;
}

/** Reads the list when the manifests declare privileges (or, for export, when --account or RCSCTL_PERSON_ID names the account). */
export const privilegeReader: ListReader<LivePrivilegeSection | undefined> = {
  async list(env) {
    const declared = env.desired?.privileges?.get(REPRESENTATIVE_KEY);
    if (env.desired !== undefined && declared === undefined) return undefined;
    const personId = accountFor(declared, env.account);
    const how = env.desired === undefined ? `pass --account ID or set ${PERSON_ENV}` : `set privileges.account or ${PERSON_ENV}`;
    if (personId === undefined) return { personId: null, entries: [], unread: `no account to read the privileges as: ${how}` };
    try {
      const entries = await env.client.privileges.list(env.brand, personId);
      readAs.set(env.brand.id, personId);
      return { personId, entries };
    } catch (err) {
      const why = refusal(err, personId);
      if (why === undefined) throw err;
      return { personId, entries: [], unread: why };
    }
  },
};

/** One entry again (`representative` for the role), as the account it was read as. */
export async function rereadPrivilege(client: RcsClient, brand: BrandRef, id: string, recorded?: string): Promise<Reread<LivePrivilege> | undefined> {
  const personId = recorded ?? readAs.get(brand.id) ?? processAccount();
  if (personId === undefined) return undefined;
  const entries = await tolerate(client.privileges.list(brand, personId), [PRIVILEGE_CODES.noRole]);
  // After a delegation rcsctl's account is an operator: it still reads the list.
  const live = livePrivileges({ personId, entries: entries ?? [] }).find((l) => l.key === id && l.status !== 'Waiting');
  return live === undefined ? undefined : { live, ctx: { liveName: () => undefined } };
}

/** Problems only the service reveals: no account to read as, and an account listed in a role the service gives it otherwise. */
export function privilegeProblems(desired: unknown[], live: LiveBrand): PlanProblem[] {
  const section = liveSection(live, 'privileges') as LivePrivilegeSection | undefined;
  const wanted = desired as DesiredPrivilege[];
  if (wanted.length === 0 || section === undefined) return [];
  const first = wanted[0];
  if (section.unread !== undefined) return [{ code: 'PRIVILEGE_ACCOUNT', address: 'privilege.representative', message: section.unread, ...(first !== undefined ? { file: first.source.file, line: first.source.line } : {}) }];
  const out: PlanProblem[] = [];
  for (const d of wanted) {
    if (d.role === 'representative') continue;
    const e = section.entries.find((x) => x.id === d.account);
    if (e === undefined) continue;
    const isAgency = e.privilegeType === 'Agency';
    if (isAgency !== (d.role === 'agency')) {
      out.push({ code: 'PRIVILEGE_ROLE', address: `privilege.${d.key}`, file: d.source.file, line: d.source.line, message: `${d.account} is ${isAgency ? 'an agency' : 'a master or manager of the company'} in the service (${e.privilegeType}): list it under ${isAgency ? 'agencies' : 'operators'}` });
    }
  }
  return out;
}

/** A grant, the delegation and a removal, each as the account its step recorded. */
export const privilegeHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<PrivilegeRequest>(step);
    if (req.grant === undefined) throw new Error(`step ${step.id} grants nothing`);
    await tolerate(env.client.privileges.grant(env.brand, req.personId, [req.grant]), [PRIVILEGE_CODES.granted]);
    // The account is the privilege's id.
    return { id: req.grant.id };
  },
  update: async (step, env) => {
    const req = requestOf<PrivilegeRequest>(step);
    if (req.delegateTo === undefined) throw new Error(`step ${step.id} hands the representative role to nobody`);
    await env.client.privileges.delegate(env.brand, req.personId, req.delegateTo);
    return { note: `${req.personId} is an operator now` };
  },
  delete: async (step, env) => {
    const personId = step.readAs ?? readAs.get(env.brand.id) ?? processAccount();
    if (personId === undefined) throw new Error(`no account to remove ${step.liveId} as: set ${PERSON_ENV}`);
    await tolerate(env.client.privileges.revoke(env.brand, personId, step.liveId as string), [PRIVILEGE_CODES.gone]);
    return {};
  },
};
