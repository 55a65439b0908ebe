// The agency file kind: its whole life in this folder.
//   kind.ts      identity by fileId, the registration request, gates (pure)
//   service.ts   reading (only the fileIds the manifests name), registration
//   findings.ts  drift findings about its sendable window
//   manifest.ts  the `agencyFiles:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape
// Not exported: the service cannot list agency files.

import type { AgencyFileInfo } from '../../api/types.js';
import type { Drawn, DriftNoted, NotExported, ResourceKind, Stateful } from '../resource-kind.js';
import { AGENCY_FILE_FINDING_CODES, agencyFileFindings } from './findings.js';
import { agencyFilePlanning } from './kind.js';
import { agencyFileManifest } from './manifest.js';
import { agencyFileHandlers, agencyFileReader, rereadAgencyFile } from './service.js';
import type { DesiredAgencyFile } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    /** Agency files the manifests name, by fileId; `null` when the service does not know it. */
    agencyFiles: Map<string, AgencyFileInfo | null>;
  }
}

/** The agency file kind. */
export const agencyFileKind: ResourceKind<DesiredAgencyFile, AgencyFileInfo, 'agencyFile'> & Stateful<AgencyFileInfo> & Drawn<DesiredAgencyFile> & DriftNoted & NotExported = {
  ...agencyFilePlanning,
  manifest: agencyFileManifest,
  read: {
    reader: agencyFileReader,
    section: 'agencyFiles',
    reread: rereadAgencyFile,
  },
  handlers: agencyFileHandlers,
  findingCodes: AGENCY_FILE_FINDING_CODES,
  findings: (address, l, env) => agencyFileFindings(address, l, env.now, env.opts),
  driftNote: (desired) => (desired.agencyFiles.size === 0 ? undefined : 'The service cannot list agency files: only those the manifests name were checked.'),
  notExported: 'Agency files are not exported: the service cannot list them. Add the ones you use under agencyFiles: by their fileId.',
};

export type * from './types.js';
