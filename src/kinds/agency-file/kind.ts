// Agency message files (`/ag/1.2/file`), the pure part: identified by the user-chosen fileId.
// The service can register and report a file but never change one: a change
// is shown blocked, with the way out (a new fileId).

import type { AgencyFileInfo } from '../../api/types.js';
import { NO_GATE, stepFile } from '../../core/step.js';
import { matchById } from '../match.js';
import type { Drawn, KindPlanning } from '../resource-kind.js';
import type { DesiredAgencyFile } from './types.js';

/** The agency file kind's pure part. */
export const agencyFilePlanning: KindPlanning<DesiredAgencyFile, AgencyFileInfo, 'agencyFile'> & Drawn<DesiredAgencyFile> = {
  name: 'agencyFile',
  label: 'agency file',
  drawing: { colour: ['#eeeeee', '#555555'], name: (d) => d.file.relPath },

  desired: (brand) => [...brand.agencyFiles.values()],
  live: (live) => [...live.agencyFiles.values()].filter((f): f is AgencyFileInfo => f !== null),
  identity: {
    key: (d) => d.fileId,
    desiredName: (d) => d.fileId,
    liveId: (l) => l.fileId,
    liveName: (l) => l.fileId,
    liveState: (l) => l.status,
  },

  diff: {
    // The service cannot list agency files: only those the manifests name are read, so nothing is extra.
    match: (desired, live) => ({ ...matchById(desired, live, (d) => d.fileId, (l) => l.fileId), extra: [] }),
    // The service reports no content hash, so only these fields can be compared.
    normaliseLive: (l) => ({ usageType: l.usageType, mimeType: l.mimeType }),
    normaliseDesired: (d) => ({ usageType: d.usageType, mimeType: d.mimeType }),
    createStep: (d, _ctx, seed) => ({
      ...seed,
      op: 'create',
      request: { fileId: d.fileId, usageType: d.usageType, mimeType: d.mimeType, ...(d.messagebaseId ? { messagebaseId: d.messagebaseId } : {}) },
      file: stepFile(d.file),
    }),
    updateStep: (d, l, _ctx, seed) => ({ ...seed, op: 'update', liveId: l.fileId, request: { fileId: d.fileId } }),
  },

  gates: {
    create: () => NO_GATE,
    update: (l) => ({ type: 'blocked', state: l.status, reason: 'a registered agency file cannot be changed; register the new content under a new fileId' }),
    delete: () => NO_GATE,
  },
};
