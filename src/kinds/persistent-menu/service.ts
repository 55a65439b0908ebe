// Persistent menus and the service: a menu is read with its room (no reading
// of its own), re-read through the room, and sent whole.

import { isServiceError, OutcomeUnknownError } from '../../api/index.js';
import type { PersistentMenuRequestItem } from '../../contract/wire.js';
import { keyOf, resolveRefs } from '../../core/refs.js';
import type { Step } from '../../core/step.js';
import { mismatch, tolerate } from '../apply-helpers.js';
import type { Handler, HandlerEnv } from '../resource-kind.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked", or as "a menu exists already". */
export const MENU_CODES = { noChange: ERRORS.noChanges.code, invalidMenu: ERRORS.invalidMenuFormat.code, menuExists: ERRORS.notAllowedModification.code } as const;

/**
 * The menu handlers: a menu is sent whole (POST on a room without one, PUT to
 * replace it, DELETE), addressed by its room's id, the key of its address.
 */
export const menuHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    if (step.op !== 'create') throw mismatch(step);
    const chatbotId = keyOf(step);
    const items = menuItems(step.request, env);
    try {
      await env.client.menus.create(env.brand, chatbotId, items);
    } catch (err) {
      // A lost answer or a menu made since the plan: PUT is idempotent and replaces the whole menu.
      if (!(err instanceof OutcomeUnknownError) && !isServiceError(err, MENU_CODES.invalidMenu) && !isServiceError(err, MENU_CODES.menuExists)) throw err;
      await tolerate(env.client.menus.replace(env.brand, chatbotId, items), [MENU_CODES.noChange]);
      return { id: chatbotId, note: 'replaced after an unclear create' };
    }
    return { id: chatbotId };
  },
  update: async (step, env) => {
    if (step.op !== 'update') throw mismatch(step);
    await tolerate(env.client.menus.replace(env.brand, step.liveId, menuItems(step.request, env)), [MENU_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    if (step.op !== 'delete') throw mismatch(step);
    await tolerate(env.client.menus.delete(env.brand, step.liveId), [MENU_CODES.noChange]);
    return {};
  },
};

/** The menu a step sends, with the ids of auto-replies created earlier in the run filled in. */
function menuItems(request: unknown, env: HandlerEnv): PersistentMenuRequestItem[] {
  return resolveRefs((request as { persistentMenu: { menu: PersistentMenuRequestItem[] } }).persistentMenu.menu, env.ids);
}
