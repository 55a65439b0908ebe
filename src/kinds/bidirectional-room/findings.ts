// Findings about a room with a bidirectional ID's review state, for drift. A
// converted sender-number room's state is its room's: the chatbot kind reports it.

import type { ChatbotDetail } from '../../api/types.js';
import type { DriftOptions, Finding } from '../../core/finding.js';
import { reviewFindings } from '../review-findings.js';

/** States in which a room waits for the operator's review (the room states; docs/decisions.md, "Bidirectional rooms"). */
const WAITING = ['승인대기', '검수시작', '승인대기(수정)'];

/** The codes below. */
export const BIDI_FINDING_CODES = ['BIDI_ROOM_REJECTED', 'BIDI_ROOM_REVIEW_PENDING', 'BIDI_ROOM_REGISTRATION_PENDING'] as const;

/** Findings about a room with a bidirectional ID's review state. */
export function bidirectionalFindings(address: string, l: ChatbotDetail, now: Date, opts: DriftOptions): Finding[] {
  if (l.service !== 'chat') return [];
  return reviewFindings(`bidirectional room ${l.chatbotId} ("${l.subTitle}")`, address, l, now, opts, {
    rejected: 'BIDI_ROOM_REJECTED',
    waiting: 'BIDI_ROOM_REVIEW_PENDING',
    waitingStates: WAITING,
    registration: 'BIDI_ROOM_REGISTRATION_PENDING',
    fix: 'Fix what the reviewer asks in the manifest, then run rcsctl apply --allow-review: changing a rejected room requests review again.',
  });
}
