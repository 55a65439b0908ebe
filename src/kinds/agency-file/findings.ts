// Findings about an agency file's sendable window (D+365), for drift.

import type { AgencyFileInfo } from '../../api/types.js';
import { finding, type DriftOptions, type Finding } from '../../core/finding.js';
import { parseServiceTime } from '../../util/time.js';
import { DAY_MS } from '../review-findings.js';

/** The codes below. */
export const AGENCY_FILE_FINDING_CODES = ['AGENCY_FILE_EXPIRED', 'AGENCY_FILE_EXPIRING'] as const;

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
