// The template kind: its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates (pure)
//   policy.ts    the template against the service's form, when planning
//   service.ts   reading (with the forms), re-reading, apply handlers and their codes
//   findings.ts  drift findings about its review state
//   export.ts    live templates back to `templates:`, images included
//   manifest.ts  the `templates:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { TemplateDetail } from '../../api/types.js';
import type { CreatedSince, Drawn, Exportable, LiveChecked, Prunable, ReportsUnmanaged, ResourceKind, Reviewed, Stateful } from '../resource-kind.js';
import { templateExporter } from './export.js';
import { TEMPLATE_FINDING_CODES, templateFindings } from './findings.js';
import { templatePlanning } from './kind.js';
import { templateManifest } from './manifest.js';
import { templateProblems } from './policy.js';
import { templateHandlers, templateReader, templatesCreatedSince, rereadTemplate, type LiveTemplates } from './service.js';
import type { DesiredTemplate } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    templates: LiveTemplates;
  }
}

/** The template kind. */
export const templateKind: ResourceKind<DesiredTemplate, TemplateDetail, 'template'> & Stateful<TemplateDetail> & Exportable<TemplateDetail> & Drawn<DesiredTemplate> & CreatedSince & LiveChecked<DesiredTemplate> & Reviewed & Prunable & ReportsUnmanaged = {
  ...templatePlanning,
  manifest: templateManifest,
  liveProblems: templateProblems,
  read: {
    reader: templateReader,
    section: 'templates',
    reread: rereadTemplate,
  },
  createdSince: templatesCreatedSince,
  handlers: templateHandlers,
  findingCodes: TEMPLATE_FINDING_CODES,
  findings: (address, l, env) => templateFindings(address, l, env.managed, env.now, env.opts),
  exporter: templateExporter,
};

export type * from './types.js';
