// Auto-reply files back to a manifest: only those some body uses (the service
// cannot list the others), each downloaded under images/.

import type { AutoReplyFile } from '../../api/types.js';
import { localName } from '../../util/upload-name.js';
import { assignHandles } from '../handles.js';
import type { KindExporter } from '../resource-kind.js';

/** The `files:` section. */
export const fileExporter: KindExporter<AutoReplyFile> = {
  section: 'files',
  handles: (files) => assignHandles(files, (f) => f.fileId, (f) => localName(f.fileName).stem, 'file'),
  entries(files, ctx) {
    const out: Record<string, unknown> = {};
    const handleOf = (f: AutoReplyFile): string => ctx.handle('file', f.fileId) as string;
    for (const f of [...files].sort((a, b) => handleOf(a).localeCompare(handleOf(b)))) {
      const path = ctx.image(f.fileName, f.url, 'images');
      out[handleOf(f)] = { path };
      if (localName(f.fileName).sha12 === undefined) {
        ctx.note(`file ${f.fileName} was not uploaded by rcsctl; the first apply uploads it once more under a content-addressed name`);
      }
    }
    return out;
  },
};
