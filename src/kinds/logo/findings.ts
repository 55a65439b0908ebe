// Findings about a logo's review state, for drift.

import type { Logo } from '../../api/types.js';
import { finding, type DriftOptions, type Finding } from '../../core/finding.js';
import { reviewFindings } from '../review-findings.js';

/** States in which a logo waits for the operator's review. */
const LOGO_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)', '검수시작(수정)'];

/** The codes below. */
export const LOGO_FINDING_CODES = ['LOGO_REJECTED', 'LOGO_REVIEW_PENDING', 'LOGO_REGISTRATION_PENDING', 'LOGO_NOT_APPROVED'] as const;

/**
 * Findings about a logo's review state. `managed` says whether the manifests
 * declare it: a declared logo is one the brand means to show ("in use"), so a
 * declared logo in 저장 (saved, never sent for review, or its review cancelled)
 * is LOGO_NOT_APPROVED: nothing will make it approved by itself.
 */
export function logoFindings(address: string, l: Logo, managed: boolean, now: Date, opts: DriftOptions): Finding[] {
  const what = `logo "${l.name}" (${l.fileId})`;
  const out = reviewFindings(what, address, l, now, opts, {
    rejected: 'LOGO_REJECTED',
    waiting: 'LOGO_REVIEW_PENDING',
    waitingStates: LOGO_REVIEW_WAITING,
    registration: 'LOGO_REGISTRATION_PENDING',
    fix: 'Replace the image or description as the reviewer asks, then run rcsctl apply --allow-review: the modification is reviewed again.',
  });
  if (managed && l.approvalResult === '저장') {
    out.push(
      finding(
        'LOGO_NOT_APPROVED',
        'warning',
        address,
        `${what} is declared in the manifests but is not approved and not under review (저장), so the brand cannot show it`,
        'Send it for review: change it in the manifest (or re-request review in the web console) and run rcsctl apply --allow-review.',
        { state: l.approvalResult, since: l.updateDate },
      ),
    );
  }
  return out;
}
