// The chatbot (room) kind: its whole life in this folder.
//   kind.ts      identity, normalisation, requests, gates (pure)
//   service.ts   reading, re-reading, apply handlers and their codes
//   findings.ts  drift findings about its review state
//   export.ts    live rooms (with their menus) back to `chatbots:`
//   manifest.ts  the `chatbots:` section builder
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { ChatbotDetail } from '../../api/types.js';
import type { CreateChecked, Drawn, Exportable, Listed, PartlyManaged, Previewable, Prunable, ReportsUnmanaged, ResourceKind, Reviewed, Stateful, Surveyed } from '../resource-kind.js';
import { chatbotExporter } from './export.js';
import { CHATBOT_FINDING_CODES, chatbotFindings } from './findings.js';
import { chatbotPlanning } from './kind.js';
import { chatbotManifest } from './manifest.js';
import { chatbotHandlers, chatbotReader, rereadChatbot, chatbotList } from './service.js';
import type { DesiredChatbot } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    chatbots: ChatbotDetail[];
  }
}

/** The chatbot kind. */
export const chatbotKind: ResourceKind<DesiredChatbot, ChatbotDetail, 'chatbot'> & Previewable<DesiredChatbot> & Stateful<ChatbotDetail> & Exportable<ChatbotDetail> & Surveyed & Drawn<DesiredChatbot> & Listed & Reviewed & Prunable & PartlyManaged & CreateChecked<DesiredChatbot> & ReportsUnmanaged = {
  ...chatbotPlanning,
  manifest: chatbotManifest,
  read: {
    reader: chatbotReader,
    section: 'chatbots',
    reread: rereadChatbot,
  },
  handlers: chatbotHandlers,
  listing: chatbotList,
  findingCodes: CHATBOT_FINDING_CODES,
  findings: (address, l, env) => chatbotFindings(address, l, env.now, env.opts),
  exporter: chatbotExporter,
  survey: {
    list: '/chatbot',
    states: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '검수완료(수정)', '승인대기(수정)'],
    // A room's unset fields are looked at in its detail: the list leaves more out.
    unset: { fields: ['groupId', 'botAgencyId', 'approvalReason', 'approvalDate', 'webhook', 'botTcPage', 'subDescr'], form: 'absent', detail: (item) => `/chatbot/${encodeURIComponent(String(item.chatbotId))}` },
  },
};

export { CHATBOT_UPDATABLE } from './kind.js';
export type * from './types.js';
