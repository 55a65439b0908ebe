// Findings about review states, shared by the kinds that go to operator review
// (rooms and logos): rejected, waiting (late after a threshold), or passed and
// waiting for carrier registration. Pure: the clock comes in as `now`.

import { finding, type DriftOptions, type Finding, type FindingCode } from '../core/finding.js';
import { parseServiceTime } from '../util/time.js';

/** A day in milliseconds. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** States in which the review is done and carrier registration is pending. */
const REGISTRATION_PENDING = ['검수완료', '검수완료(수정)'];
/** Rejected states (a rejected modification keeps the earlier approved version live). */
const REJECTED = ['반려', '반려(수정)'];

export interface ReviewCodes {
  rejected: FindingCode;
  waiting: FindingCode;
  /** The states in which this kind waits for the operator's review. */
  waitingStates: readonly string[];
  registration: FindingCode;
  fix: string;
}

export function reviewFindings(
  what: string,
  address: string,
  l: { approvalResult: string; approvalReason: string | null; updateDate: string },
  now: Date,
  opts: DriftOptions,
  codes: ReviewCodes,
): Finding[] {
  const state = l.approvalResult;
  if (REJECTED.includes(state)) {
    const reason = l.approvalReason !== null && l.approvalReason !== '' ? `: "${l.approvalReason}"` : ' (no reason given)';
    const modification = state === '반려(수정)' ? ' (the modification was rejected; the earlier approved version stays live)' : '';
    return [
      finding(codes.rejected, 'error', address, `${what} was rejected (${state})${modification}${reason}`, codes.fix, {
        state,
        approvalReason: l.approvalReason,
        since: l.updateDate,
      }),
    ];
  }
  if (codes.waitingStates.includes(state)) {
    const ageDays = wholeDays(now.getTime() - parseServiceTime(l.updateDate).getTime());
    const late = ageDays !== undefined && ageDays > opts.reviewWarningDays;
    const age = ageDays === undefined ? 'for an unknown time' : `for ${ageDays} day${ageDays === 1 ? '' : 's'}`;
    return [
      finding(
        codes.waiting,
        late ? 'warning' : 'info',
        address,
        `${what} has been waiting for review (${state}) ${age}`,
        late
          ? `The review has taken longer than ${opts.reviewWarningDays} days: ask the service operator about it; changes to it are blocked until the review ends.`
          : 'Nothing to do yet: the operator reviews it; changes to it are blocked until the review ends.',
        { state, since: l.updateDate, ...(ageDays !== undefined ? { ageDays } : {}) },
      ),
    ];
  }
  if (REGISTRATION_PENDING.includes(state)) {
    return [
      finding(
        codes.registration,
        'info',
        address,
        `${what} passed review (${state}); registration with the carriers is pending`,
        'Nothing to do: it becomes 승인 when the carriers confirm; if that takes more than a few days, ask the service operator.',
        { state, since: l.updateDate },
      ),
    ];
  }
  return [];
}

export function wholeDays(ms: number): number | undefined {
  return Number.isNaN(ms) ? undefined : Math.max(0, Math.floor(ms / DAY_MS));
}
