// Persistent menus and the service: a menu is read with its room (no reading
// of its own), re-read through the room, and replaced whole.

import { isServiceError, OutcomeUnknownError } from '../../api/index.js';
import type { PersistentMenuRequestItem } from '../../contract/wire.js';
import { resolveRefs } from '../../core/refs.js';
import type { Step } from '../../core/step.js';
import { mismatch, tolerate } from '../apply-helpers.js';
import type { Handler } from '../resource-kind.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked", or as "a menu exists already". */
export const MENU_CODES = { noChange: ERRORS.noChanges.code, invalidMenu: ERRORS.invalidMenuFormat.code, menuExists: ERRORS.notAllowedModification.code } as const;

/** The menu handler: POST, PUT or DELETE of the whole menu. */
export const menuHandlers: Partial<Record<Step['op'], Handler>> = {
  'menu-replace': async (step, env) => {
    if (step.op !== 'menu-replace') throw mismatch(step);
    const chatbotId = step.chatbotId;
    if (step.method === 'DELETE') {
      await tolerate(env.client.menus.delete(env.brand, chatbotId), [MENU_CODES.noChange]);
      return {};
    }
    const items = resolveRefs((step.request as { persistentMenu: { menu: PersistentMenuRequestItem[] } }).persistentMenu.menu, env.ids);
    if (step.method === 'PUT') {
      await tolerate(env.client.menus.replace(env.brand, chatbotId, items), [MENU_CODES.noChange]);
      return {};
    }
    try {
      await env.client.menus.create(env.brand, chatbotId, items);
    } catch (err) {
      // A lost answer or a menu made since the plan: PUT is idempotent and replaces the whole menu.
      if (!(err instanceof OutcomeUnknownError) && !isServiceError(err, MENU_CODES.invalidMenu) && !isServiceError(err, MENU_CODES.menuExists)) throw err;
      await tolerate(env.client.menus.replace(env.brand, chatbotId, items), [MENU_CODES.noChange]);
      return { note: 'replaced after an unclear create' };
    }
    return {};
  },
};
