// Findings about an auto-reply's registration state, for drift.

import type { AutoReplyDetail } from '../../api/types.js';
import { finding, type Finding } from '../../core/finding.js';

/** The codes below. */
export const AUTO_REPLY_FINDING_CODES = ['AUTO_REPLY_PROCESSING', 'AUTO_REPLY_SAVED'] as const;

/** Findings about an auto-reply's registration state. */
export function autoReplyFindings(address: string, l: AutoReplyDetail): Finding[] {
  switch (l.approvalResult) {
    case '처리중':
      return [
        finding(
          'AUTO_REPLY_PROCESSING',
          'error',
          address,
          `auto-reply "${l.autoReplyMsgName}" (${l.autoReplyMsgId}) is stuck in 처리중: its registration failed midway, and the service refuses every change and delete`,
          `Ask the service operator to finish or roll back registration of ${l.autoReplyMsgId}; rcsctl shows its changes as blocked until then.`,
          { state: l.approvalResult, since: l.updateDate },
        ),
      ];
    case '저장':
      return [
        finding(
          'AUTO_REPLY_SAVED',
          'warning',
          address,
          `auto-reply "${l.autoReplyMsgName}" (${l.autoReplyMsgId}) is only saved (저장): it is not registered, so it cannot be sent`,
          `Request its registration in the web console, or change it in the manifest and run rcsctl apply, which sends it for registration again.`,
          { state: l.approvalResult, since: l.updateDate },
        ),
      ];
    default:
      return [];
  }
}
