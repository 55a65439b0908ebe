// The emulator's route modules, one per resource family: each is
// `src/emulator/routes/<family>.ts`, exporting its routes and, for a family
// with state of its own, its per-brand state, seed section and review moves
// (src/emulator/module.ts), and is registered here in one line (the messaging
// routes, which hold a running state of their own, are added by the server).

import type { EmulatorModule } from '../module.js';
import type { Route } from '../router.js';
import { agencyRoutes } from './agency.js';
import { autoReplyRoutes } from './auto-replies.js';
import { bidirectionalRoutes } from './bidirectional.js';
import { brandModule } from './brands.js';
import { chatbotRoutes } from './chatbots.js';
import { layoutModule } from './layouts.js';
import { logoRoutes } from './logos.js';
import { menuRoutes } from './menus.js';
import { miscRoutes } from './misc.js';
import { privilegeModule } from './privileges.js';
import { statsModule } from './stats.js';
import { templateRoutes } from './templates.js';

/** Every route module, in the order their routes are matched. */
export const ROUTE_MODULES: readonly EmulatorModule[] = [
  { routes: autoReplyRoutes },
  { routes: logoRoutes },
  { routes: chatbotRoutes },
  { routes: bidirectionalRoutes },
  { routes: menuRoutes },
  { routes: agencyRoutes },
  { routes: miscRoutes },
  { routes: templateRoutes },
  brandModule,
  statsModule,
  privilegeModule,
  layoutModule,
];

/** The routes of every registered module. */
export function serviceRoutes(): Route[] {
  return ROUTE_MODULES.flatMap((m) => m.routes());
}

/** The admin routes of every registered module. */
export function moduleAdminRoutes(): Route[] {
  return ROUTE_MODULES.flatMap((m) => m.adminRoutes?.() ?? []);
}
