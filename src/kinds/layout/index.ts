// The layout kind: a brand's layouts, cards built from the service's layout
// components; its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates (pure)
//   preview.ts   how a handset shows it: the card its components make
//   rules.ts     a layout against the service's components, product rules and samples, when planning
//   service.ts   reading (with those lists), re-reading, apply handlers and their codes
//   cache.ts     what the live cache keeps of it, and when it serves it
//   findings.ts  drift findings about its state
//   export.ts    live layouts back to `layouts:`
//   doctor.ts    its doctor checks: the lists and the brand's layout list
//   manifest.ts  the `layouts:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { Layout } from '../../api/layouts.js';
import type { CreatedSince, Doctored, Drawn, Exportable, Listed, LiveChecked, Named, Previewable, Prunable, ReportsUnmanaged, ResourceKind, Stateful } from '../resource-kind.js';
import { layoutDoctor } from './doctor.js';
import { layoutExporter } from './export.js';
import { LAYOUT_FINDING_CODES, layoutFindings } from './findings.js';
import { layoutPlanning } from './kind.js';
import { layoutManifest } from './manifest.js';
import { layoutHandlers, layoutList, layoutNamed, layoutReader, layoutsCreatedSince, layoutsProblems, rereadLayout, type LiveLayouts } from './service.js';
import type { DesiredLayout } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    layouts?: LiveLayouts;
  }
}

/** The layout kind. */
export const layoutKind: ResourceKind<DesiredLayout, Layout, 'layout'> & Previewable<DesiredLayout> & Stateful<Layout> & Exportable<Layout> & Drawn<DesiredLayout> & CreatedSince & Listed & Named<DesiredLayout, Layout> & LiveChecked<DesiredLayout> & Doctored & Prunable & ReportsUnmanaged = {
  ...layoutPlanning,
  manifest: layoutManifest,
  liveProblems: layoutsProblems,
  read: {
    reader: layoutReader,
    section: 'layouts',
    reread: rereadLayout,
  },
  createdSince: layoutsCreatedSince,
  handlers: layoutHandlers,
  listing: layoutList,
  named: layoutNamed,
  findingCodes: LAYOUT_FINDING_CODES,
  findings: (address, l, env) => layoutFindings(address, l, env.managed),
  exporter: layoutExporter,
  doctor: layoutDoctor,
};

export type * from './types.js';
