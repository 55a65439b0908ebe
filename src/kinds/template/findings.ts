// Findings about a template's review state, for drift: rejected (with the
// reviewer's reason), waiting for review (a warning after --review-warning
// days), approved and waiting for the carriers, or declared but only saved.

import type { TemplateDetail } from '../../api/types.js';
import { finding, type DriftOptions, type Finding } from '../../core/finding.js';
import { reviewFindings } from '../review-findings.js';

/** States in which a template waits for the operator's review (the public document's template states). */
const TEMPLATE_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)', '검수시작(수정)'];

/** The codes below. */
export const TEMPLATE_FINDING_CODES = ['TEMPLATE_REJECTED', 'TEMPLATE_REVIEW_PENDING', 'TEMPLATE_REGISTRATION_PENDING', 'TEMPLATE_NOT_APPROVED'] as const;

/** Findings about a template's review state; `managed` says whether the manifests declare it. */
export function templateFindings(address: string, l: TemplateDetail, managed: boolean, now: Date, opts: DriftOptions): Finding[] {
  const what = `template "${l.tmpltName}" (${l.messagebaseId})`;
  const out = reviewFindings(what, address, { ...l, approvalReason: l.approvalReason ?? null }, now, opts, {
    rejected: 'TEMPLATE_REJECTED',
    waiting: 'TEMPLATE_REVIEW_PENDING',
    waitingStates: TEMPLATE_REVIEW_WAITING,
    registration: 'TEMPLATE_REGISTRATION_PENDING',
    fix: 'Change the template as the reviewer asks, then run rcsctl apply --allow-review: the modification is reviewed again.',
  });
  if (managed && l.approvalResult === '저장') {
    out.push(
      finding(
        'TEMPLATE_NOT_APPROVED',
        'warning',
        address,
        `${what} is declared in the manifests but is only saved (저장): not approved and not under review, so nothing can be sent with it`,
        'Send it for review: change it in the manifest and run rcsctl apply --allow-review (a cancelled review leaves a template in 저장).',
        { state: l.approvalResult, since: l.updateDate },
      ),
    );
  }
  return out;
}
