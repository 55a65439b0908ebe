// Auto-reply image files, the pure part: content-addressed. The key is the upload name
// `<stem>-<sha256 first 12>.<ext>`, so an unchanged image is never uploaded
// again, a changed one always is, and equal content is uploaded once. The
// service has no delete endpoint: live files are never pruned or reported.

import type { AutoReplyFile } from '../../api/types.js';
import { NO_GATE, stepFile } from '../../core/step.js';
import { MEDIA_FIELD } from '../../spec/media.js';
import { matchById } from '../match.js';
import type { Drawn, KindPlanning, Previewable, Uploaded } from '../resource-kind.js';
import type { DesiredFile } from './types.js';

/** The auto-reply file kind's pure part. */
export const filePlanning: KindPlanning<DesiredFile, AutoReplyFile, 'file'> & Previewable<DesiredFile> & Drawn<DesiredFile> & Uploaded = {
  name: 'file',
  label: 'auto-reply file',
  // Its images are what messages show by their upload name.
  preview: { files: (d) => [d.file] },
  drawing: { colour: ['#e3ecf7', '#1d3f66'] },
  // An upload shows the file itself, not its one field; the service cannot say more about a file than its name.
  createOp: 'upload',
  verified: false,

  desired(brand) {
    // Only files that some auto-reply uses, once per content.
    const used = new Set<string>();
    for (const ar of brand.autoReplies.values()) {
      for (const [field, value] of Object.entries(ar.body)) {
        if (MEDIA_FIELD.test(field) && typeof value !== 'string') used.add(value.file);
      }
    }
    const byName = new Map<string, DesiredFile>();
    for (const handle of [...used].sort()) {
      const f = brand.files.get(handle);
      if (f !== undefined && !byName.has(f.file.uploadName)) byName.set(f.file.uploadName, f);
    }
    return [...byName.values()];
  },
  live: (live) => [...live.files.values()],
  identity: {
    key: (d) => d.file.uploadName,
    // The name shown in a plan: where the file comes from (the address already holds the upload name).
    desiredName: (d) => d.file.relPath,
    liveId: (l) => l.fileId,
    liveName: (l) => l.fileName,
    liveState: () => undefined,
  },

  diff: {
    // Files are never extra: the service can neither list nor delete them.
    match: (desired, live) => ({ ...matchById(desired, live, (d) => d.file.uploadName, (l) => l.fileName), extra: [] }),
    // Same name means same content: nothing to compare.
    normaliseLive: (l) => ({ fileName: l.fileName }),
    normaliseDesired: (d) => ({ fileName: d.file.uploadName }),
    createStep: (d, _ctx, seed) => ({ ...seed, op: 'upload', file: stepFile(d.file) }),
    updateStep: () => {
      throw new Error('auto-reply files are content-addressed and never updated');
    },
  },

  gates: { create: () => NO_GATE, update: () => NO_GATE, delete: () => NO_GATE },
};
