// Persistent menus of bidirectional rooms (docs/decisions.md, "Persistent menus").

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { brandPath, seg } from './resource.js';
import { any, bool, obj, opt, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { MenuPauseResult, PersistentMenuRequestItem } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** Client methods for a room's persistent menu. */
export interface MenusApi {
  /** Create the menu (at most 5 items); a POST, never retried. */
  create(brand: BrandRef, chatbotId: string, items: PersistentMenuRequestItem[]): Promise<void>;
  /** Replace the whole menu. */
  replace(brand: BrandRef, chatbotId: string, items: PersistentMenuRequestItem[]): Promise<void>;
  /** Remove the menu. */
  delete(brand: BrandRef, chatbotId: string): Promise<void>;
  /** Pause (true) or resume (false) the menu. */
  pause(brand: BrandRef, chatbotId: string, isPause: boolean): Promise<MenuPauseResult>;
}

// docs/decisions.md, "Persistent menus": pause answers `[{chatbotId, isPause, pausedDate | resumeDate}]`.
const pauseResult = obj({ chatbotId: str, isPause: bool, pausedDate: opt(str), resumeDate: opt(str) });

function menuPath(brand: BrandRef, chatbotId: string, rest = ''): string {
  return brandPath(brand, `/bidirectional/chatbot/${seg(chatbotId)}/persistentmenu${rest}`);
}

/** The menu methods over `transport`. */
export function menusApi(transport: Transport): MenusApi {
  const label = (operation: string, chatbotId: string): OperationLabel => ({ operation, entity: `persistent menu of chatbot ${chatbotId}` });
  // docs/decisions.md, "Persistent menus": body `{persistentMenu:{menu:[item...]}}`, result `[{chatbotId}]`.
  const body = (items: PersistentMenuRequestItem[]): unknown => ({ persistentMenu: { menu: items } });
  return {
    async create(brand, chatbotId, items) {
      const l = label('create', chatbotId);
      const res = await transport.send({ method: 'POST', path: menuPath(brand, chatbotId), brand, json: body(items), label: l });
      results(res, any, l);
    },
    async replace(brand, chatbotId, items) {
      const l = label('replace', chatbotId);
      const res = await transport.send({
        method: 'PUT',
        path: menuPath(brand, chatbotId),
        brand,
        json: body(items),
        label: l,
        successAfterRetry: [ERRORS.noChanges.code],
      });
      if (res.acceptedCode === undefined) results(res, any, l);
    },
    async delete(brand, chatbotId) {
      const l = label('delete', chatbotId);
      // The service answers 64323 to deleting an absent menu: after a retry, the first attempt did it.
      const res = await transport.send({ method: 'DELETE', path: menuPath(brand, chatbotId), brand, label: l, successAfterRetry: [ERRORS.noChanges.code] });
      if (res.acceptedCode === undefined) results(res, any, l);
    },
    async pause(brand, chatbotId, isPause) {
      const l = label(isPause ? 'pause' : 'resume', chatbotId);
      const res = await transport.send({
        method: 'PUT',
        path: menuPath(brand, chatbotId, '/pause'),
        brand,
        json: { isPause },
        label: l,
        successAfterRetry: [ERRORS.noChanges.code],
      });
      if (res.acceptedCode !== undefined) return { chatbotId, isPause };
      return single<MenuPauseResult>(res, pauseResult, l);
    },
  };
}
