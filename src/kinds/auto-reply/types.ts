// The desired auto-reply, as the loader builds it from `autoReplies:`.

import type { Action } from '../../api/types.js';
import type { SourceLocation } from '../../manifest/types.js';

/** A body value: literal text, or a reference to a file handle (`media: { file: hero }`). */
export type DesiredBodyValue = string | { file: string };

/** A reply in a button or chip: a link to a local handle or a pinned service id, or, with neither, a chatbot answer. */
export interface DesiredReply {
  /** Local handle of the target auto-reply. */
  autoReply?: string;
  /** Service id of an auto-reply outside the manifest (lint warns). */
  autoReplyMsgId?: string;
  displayText?: string;
  /** Postback data the user set (sent to the agency when tapped). */
  postback?: { data: string };
}

/** A suggestion (button or chip): an action, or a reply link. */
export interface DesiredSuggestion {
  action?: Action;
  reply?: DesiredReply;
}

/** An auto-reply message. */
export interface DesiredAutoReply {
  handle: string;
  /** Pinned autoReplyMsgId; when set it is the identity and `name` may change. */
  id?: string;
  name: string;
  messagebaseId: string;
  copyAllowed?: boolean;
  body: Record<string, DesiredBodyValue>;
  buttons?: { suggestions?: DesiredSuggestion[] }[];
  chipList?: DesiredSuggestion[];
  source: SourceLocation;
}

declare module '../../manifest/types.js' {
  interface DesiredSections {
    autoReplies: Map<string, DesiredAutoReply>;
  }
}
