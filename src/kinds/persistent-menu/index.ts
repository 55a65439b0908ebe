// The persistent menu kind: part of its room (read, re-read and exported with
// it), planned and applied on its own.
//   kind.ts      identity, normalisation, the menu request, gates (pure)
//   service.ts   the replace handler and its codes
//   manifest.ts  the menu item definition and lint rules;  schema.ts  its fragment

import type { ChatbotDetail } from '../../api/types.js';
import { rereadChatbot } from '../chatbot/service.js';
import type { Previewable, ResourceKind } from '../resource-kind.js';
import { persistentMenuPlanning, type DesiredMenu } from './kind.js';
import { menuManifest } from './manifest.js';
import { MENU_CODES, menuHandlers } from './service.js';

/** The persistent menu kind. */
export const persistentMenuKind: ResourceKind<DesiredMenu, ChatbotDetail, 'persistentMenu'> & Previewable<DesiredMenu> = {
  ...persistentMenuPlanning,
  manifest: menuManifest,
  reread: rereadChatbot,
  codes: MENU_CODES,
  handlers: menuHandlers,
};

export type { DesiredMenu } from './kind.js';
