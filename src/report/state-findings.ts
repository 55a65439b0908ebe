// Findings about the live state of resources, not their content: auto-replies
// stuck or only saved, rooms and logos rejected or waiting, logos the brand
// cannot show, and agency files near the end of their sendable window. Pure:
// the clock comes in as `now`. Each code is explained in docs/troubleshooting.md.

import type { AgencyFileInfo, AutoReplyDetail, ChatbotDetail, Logo } from '../api/types.js';
import { parseServiceTime } from '../util/time.js';
import type { DriftOptions, Finding, FindingCode, Severity } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * States in which a room waits for the operator's review. 검수시작(수정) is a logo
 * state only: the service reference lists no such room state.
 */
const ROOM_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)'];
/** States in which a logo waits for the operator's review. */
const LOGO_REVIEW_WAITING = ['승인대기', '검수시작', '승인대기(수정)', '검수시작(수정)'];
/** States in which the review is done and carrier registration is pending. */
const REGISTRATION_PENDING = ['검수완료', '검수완료(수정)'];
/** Rejected states (a rejected modification keeps the earlier approved version live). */
const REJECTED = ['반려', '반려(수정)'];

/** The troubleshooting anchor of a finding code. */
export function helpAnchor(code: FindingCode): string {
  return `docs/troubleshooting.md#${code.toLowerCase()}`;
}

/** A finding with its help link filled in. */
export function finding(code: FindingCode, severity: Severity, address: string, message: string, action: string, extra: Partial<Finding> = {}): Finding {
  return { code, severity, address, message, action, help: helpAnchor(code), ...extra };
}

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

interface ReviewCodes {
  rejected: FindingCode;
  waiting: FindingCode;
  waitingStates: readonly string[];
  registration: FindingCode;
  fix: string;
}

function reviewFindings(
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

/** Findings about an agency file's sendable window (D+365). */
export function agencyFileFindings(address: string, f: AgencyFileInfo, now: Date, opts: DriftOptions): Finding[] {
  const end = parseServiceTime(f.expiryDate).getTime();
  const daysLeft = Number.isNaN(end) ? undefined : Math.floor((end - now.getTime()) / DAY_MS);
  const expired = f.status === 'expired' || (daysLeft !== undefined && end <= now.getTime());
  const extra = { state: f.status, expiryDate: f.expiryDate, ...(daysLeft !== undefined ? { daysLeft } : {}) };
  if (expired) {
    return [
      finding(
        'AGENCY_FILE_EXPIRED',
        'error',
        address,
        `agency file ${f.fileId} can no longer be used for sending: its window ended at ${f.expiryDate}`,
        'Register the content again under a new fileId (for example with a date suffix), point your messages at it, and replace the old entry in the manifest.',
        extra,
      ),
    ];
  }
  if (daysLeft !== undefined && daysLeft <= opts.expiryWarningDays) {
    return [
      finding(
        'AGENCY_FILE_EXPIRING',
        'warning',
        address,
        `agency file ${f.fileId} can be used for sending for ${daysLeft} more day${daysLeft === 1 ? '' : 's'} (until ${f.expiryDate})`,
        'Before the window ends, register the content again under a new fileId and move your messages to it.',
        extra,
      ),
    ];
  }
  return [];
}

function wholeDays(ms: number): number | undefined {
  return Number.isNaN(ms) ? undefined : Math.max(0, Math.floor(ms / DAY_MS));
}
