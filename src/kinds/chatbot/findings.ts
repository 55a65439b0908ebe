// Findings about a room's review state, for drift.

import type { ChatbotDetail } from '../../api/types.js';
import type { DriftOptions, Finding } from '../../core/finding.js';
import { reviewFindings } from '../review-findings.js';

/**
 * States in which a room waits for the operator's review. 검수시작(수정) is a logo
 * state only: the service reference lists no such room state.
 */
const ROOM_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)'];

/** The codes below. */
export const CHATBOT_FINDING_CODES = ['ROOM_REJECTED', 'ROOM_REVIEW_PENDING', 'ROOM_REGISTRATION_PENDING'] as const;

/** Findings about a room's review state. */
export function chatbotFindings(address: string, l: ChatbotDetail, now: Date, opts: DriftOptions): Finding[] {
  const what = `room ${l.chatbotId} ("${l.subTitle}")`;
  return reviewFindings(what, address, l, now, opts, {
    rejected: 'ROOM_REJECTED',
    waiting: 'ROOM_REVIEW_PENDING',
    waitingStates: ROOM_REVIEW_WAITING,
    registration: 'ROOM_REGISTRATION_PENDING',
    fix: 'Fix what the reviewer asks in the manifest, then run rcsctl apply --allow-review: updating a rejected room requests review again.',
  });
}
