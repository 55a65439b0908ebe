// A room's persistent menu as the manifests declare it (a part of its room's entry).

import type { DesiredChatbot, DesiredMenuItem } from '../chatbot/types.js';

/** A room's menu, desired: only rooms whose manifest has `persistentMenu`. */
export interface DesiredMenu {
  chatbotId: string;
  /** The room's subTitle in the manifest, when it names one. */
  roomName: string | undefined;
  items: DesiredMenuItem[];
  rcsReply: string | undefined;
  source: DesiredChatbot['source'];
}
