// The desired logo, as the loader builds it from `logos:`.

import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** A brand logo. */
export interface DesiredLogo {
  handle: string;
  /** Pinned fileId; when set it is the identity and `name` may change. */
  fileId?: string;
  name: string;
  description?: string;
  file: LocalFile;
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    logos: Map<string, DesiredLogo>;
  }
}
