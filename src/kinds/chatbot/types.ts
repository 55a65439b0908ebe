// The desired room (and its menu items), as the loader builds it from `chatbots:`.

import type { LocalFile, SourceLocation } from '../../manifest/types.js';

/** A persistent menu item; order in the list is ordNo order (1-based). */
export interface DesiredMenuItem {
  type: 'reply' | 'feed' | 'action';
  title: string;
  /** For reply: local handle of the auto-reply. */
  autoReply?: string;
  /** For reply: service id of an auto-reply outside the manifest. */
  autoReplyMsgId?: string;
  feedId?: string;
  actionType?: 'dialerAction';
  action?: { dialerAction: { dialPhoneNumber: { phoneNumber: string; fallbackUrl?: string } } };
}

/**
 * A chatbot (room). Fields left out are not managed: the live value is kept.
 * `persistentMenu` left out leaves the live menu alone; `[]` removes it.
 */
export interface DesiredChatbot {
  chatbotId: string;
  subTitle?: string;
  subNum?: string;
  display?: '11' | '10' | '01' | '00';
  inputField?: 0 | 1;
  rcsReply?: '0' | '1';
  subDescr?: string;
  saftyStatusYn?: 'Y' | 'N';
  /** Subscription certificate, needed to register a room that does not exist yet. */
  certificate?: LocalFile;
  persistentMenu?: DesiredMenuItem[];
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    chatbots: Map<string, DesiredChatbot>;
  }
}
