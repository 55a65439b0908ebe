// Findings about the brand's own review, for drift: rejected (with the
// operator's reason), waiting for review, or past review and waiting for the
// carriers.

import type { DriftOptions, Finding } from '../../core/finding.js';
import { reviewFindings } from '../review-findings.js';
import type { LiveProfile } from './kind.js';

/** States in which the brand waits for the operator's review. */
const BRAND_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)', '검수시작(수정)'];

/** The codes below. */
export const PROFILE_FINDING_CODES = ['BRAND_REJECTED', 'BRAND_REVIEW_PENDING', 'BRAND_REGISTRATION_PENDING'] as const;

/** Findings about the brand's review state. */
export function profileFindings(address: string, l: LiveProfile, now: Date, opts: DriftOptions): Finding[] {
  const what = `brand "${l.name}" (${l.brandId})`;
  return reviewFindings(what, address, { approvalResult: l.status, approvalReason: l.approvalReason ?? null, updateDate: l.updateDate ?? '' }, now, opts, {
    rejected: 'BRAND_REJECTED',
    waiting: 'BRAND_REVIEW_PENDING',
    waitingStates: BRAND_REVIEW_WAITING,
    registration: 'BRAND_REGISTRATION_PENDING',
    fix: 'Change the name or profile image as the operator asks, then run rcsctl apply --allow-review: the modification is reviewed again.',
  });
}
