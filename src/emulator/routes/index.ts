// The emulator's route modules, one per resource family: each is
// `src/emulator/routes/<family>.ts`, exporting a function that gives its
// routes, and is registered here in one line (the messaging routes, which
// hold a running state of their own, are added by the server).

import type { Route } from '../router.js';
import { agencyRoutes } from './agency.js';
import { autoReplyRoutes } from './auto-replies.js';
import { brandRoutes } from './brands.js';
import { chatbotRoutes } from './chatbots.js';
import { logoRoutes } from './logos.js';
import { menuRoutes } from './menus.js';
import { miscRoutes } from './misc.js';
import { templateRoutes } from './templates.js';

/** Every route module, in the order their routes are matched. */
export const ROUTE_MODULES: readonly (() => Route[])[] = [autoReplyRoutes, logoRoutes, chatbotRoutes, menuRoutes, agencyRoutes, miscRoutes, templateRoutes, brandRoutes];

/** The routes of every registered module. */
export function serviceRoutes(): Route[] {
  return ROUTE_MODULES.flatMap((routes) => routes());
}
