// Who may operate the brand, as the loader builds it from `privileges:`.

import type { SourceLocation } from '../../manifest/types.js';

/** What an account may be on the brand besides its representative: an operator (a master or manager of the company) or an agency. */
export type AccessRole = 'operator' | 'agency';

/** The section as written: one object per brand (expanded into DesiredPrivilege objects by the builder). */
export interface DesiredPrivileges {
  /** The account (personId) rcsctl reads and changes the privileges as; RCSCTL_PERSON_ID when left out. */
  account?: string;
  /** The brand's representative (a master): the one account that may change privileges. */
  representative: string;
  operators: string[];
  agencies: string[];
  source: SourceLocation;
  /** Where each account is written, by account id. */
  at: ReadonlyMap<string, SourceLocation>;
}

/**
 * One desired object of the section: an account's access (keyed by the
 * account; the representative has an operator's access too), or the
 * representative role itself (keyed `representative`), which changes hands
 * only by a delegation.
 */
export interface DesiredPrivilege {
  key: string;
  account: string;
  role: AccessRole | 'representative';
  source: SourceLocation;
  /** On the representative role: the account rcsctl acts as (`privileges.account`), when the section names one. */
  actAs?: string;
}
/** The key (and address) of the representative role: `privilege.representative`. */
export const REPRESENTATIVE_KEY = 'representative';

declare module '../../manifest/types.js' {
  interface DesiredSections {
    /** The section's objects by key: `representative` (the role), then each account with access. */
    privileges?: Map<string, DesiredPrivilege>;
  }
}
