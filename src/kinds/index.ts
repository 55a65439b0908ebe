// The registry of resource kinds. The planner, applier, drift and export
// iterate this list; its order is the order creates and updates run in
// (src/plan/order.ts derives the rest from references).

import { agencyFileKind } from './agency-file.js';
import { autoReplyKind } from './auto-reply.js';
import { chatbotKind } from './chatbot.js';
import { fileKind } from './file.js';
import type { AnyKind } from './kind.js';
import { logoKind } from './logo.js';
import { persistentMenuKind } from './persistent-menu.js';
import type { KindName } from '../plan/types.js';

/** Every kind, in dependency order: what others point at comes first. */
export const KINDS: readonly AnyKind[] = [fileKind, agencyFileKind, logoKind, chatbotKind, autoReplyKind, persistentMenuKind];

/** The kind named `name`; throws on an unknown name (a plan file from elsewhere). */
export function kindByName(name: KindName | string): AnyKind {
  const kind = KINDS.find((k) => k.name === name);
  if (kind === undefined) throw new Error(`unknown resource kind "${name}"`);
  return kind;
}

export { agencyFileKind, autoReplyKind, chatbotKind, fileKind, logoKind, persistentMenuKind };
