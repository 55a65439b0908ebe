// Brand logos, the pure part: identity by pinned fileId or name, the
// image by content-addressed file name. Every registration or modification goes
// to operator review.

import type { Logo } from '../../api/types.js';
import { stepFile, type Gate } from '../../core/step.js';
import { compact } from '../../util/compact.js';
import { matchByIdThenName } from '../match.js';
import type { Drawn, KindPlanning, Previewable, Prunable, ReportsUnmanaged, Reviewed } from '../resource-kind.js';
import type { DesiredLogo } from './types.js';

/** States in which the service accepts a logo modification (the service reference, Logo). */
export const LOGO_MODIFIABLE = ['저장', '반려', '반려(수정)', '승인'];

/** The logo kind's pure part. */
export const logoPlanning: KindPlanning<DesiredLogo, Logo, 'logo'> & Previewable<DesiredLogo> & Drawn<DesiredLogo> & Reviewed & Prunable & ReportsUnmanaged = {
  name: 'logo',
  label: 'logo',
  reviewed: 'logo',
  // The first declared logo is every room's profile picture.
  preview: { avatar: (d) => ({ file: d.file, alt: `${d.name} (logo)` }) },
  drawing: { colour: ['#f6e3ef', '#6b1f4d'] },
  prune: 'logos',
  reportsUnmanaged: true,

  desired: (brand) => [...brand.logos.values()],
  live: (live) => live.logos,
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.name,
    liveId: (l) => l.fileId,
    liveName: (l) => l.name,
    liveState: (l) => l.approvalResult,
  },

  diff: {
    match: (desired, live) =>
      matchByIdThenName(desired, live, {
        label: 'logo',
        labelPlural: 'logos',
        address: (d) => `logo.${d.handle}`,
        pinned: (d) => d.fileId,
        name: (d) => d.name,
        liveId: (l) => l.fileId,
        liveName: (l) => l.name,
        pinKey: 'fileId',
        source: (d) => d.source,
      }),
    // compact: a missing description is absent, not `undefined` (which deep-diff would show as a change).
    normaliseLive: (l) => compact({ name: l.name, description: emptyToUndefined(l.description), file: l.fileName }),
    normaliseDesired: (d) => compact({ name: d.name, description: emptyToUndefined(d.description), file: d.file.uploadName }),
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'create', request: logoRequest(d), file: stepFile(d.file) }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l.fileId, request: logoRequest(d), file: stepFile(d.file) }),
  },

  gates: {
    create: () => ({ type: 'review', review: 'a new logo goes to operator review (승인대기) and cannot be used until approved' }),
    update(l): Gate {
      if (!LOGO_MODIFIABLE.includes(l.approvalResult)) {
        return { type: 'blocked', state: l.approvalResult, reason: `the service accepts logo changes only in ${LOGO_MODIFIABLE.join(', ')}; wait for the review to finish` };
      }
      const next = l.approvalResult === '승인' ? '승인대기(수정)' : '승인대기';
      return { type: 'review', review: `the modified logo goes back to operator review (${l.approvalResult} → ${next})` };
    },
    delete: () => ({ type: 'destructive' }),
  },
};

function logoRequest(d: DesiredLogo): { name: string; description?: string } {
  return d.description === undefined ? { name: d.name } : { name: d.name, description: d.description };
}

function emptyToUndefined(s: string | null | undefined): string | undefined {
  return s === null || s === undefined || s === '' ? undefined : s;
}
