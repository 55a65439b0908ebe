// The desired layout, as the loader builds it from `layouts:`.

import type { SourceLocation } from '../../manifest/types.js';

/** A component placed in an area of a layout: its id, and the options it takes (a table's, a button's colour). */
export interface DesiredLayoutComponent {
  componentId: string;
  options?: Record<string, unknown>;
}

/** The three areas of a layout, in the service's names. */
export const LAYOUT_AREAS = ['headerComposition', 'bodyComposition', 'footerComposition'] as const;

/** One area's name. */
export type LayoutArea = (typeof LAYOUT_AREAS)[number];

/** A brand layout: a card built from the service's layout components. */
export interface DesiredLayout {
  handle: string;
  /** Pinned layoutId; when set it is the identity and `layoutName` may change. */
  layoutId?: string;
  layoutName: string;
  /** The message product: sms, lms or mms. */
  productCode: string;
  /** The sample it starts from: sent with each request, never read back (docs/decisions.md, "Layouts"). */
  sampleLayoutId?: string;
  headerComposition: DesiredLayoutComponent[];
  bodyComposition: DesiredLayoutComponent[];
  footerComposition: DesiredLayoutComponent[];
  source: SourceLocation;
  /** Where a path inside this entry is written (`['bodyComposition', 1, 'componentId']`), for problems found against the service's lists. */
  locate(path: (string | number)[]): SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    layouts?: Map<string, DesiredLayout>;
  }
}
