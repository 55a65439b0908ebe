// The desired brand page, as the loader builds it from `brandProfile:`.

import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** A home-screen button: its type and, for every type but call, the link it opens. */
export interface DesiredHomeButton {
  type: string;
  /** The web link (`urlAction.openUrl.url`, as an auto-reply button writes it). */
  url?: string;
  /** An app to open instead when the handset has it. */
  appLink?: { packageName: string; action: string; uri: string };
}

/** The brand's own page (its home on a handset). */
export interface DesiredProfile {
  /** The account (personId) rcsctl reads and changes the page as; RCSCTL_PERSON_ID when left out. */
  account?: string;
  name: string;
  description: string;
  tel: string;
  categoryId: string;
  subCategoryId: string;
  keywords?: string;
  zipCode?: string;
  roadAddress?: string;
  detailAddress?: string;
  email?: string;
  webSiteUrl?: string;
  initTab?: string;
  initFeedItem?: string;
  templateColor?: string;
  menus?: DesiredHomeButton[];
  profileImage: LocalFile;
  backgroundImage?: LocalFile;
  source: SourceLocation;
}

/** The one key the section's single object is kept under. */
export const PROFILE_KEY = 'home';

declare module '../../manifest/types.js' {
  interface DesiredSections {
    brandProfile?: Map<string, DesiredProfile>;
  }
}
