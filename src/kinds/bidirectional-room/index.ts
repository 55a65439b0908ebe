// The bidirectional room kind: rooms with a bidirectional ID, and sender-number
// rooms converted by linking a bidirectional agency (docs/decisions.md,
// "Bidirectional rooms"). Its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates, references (pure)
//   service.ts   reading, re-reading, apply handlers and their codes
//   findings.ts  drift findings about a room's review state
//   export.ts    live rooms back to `bidirectionalRooms:`
//   doctor.ts    its doctor check
//   manifest.ts  the `bidirectionalRooms:` section builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { ChatbotDetail } from '../../api/types.js';
import type { Doctored, Drawn, Exportable, Listed, Ordered, Previewable, Prunable, Referring, ReportsUnmanaged, ResourceKind, Reviewed, Stateful, Surveyed, Worded } from '../resource-kind.js';
import { bidirectionalDoctor } from './doctor.js';
import { bidirectionalExporter } from './export.js';
import { BIDI_FINDING_CODES, bidirectionalFindings } from './findings.js';
import { bidirectionalPlanning } from './kind.js';
import { bidirectionalManifest } from './manifest.js';
import { bidirectionalHandlers, bidirectionalList, bidirectionalReader, rereadBidirectional } from './service.js';
import type { DesiredBidirectionalRoom } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    bidirectionalRooms?: ChatbotDetail[];
  }
}

/** The bidirectional room kind. */
export const bidirectionalRoomKind: ResourceKind<DesiredBidirectionalRoom, ChatbotDetail, 'bidirectionalRoom'> &
  Stateful<ChatbotDetail> &
  Exportable<ChatbotDetail> &
  Drawn<DesiredBidirectionalRoom> &
  Listed &
  Reviewed &
  Prunable &
  Ordered<DesiredBidirectionalRoom, ChatbotDetail> &
  Referring<ChatbotDetail> &
  ReportsUnmanaged &
  Previewable<DesiredBidirectionalRoom> &
  Surveyed &
  Doctored &
  Worded = {
  ...bidirectionalPlanning,
  manifest: bidirectionalManifest,
  read: {
    reader: bidirectionalReader,
    section: 'bidirectionalRooms',
    reread: rereadBidirectional,
  },
  handlers: bidirectionalHandlers,
  listing: bidirectionalList,
  findingCodes: BIDI_FINDING_CODES,
  findings: (address, l, env) => bidirectionalFindings(address, l, env.now, env.opts),
  exporter: bidirectionalExporter,
  survey: {
    list: '/bidirectional/chatbot',
    states: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '검수완료(수정)', '승인대기(수정)'],
  },
  doctor: bidirectionalDoctor,
};

export type * from './types.js';
