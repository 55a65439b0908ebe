// Findings about a layout's state, for drift: its registration stuck part-way
// (처리중), only saved in the console (저장), or paused.

import type { Layout } from '../../api/layouts.js';
import { finding, type Finding } from '../../core/finding.js';
import { LAYOUT_STUCK } from './kind.js';

/** The codes below. */
export const LAYOUT_FINDING_CODES = ['LAYOUT_PROCESSING', 'LAYOUT_SAVED', 'LAYOUT_PAUSED'] as const;

/** Findings about a layout's state; `managed` says whether the manifests declare it (a paused layout nobody declares is no one's concern). */
export function layoutFindings(address: string, l: Layout, managed: boolean): Finding[] {
  const what = `layout "${l.layoutName}" (${l.layoutId})`;
  const out: Finding[] = [];
  if (l.approvalResult === LAYOUT_STUCK) {
    out.push(
      finding(
        'LAYOUT_PROCESSING',
        'error',
        address,
        `${what} is stuck in ${LAYOUT_STUCK}: its registration with the carriers stopped part-way, and the service refuses every change and delete of it`,
        `Ask the service operator to finish or roll back the registration of ${l.layoutId}; rcsctl shows its changes as blocked until then.`,
        { state: l.approvalResult, since: l.updateDate },
      ),
    );
  } else if (l.approvalResult === '저장') {
    out.push(
      finding(
        'LAYOUT_SAVED',
        'warning',
        address,
        `${what} is only saved (저장): it is not registered with the carriers, so no message can be sent with it`,
        'Request its registration in the web console, or change it in the manifest and run rcsctl apply: a modification registers it.',
        { state: l.approvalResult, since: l.updateDate },
      ),
    );
  }
  if (managed && l.status === 'pause') {
    out.push(finding('LAYOUT_PAUSED', 'warning', address, `${what} is declared in the manifests but paused (status pause): messages cannot use it`, 'Resume it in the web console (the service has no call for it).', { state: l.status, since: l.updateDate }));
  }
  return out;
}
