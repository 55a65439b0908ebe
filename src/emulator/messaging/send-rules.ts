// The send rules that follow from the sending room and from the messagebase's
// policy, apart from the checks of a request's own fields in send.ts
// (docs/decisions.md, "Rooms that cannot send" and "Messagebases that refuse
// advertising"). Each throws the agency failure it names.

import type { StoredChatbot } from '../store.js';
import { failAgency } from '../service-error.js';

/**
 * Room states a message may be sent from: 승인 (registered with the carriers),
 * and the two states of an approved room whose change waits (its registration
 * stands meanwhile). Every other state has never reached the carriers, or, for
 * 검수완료, the reference says so: "messages cannot be sent".
 */
export const SENDING_ROOM_STATES: readonly string[] = ['승인', '승인대기(수정)', '검수완료(수정)'];

/** display values of a room shown on the brand home: only such a room can receive RCS messages. */
export const ON_BRAND_HOME: readonly string[] = ['11', '01'];

/** The room may send: 40015 in a state that cannot send, 40016 when it is not shown on the brand home. */
export function checkSendingRoom(room: StoredChatbot): void {
  if (!SENDING_ROOM_STATES.includes(room.approvalResult)) failAgency('roomCannotSend', room.approvalResult);
  if (!ON_BRAND_HOME.includes(room.display)) failAgency('roomNotOnBrandHome', room.display);
}

/** The label that marks a message's text as advertising. */
export const ADVERTISING_LABEL = '(광고)';

/**
 * Advertising on a messagebase whose policy refuses it: header "1" when
 * adHeaderAllowed is false (40017); a body field whose text starts with the
 * advertising label, leading blanks aside, when adBodyAllowed is false (40021,
 * naming the field), whatever the header says.
 */
export function checkAdvertising(header: string, body: Record<string, unknown>, base: { adHeaderAllowed: boolean; adBodyAllowed: boolean }): void {
  if (header === '1' && !base.adHeaderAllowed) failAgency('advertisingRefused');
  if (base.adBodyAllowed) return;
  for (const [field, value] of Object.entries(body)) {
    if (typeof value === 'string' && value.trimStart().startsWith(ADVERTISING_LABEL)) failAgency('advertisingBodyRefused', field);
  }
}
