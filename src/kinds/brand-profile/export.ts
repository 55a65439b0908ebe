// The brand page back to `brandProfile:`, its images downloaded under images/profile/.

import { localName } from '../../util/upload-name.js';
import type { KindExporter } from '../resource-kind.js';
import { imageOf, liveButton, type LiveProfile } from './kind.js';

/** The `brandProfile:` section: the one page's fields (none when the page was not read). */
export const profileExporter: KindExporter<LiveProfile> = {
  section: 'brandProfile',
  unread: (live) => live.brandProfile?.unread,
  entries(live, ctx) {
    const l = live[0];
    if (l === undefined) return {};
    // Every update of the page needs a profile image (64329): a section without one would not validate, and
    // could never be applied. The page is left unmanaged until someone declares it with its image.
    if (!l.mediaUrl?.some((x) => x.typeName === 'profile')) {
      ctx.note('the brand page has no profile image, which every change of it needs; brandProfile is left out (declare it with a profileImage to manage the page)');
      return {};
    }
    const image = (typeName: 'profile' | 'background'): string | undefined => {
      const m = l.mediaUrl?.find((x) => x.typeName === typeName);
      if (m === undefined) return undefined;
      const fileName = imageOf(l, typeName) ?? m.fileId;
      if (localName(fileName).sha12 === undefined) ctx.note(`the brand ${typeName} image was not uploaded by rcsctl; the first plan shows it as changed${typeName === 'profile' ? ' (a change goes to review)' : ''}`);
      return ctx.image(fileName, m.url, 'images/profile');
    };
    const out: Record<string, unknown> = { account: l.personId, name: l.name, description: l.description, tel: l.tel, categoryId: l.categoryId, subCategoryId: l.subCategoryId };
    const optional: [string, string | null | undefined][] = [
      ['keywords', l.categoryOpt],
      ['zipCode', l.zipCode],
      ['roadAddress', l.roadAddress],
      ['detailAddress', l.detailAddress],
      ['email', l.email],
      ['webSiteUrl', l.webSiteUrl],
      ['initTab', l.initTab],
      ['initFeedItem', l.initFeedItem],
      ['templateColor', l.templateColor],
    ];
    for (const [k, v] of optional) if (v !== null && v !== undefined && v !== '') out[k] = v;
    const menus = (l.menus ?? []).map(liveButton).map((b) => ({ type: b.type, ...(b.url !== undefined ? { urlAction: { openUrl: { url: b.url } } } : {}), ...(b.appLink !== undefined ? { appLink: b.appLink } : {}) }));
    if (menus.length > 0) out.menus = menus;
    const profile = image('profile');
    if (profile !== undefined) out.profileImage = profile;
    const background = image('background');
    if (background !== undefined) out.backgroundImage = background;
    return out;
  },
};
