// The client's modules, one per resource family: each is `src/api/<family>.ts`,
// exporting a factory over the transport, and is registered here in one line.
// `RcsClient` gets a field of each name, typed by what its factory returns, so
// a new family (a new kind's endpoints) edits no other file of the client.

import { agencyFilesApi } from './agency-files.js';
import { autoRepliesApi } from './auto-replies.js';
import { bidirectionalApi } from './bidirectional.js';
import { brandsApi } from './brands.js';
import { layoutComponentsApi, messagebasesApi } from './catalogue.js';
import { chatbotsApi } from './chatbots.js';
import { layoutsApi } from './layouts.js';
import { logosApi } from './logos.js';
import { menusApi } from './menus.js';
import { privilegesApi } from './privileges.js';
import { statsApi } from './stats.js';
import { templatesApi } from './templates.js';
import type { Transport } from './transport.js';

/** Every client module by its field in `RcsClient`. */
export const API_MODULES = {
  autoReplies: autoRepliesApi,
  logos: logosApi,
  chatbots: chatbotsApi,
  menus: menusApi,
  layoutComponents: layoutComponentsApi,
  messagebases: messagebasesApi,
  agencyFiles: agencyFilesApi,
  templates: templatesApi,
  brands: brandsApi,
  statistics: statsApi,
  privileges: privilegesApi,
  bidirectional: bidirectionalApi,
  layouts: layoutsApi,
} satisfies Record<string, (transport: Transport) => object>;

/** The client's module fields: `autoReplies: AutoRepliesApi`, and so on. */
export type ApiModules = { readonly [K in keyof typeof API_MODULES]: ReturnType<(typeof API_MODULES)[K]> };

/** Each module built over one transport. */
export function buildModules(transport: Transport): ApiModules {
  return Object.fromEntries(Object.entries(API_MODULES).map(([name, make]) => [name, make(transport)])) as ApiModules;
}
