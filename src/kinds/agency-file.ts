// Agency message files (`/ag/1.2/file`), identified by the user-chosen fileId.
// The service can register and report a file but never change one: a change
// is shown blocked, with the way out (a new fileId).

import type { AgencyFileInfo } from '../api/types.js';
import type { DesiredAgencyFile } from '../manifest/types.js';
import { NO_GATE, stepFile, type ResourceKind } from './kind.js';

/** The agency file kind. */
export const agencyFileKind: ResourceKind<DesiredAgencyFile, AgencyFileInfo> = {
  name: 'agencyFile',
  label: 'agency file',
  reportsUnmanaged: false,

  desired: (brand) => [...brand.agencyFiles.values()],
  live: (live) => [...live.agencyFiles.values()].filter((f): f is AgencyFileInfo => f !== null),
  key: (d) => d.fileId,
  desiredName: (d) => d.fileId,
  liveId: (l) => l.fileId,
  liveName: (l) => l.fileId,
  liveState: (l) => l.status,

  match(desired, live) {
    const byId = new Map(live.map((l) => [l.fileId, l]));
    const pairs: [DesiredAgencyFile, AgencyFileInfo][] = [];
    const missing: DesiredAgencyFile[] = [];
    for (const d of desired) {
      const l = byId.get(d.fileId);
      if (l === undefined) missing.push(d);
      else pairs.push([d, l]);
    }
    return { pairs, missing, extra: [], problems: [] };
  },

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

  gates: {
    create: () => NO_GATE,
    update: (l) => ({ type: 'blocked', state: l.status, reason: 'a registered agency file cannot be changed; register the new content under a new fileId' }),
    delete: () => NO_GATE,
  },
  liveRefs: () => [],
};
