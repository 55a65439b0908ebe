// The privilege list back to `privileges:` (the account read as, the
// representative, operators and agencies; requests waiting are left out: they
// are nobody's access yet).

import type { KindExporter } from '../resource-kind.js';
import type { LivePrivilege } from './kind.js';
import { REPRESENTATIVE_KEY } from './types.js';

/** The `privileges:` section (none when the list was not read). */
export const privilegeExporter: KindExporter<LivePrivilege> = {
  section: 'privileges',
  unread: (live) => (live.privileges as { unread?: string } | undefined)?.unread,
  entries(live) {
    const rep = live.find((l) => l.key === REPRESENTATIVE_KEY);
    if (rep === undefined) return {};
    const access = live.filter((l) => l.key !== REPRESENTATIVE_KEY && l.status !== 'Waiting' && l.account !== rep.account);
    const operators = access.filter((l) => l.role === 'operator').map((l) => l.account);
    const agencies = access.filter((l) => l.role === 'agency').map((l) => l.account);
    return { account: rep.caller, representative: rep.account, ...(operators.length > 0 ? { operators } : {}), ...(agencies.length > 0 ? { agencies } : {}) };
  },
};
