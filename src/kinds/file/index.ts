// The auto-reply file kind: its whole life in this folder.
//   kind.ts      identity by content-addressed upload name (pure)
//   service.ts   reading (from the auto-replies' media fields), re-reading, upload
//   export.ts    live files back to `files:`
//   manifest.ts  the `files:` section: builder and lint rules
//   schema.ts    its JSON Schema fragment;  types.ts  its desired shape

import type { AutoReplyFile } from '../../api/types.js';
import type { Drawn, Exportable, Previewable, ResourceKind, Uploaded } from '../resource-kind.js';
import { fileExporter } from './export.js';
import { filePlanning } from './kind.js';
import { fileManifest } from './manifest.js';
import { fileHandlers, fileReader, rereadFile } from './service.js';
import type { DesiredFile } from './types.js';

declare module '../../core/live.js' {
  interface LiveSections {
    /** Auto-reply files known from the media fields of live auto-replies, by fileId. */
    files: Map<string, AutoReplyFile>;
  }
}

/** The auto-reply file kind. */
export const fileKind: ResourceKind<DesiredFile, AutoReplyFile, 'file'> & Previewable<DesiredFile> & Exportable<AutoReplyFile> & Drawn<DesiredFile> & Uploaded = {
  ...filePlanning,
  manifest: fileManifest,
  read: {
    reader: fileReader,
    section: 'files',
    reread: rereadFile,
  },
  handlers: fileHandlers,
  exporter: fileExporter,
};

export type * from './types.js';
