// The brand profile kind (the brand's own page, its home on a handset): its
// whole life in this folder.
//   kind.ts      one page per brand, field-by-field diff, review and blocked gates (pure)
//   service.ts   reading (with the categories), re-reading, the modification handler
//   findings.ts  drift findings about the brand's review
//   export.ts    the live page back to `brandProfile:`, images included
//   doctor.ts    its doctor checks: the categories and the detail route
//   manifest.ts  the `brandProfile:` section (one object) and its image rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { CreateChecked, Doctored, Drawn, Exportable, LiveChecked, Plural, Previewable, ResourceKind, Reviewed, Stateful } from '../resource-kind.js';
import { profileDoctor } from './doctor.js';
import { profileExporter } from './export.js';
import { PROFILE_FINDING_CODES, profileFindings } from './findings.js';
import { profilePlanning, type LiveProfile } from './kind.js';
import { profileManifest } from './manifest.js';
import { profileHandlers, profileProblems, profileReader, rereadProfile, type LiveProfileSection } from './service.js';
import type { DesiredProfile } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    brandProfile?: LiveProfileSection;
  }
}

/** The brand profile kind. */
export const brandProfileKind: ResourceKind<DesiredProfile, LiveProfile, 'brandProfile'> & Previewable<DesiredProfile> & Stateful<LiveProfile> & Exportable<LiveProfile> & Drawn<DesiredProfile> & LiveChecked<DesiredProfile> & Doctored & Reviewed & CreateChecked<DesiredProfile> & Plural = {
  ...profilePlanning,
  manifest: profileManifest,
  liveProblems: profileProblems,
  read: {
    reader: profileReader,
    section: 'brandProfile',
    reread: (client, brand, _id, readAs) => rereadProfile(client, brand, readAs),
  },
  handlers: profileHandlers,
  findingCodes: PROFILE_FINDING_CODES,
  findings: (address, l, env) => profileFindings(address, l, env.now, env.opts),
  exporter: profileExporter,
  doctor: profileDoctor,
};

export type * from './types.js';
