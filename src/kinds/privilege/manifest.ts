// The `privileges:` section: one object, who may operate the brand. Beyond
// the schema: an account is listed once (as an operator or an agency), the
// representative is not an agency, and no account is named `representative`
// (the address of the role itself).

import type { KindManifest } from '../manifest-section.js';
import type { SourceLocation } from '../../manifest/types.js';
import { schema } from './schema.js';
import { desiredPrivileges } from './kind.js';
import { REPRESENTATIVE_KEY, type DesiredPrivileges } from './types.js';

interface RawPrivileges {
  account?: string;
  representative: string;
  operators?: string[];
  agencies?: string[];
}

/** The privileges section. */
export const privilegeManifest: KindManifest = {
  section: 'privileges',
  single: true,
  order: 70,
  schema,
  async build(raw, ctx) {
    const p = raw as unknown as RawPrivileges;
    // One section per brand: the first document that declares it holds the role.
    if (!ctx.once(REPRESENTATIVE_KEY, 'RCS403', 'privileges')) return;
    const at = new Map<string, SourceLocation>();
    let ok = true;
    const claim = (id: string, path: (string | number)[], what: string): void => {
      if (id === REPRESENTATIVE_KEY) {
        ctx.diag('RCS204', path, `an account named "${REPRESENTATIVE_KEY}" cannot be told from the representative role (privilege.${REPRESENTATIVE_KEY}); rcsctl cannot manage it`);
        ok = false;
      } else if (at.has(id) && !(what === 'operators' && id === p.representative)) {
        ctx.diag('RCS213', path, `"${id}" is listed twice: an account is an operator or an agency, once`);
        ok = false;
      } else if (!at.has(id)) at.set(id, ctx.locationOf(path));
    };
    claim(p.representative, ['privileges', 'representative'], 'representative');
    for (const [i, id] of (p.operators ?? []).entries()) claim(id, ['privileges', 'operators', i], 'operators');
    for (const [i, id] of (p.agencies ?? []).entries()) {
      if (id === p.representative) {
        ctx.diag('RCS204', ['privileges', 'agencies', i], `"${id}" is the representative, a master of the company: it cannot be an agency`);
        ok = false;
        continue;
      }
      claim(id, ['privileges', 'agencies', i], 'agencies');
    }
    if (!ok) return;
    const d: DesiredPrivileges = {
      representative: p.representative,
      operators: p.operators ?? [],
      agencies: p.agencies ?? [],
      source: ctx.locationOf(['privileges']),
      at,
      ...(p.account !== undefined ? { account: p.account } : {}),
    };
    for (const x of desiredPrivileges(d)) ctx.add(x.key, x);
  },
};
