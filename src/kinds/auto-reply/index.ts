// The auto-reply kind: its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates, references (pure)
//   common.ts    its messagebaseId against the service's common list, when planning
//   service.ts   reading, re-reading, apply handlers and their codes
//   findings.ts  drift findings about its registration state
//   export.ts    live auto-replies back to `autoReplies:`
//   doctor.ts    its doctor checks: aliases, postback fill, image ids
//   usage.ts     how often its buttons and chips were pressed (through the menus that send it)
//   manifest.ts  the `autoReplies:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { AutoReplyDetail } from '../../api/types.js';
import type { CreatedSince, Doctored, Drawn, Exportable, LinkSplitting, Listed, LiveChecked, Named, Plural, Previewable, Prunable, Referring, ReportsUnmanaged, ResourceKind, Stateful, Surveyed, UsageCounted } from '../resource-kind.js';
import { autoReplyDoctor } from './doctor.js';
import { unknownMessagebases } from './common.js';
import { autoReplyExporter } from './export.js';
import { AUTO_REPLY_FINDING_CODES, autoReplyFindings } from './findings.js';
import { autoReplyPlanning } from './kind.js';
import { autoReplyManifest } from './manifest.js';
import { autoRepliesCreatedSince, autoReplyHandlers, autoReplyList, autoReplyNamed, autoReplyReader, rereadAutoReply } from './service.js';
import type { DesiredAutoReply } from './types.js';
import { autoReplyUsage } from './usage.js';

declare module '../../core/live.js' {
  interface LiveSections {
    autoReplies: AutoReplyDetail[];
  }
}

/** The auto-reply kind. */
export const autoReplyKind: ResourceKind<DesiredAutoReply, AutoReplyDetail, 'autoReply'> & Previewable<DesiredAutoReply> & Stateful<AutoReplyDetail> & Exportable<AutoReplyDetail> & Surveyed & Drawn<DesiredAutoReply> & Referring<AutoReplyDetail> & LinkSplitting & LiveChecked<DesiredAutoReply> & CreatedSince & Listed & Named<DesiredAutoReply, AutoReplyDetail> & Doctored & Prunable & UsageCounted<AutoReplyDetail> & Plural & ReportsUnmanaged = {
  ...autoReplyPlanning,
  manifest: autoReplyManifest,
  liveProblems: unknownMessagebases,
  read: {
    reader: autoReplyReader,
    section: 'autoReplies',
    reread: rereadAutoReply,
  },
  createdSince: autoRepliesCreatedSince,
  handlers: autoReplyHandlers,
  listing: autoReplyList,
  named: autoReplyNamed,
  findingCodes: AUTO_REPLY_FINDING_CODES,
  findings: (address, l) => autoReplyFindings(address, l),
  exporter: autoReplyExporter,
  survey: { list: '/autoreplymsg', states: ['등록완료', '저장', '처리중'] },
  doctor: autoReplyDoctor,
  usage: autoReplyUsage,
};

export { normaliseButtons, normaliseSuggestions, toRequest } from './kind.js';
export type * from './types.js';
