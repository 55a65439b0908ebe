// Customer-response statistics (GET /statQuery/persistentMenu/{brandId}, the
// public OpenAPI document): how often a room's menu items, and the buttons and
// chips of the auto-replies they send, were pressed, a day a row. Read-only;
// plan shows the figures beside what a step removes or changes.

import { results } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { API_PREFIX } from './resource.js';
import { arr, num, obj, opt, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';

/** A button or chip of the auto-reply a menu item sends, or a sub-menu item, with its presses. */
export interface SubStat {
  postbackId?: string;
  menuType?: string;
  messagebaseId?: string;
  reactionType?: string;
  cardNum?: number;
  buttonNum?: number;
  actionType?: string;
  title?: string;
  clickCount?: number;
}

/** A menu item with its presses on one day. */
export interface MenuStat {
  postbackId: string;
  menuType: string;
  actionType?: string;
  title: string;
  clickCount?: number;
  subList?: SubStat[];
}

/** One day of a room's menu statistics. */
export interface MenuStatDay {
  statDate: string;
  brandId?: string;
  chatbotId?: string;
  menuList: MenuStat[];
}

/** Client methods for statistics. */
export interface StatsApi {
  /** A room's menu presses per day from `startDate` to `endDate` (yyyymmdd, at most 31 days). */
  menu(brand: BrandRef, chatbotId: string, startDate: string, endDate: string): Promise<MenuStatDay[]>;
}

const subStat = obj({ postbackId: opt(str), menuType: opt(str), messagebaseId: opt(str), reactionType: opt(str), cardNum: opt(num), buttonNum: opt(num), actionType: opt(str), title: opt(str), clickCount: opt(num) });
const menuStat = obj({ postbackId: str, menuType: str, actionType: opt(str), title: str, clickCount: opt(num), subList: opt(arr(subStat)) });
const menuDay = obj({ statDate: str, brandId: opt(str), chatbotId: opt(str), menuList: arr(menuStat) });

/** The statistics methods over `transport`. */
export function statsApi(transport: Transport): StatsApi {
  return {
    async menu(brand, chatbotId, startDate, endDate) {
      const label: OperationLabel = { operation: 'read statistics', entity: `menu of chatbot ${chatbotId}` };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/statQuery/persistentMenu/${encodeURIComponent(brand.id)}`, query: { startDate, endDate, chatbotId }, brand, label });
      return results<MenuStatDay>(res, menuDay, label);
    },
  };
}
