// The desired bidirectional room, as the loader builds it from `bidirectionalRooms:`.

import type { SourceLocation } from '../../manifest/types.js';
import type { DesiredMenuItem } from '../chatbot/types.js';

/**
 * A bidirectional room, by chatbotId. A key that starts with `bot-` is a room
 * with a bidirectional ID (service chat): its own room, with a name, a reply
 * number and the room fields. Any other key is a sender-number room (declared
 * under `chatbots:`) converted by linking a bidirectional agency: only the
 * link (`botAgencyId`) is the conversion's; the room's fields stay the room's.
 * Fields left out are not managed: the live value is kept.
 */
export interface DesiredBidirectionalRoom {
  chatbotId: string;
  /** `chat` for a `bot-` key, `a2p` otherwise. */
  service: 'chat' | 'a2p';
  subTitle?: string;
  /** The reply number: an approved sender-number room of the brand (chat rooms). */
  subNum?: string;
  display?: '11' | '10' | '01' | '00';
  inputField?: 0 | 1;
  subDescr?: string;
  saftyStatusYn?: 'Y' | 'N';
  /** The bidirectional agency linked: required to convert a sender-number room, optional for a chat room. */
  botAgencyId?: string;
  /** A `bot-` room's persistent menu (the persistent menu kind's): left out, the live menu is kept; `[]`, no menu. A converted room's menu is its room's, under `chatbots:`. */
  persistentMenu?: DesiredMenuItem[];
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    bidirectionalRooms?: Map<string, DesiredBidirectionalRoom>;
  }
}
