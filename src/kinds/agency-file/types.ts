// The desired agency file, as the loader builds it from `agencyFiles:`.

import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** An agency message file (`/ag/1.2/file`), identified by its user-chosen fileId. */
export interface DesiredAgencyFile {
  fileId: string;
  usageType: 'send';
  mimeType: string;
  messagebaseId?: string;
  file: LocalFile;
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    agencyFiles: Map<string, DesiredAgencyFile>;
  }
}
