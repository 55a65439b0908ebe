// How a handset shows the brand's own page (its home): the first section of
// the brand page, whose name is the brand's, listing the rooms.

import { shortText } from '../../core/shorten.js';
import { homeHandset } from '../handset-draw.js';
import { imageOf, suggestionView, type HomeView, type RawSuggestion } from '../handset-model.js';
import type { KindPreview, ShownFile, ShownSource } from '../handset.js';

/** The brand's home page, as a handset shows it before any room (one per brand: the first declared is drawn). */
export interface ShownHome {
  name: string;
  description?: string;
  profileImage?: ShownFile;
  backgroundImage?: ShownFile;
  /** The home-screen buttons, in the auto-reply action vocabulary: `{ action }` or `{ reply }` each. */
  buttons: readonly unknown[];
  source: ShownSource;
}

/** The kind whose handsets the home lists (the rooms). */
const LISTED = 'chatbot';

/** The drawing of a kind shown as the brand's home: `shown` is what its handset draws. */
export function homePreview<D>(shown: (d: D) => ShownHome): KindPreview<D> {
  return {
    page: {
      id: 'home',
      heading: 'Brand home',
      order: 10,
      anchor: 'home',
      namesBrand: true,
      name: (d) => shown(d).name,
      handset(d, ctx) {
        const s = shown(d);
        const view: HomeView = {
          key: ctx.anchor,
          address: ctx.address,
          name: s.name,
          buttons: (s.buttons as RawSuggestion[]).map((b, i) => suggestionView(b, `buttons[${i}]`, ctx.resolvers)),
          source: ctx.where(s.source),
        };
        if (s.description !== undefined) view.description = shortText(s.description);
        if (s.profileImage !== undefined) view.profileImage = imageOf(s.profileImage, `${s.name} (profile image)`);
        if (s.backgroundImage !== undefined) view.backgroundImage = imageOf(s.backgroundImage, `${s.name} (background image)`);
        return { key: view.key, address: view.address, name: view.name, links: view.buttons, view, html: (o) => homeHandset(view, ctx.handsetsOf(LISTED), o) };
      },
    },
  };
}
