// The desired auto-reply file, as the loader builds it from `files:`.

import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** An auto-reply image file declared under `files:`. */
export interface DesiredFile {
  handle: string;
  file: LocalFile;
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    files: Map<string, DesiredFile>;
  }
}
