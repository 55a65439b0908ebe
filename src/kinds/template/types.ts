// The desired template, as the loader builds it from `templates:`.

import type { TemplateButtonGroup } from '../../api/types.js';
import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** A v2 body entry: a param's text, a param's local image, or a line under a cell row. */
export type DesiredTemplateBodyItem = { param: string; value: string } | { param: string; image: LocalFile } | { lineIndex: number };

/** A brand template (messagebase). */
export interface DesiredTemplate {
  handle: string;
  /** The user's own id (letters and digits, at most 25): the identity unless `messagebaseId` is pinned. */
  custTmpltId: string;
  /** Pinned messagebaseId; when set it is the identity. */
  messagebaseId?: string;
  tmpltName: string;
  messagebaseformId: string;
  /** A text template: the form's layout with the changes its widget policy allows. */
  formattedString?: Record<string, unknown>;
  /** An image template: the form's params. */
  body?: DesiredTemplateBodyItem[];
  buttons?: TemplateButtonGroup[];
  source: SourceLocation;
  /** Where a path inside this entry is written (`['body', 0, 'value']`), for problems found against the form. */
  locate(path: (string | number)[]): SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    templates: Map<string, DesiredTemplate>;
  }
}
