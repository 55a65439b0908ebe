// The privileges kind (who may operate the brand: its representative,
// operators and agencies): its whole life in this folder.
//   kind.ts      one object per account's access and one for the representative role; grant, removal, delegation (pure)
//   service.ts   reading the list as the account rcsctl runs as, re-reading, the handlers, live checks
//   findings.ts  drift findings: a request waiting, a privilege Processing
//   export.ts    the live list back to `privileges:`
//   doctor.ts    its doctor check: the list route
//   manifest.ts  the `privileges:` section (one object);  schema.ts its JSON Schema;  types.ts its desired shape

import type { Doctored, Exportable, LiveChecked, Prunable, Referring, ReportsUnmanaged, ResourceKind, Stateful } from '../resource-kind.js';
import { privilegeDoctor } from './doctor.js';
import { privilegeExporter } from './export.js';
import { PRIVILEGE_FINDING_CODES, privilegeFindings } from './findings.js';
import { privilegePlanning, type LivePrivilege, type LivePrivilegeSection } from './kind.js';
import { privilegeManifest } from './manifest.js';
import { privilegeHandlers, privilegeProblems, privilegeReader, rereadPrivilege } from './service.js';
import type { DesiredPrivilege } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    privileges?: LivePrivilegeSection;
  }
}

/** The privileges kind. */
export const privilegeKind: ResourceKind<DesiredPrivilege, LivePrivilege, 'privilege'> &
  typeof privilegePlanning &
  Stateful<LivePrivilege> &
  Exportable<LivePrivilege> &
  LiveChecked<DesiredPrivilege> &
  Doctored &
  Prunable &
  ReportsUnmanaged &
  Referring<LivePrivilege> = {
  ...privilegePlanning,
  prune: 'privileges',
  reportsUnmanaged: true,
  manifest: privilegeManifest,
  liveProblems: privilegeProblems,
  read: {
    reader: privilegeReader,
    section: 'privileges',
    reread: (client, brand, id, readAs) => rereadPrivilege(client, brand, id, readAs),
  },
  handlers: privilegeHandlers,
  // The representative role names the account that holds it: removing that account waits for the delegation that moves the role.
  liveRefs: (l) => (l.role === 'representative' ? [`privilege:${l.account}`] : []),
  relink: () => undefined,
  findingCodes: PRIVILEGE_FINDING_CODES,
  findings: privilegeFindings,
  exporter: privilegeExporter,
  doctor: privilegeDoctor,
};

export type * from './types.js';
