// The logo kind: its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates (pure)
//   service.ts   reading, re-reading, apply handlers and their codes
//   findings.ts  drift findings about its review state
//   export.ts    live logos back to `logos:`
//   manifest.ts  the `logos:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { Logo } from '../../api/types.js';
import type { CreatedSince, Drawn, Exportable, Listed, Named, Previewable, Prunable, ReportsUnmanaged, ResourceKind, Reviewed, Stateful, Surveyed } from '../resource-kind.js';
import { logoExporter } from './export.js';
import { LOGO_FINDING_CODES, logoFindings } from './findings.js';
import { logoPlanning } from './kind.js';
import { logoManifest } from './manifest.js';
import { logoHandlers, logoList, logoNamed, logoReader, logosCreatedSince, rereadLogo } from './service.js';
import type { DesiredLogo } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    logos: Logo[];
  }
}

/** The logo kind. */
export const logoKind: ResourceKind<DesiredLogo, Logo, 'logo'> & Previewable<DesiredLogo> & Stateful<Logo> & Exportable<Logo> & Surveyed & Drawn<DesiredLogo> & CreatedSince & Listed & Named<DesiredLogo, Logo> & Reviewed & Prunable & ReportsUnmanaged = {
  ...logoPlanning,
  manifest: logoManifest,
  read: {
    reader: logoReader,
    section: 'logos',
    reread: rereadLogo,
  },
  createdSince: logosCreatedSince,
  handlers: logoHandlers,
  listing: logoList,
  named: logoNamed,
  findingCodes: LOGO_FINDING_CODES,
  findings: (address, l, env) => logoFindings(address, l, env.managed, env.now, env.opts),
  exporter: logoExporter,
  survey: {
    list: '/logo',
    states: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'],
    unset: { fields: ['description', 'approvalReason', 'approvalDate'], form: 'null' },
  },
};

export { LOGO_MODIFIABLE } from './kind.js';
export type * from './types.js';
