// The desired state of a brand, as the manifest loader produces it and the
// planner consumes it. Local handles are kept as written; the kinds resolve
// them to service ids at plan time.

import type { Action } from '../api/types.js';

/** Severity of a diagnostic. */
export type Severity = 'error' | 'warning';

/** A problem found in a manifest, with a stable code and a source position. */
export interface Diagnostic {
  /** Stable code, listed in docs/diagnostics.md (e.g. `RCS1001`). */
  code: string;
  severity: Severity;
  /** Manifest file, as given on the command line or found in a directory. */
  file: string;
  /** 1-based line and column of the fault; 0 when there is none (a path given on the command line). */
  line: number;
  col: number;
  /** JSON path of the node, e.g. `/autoReplies/hours/body/title`. */
  path: string;
  message: string;
  /** A YAML error that follows from an earlier one in the same document; the text view folds these unless --verbose. */
  followOn?: boolean;
}

/** Where a resource was declared. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
  /** JSON path of the resource node. */
  path: string;
}

/** A local file referenced by a manifest, read, checked and hashed. */
export interface LocalFile {
  /** Absolute path. */
  absPath: string;
  /** The `path:` value as written in the manifest. */
  relPath: string;
  bytes: Buffer;
  /** Lower-case hex SHA-256 of the content. */
  sha256: string;
  size: number;
  /** Lower-case extension without the dot (`png`). */
  extension: string;
  mimeType: string;
  /** Content-addressed upload name: `<stem>-<sha256 first 12>.<ext>`. */
  uploadName: string;
  /** Image dimensions, when the file is an image. */
  width?: number;
  height?: number;
}

/** An auto-reply image file declared under `files:`. */
export interface DesiredFile {
  handle: string;
  file: LocalFile;
  source: SourceLocation;
}

/** A body value: literal text, or a reference to a file handle (`media: { file: hero }`). */
export type DesiredBodyValue = string | { file: string };

/** A reply link in a button or chip: to a local handle or to a pinned service id. */
export interface DesiredReply {
  /** Local handle of the target auto-reply. */
  autoReply?: string;
  /** Service id of an auto-reply outside the manifest (lint warns). */
  autoReplyMsgId?: string;
  displayText?: string;
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

/** A brand logo. */
export interface DesiredLogo {
  handle: string;
  /** Pinned fileId; when set it is the identity and `name` may change. */
  fileId?: string;
  name: string;
  description?: string;
  file: LocalFile;
  source: SourceLocation;
}

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

/** An agency message file (`/ag/1.2/file`), identified by its user-chosen fileId. */
export interface DesiredAgencyFile {
  fileId: string;
  usageType: 'send';
  mimeType: string;
  messagebaseId?: string;
  file: LocalFile;
  source: SourceLocation;
}

/** Resource kinds that `prune:` may name. */
export type PruneKind = 'autoReplies' | 'logos' | 'chatbots';

/** Everything the manifests say about one brand. */
export interface DesiredBrand {
  brandId: string;
  /** Brand key after `${env:NAME}` interpolation; never printed. */
  brandKey?: string;
  prune: PruneKind[];
  files: Map<string, DesiredFile>;
  autoReplies: Map<string, DesiredAutoReply>;
  logos: Map<string, DesiredLogo>;
  chatbots: Map<string, DesiredChatbot>;
  agencyFiles: Map<string, DesiredAgencyFile>;
  /** The manifest files that contributed to this brand. */
  manifestFiles: string[];
  source: SourceLocation;
}

/** What loading a set of manifest paths gives: brands, and every diagnostic found. */
export interface LoadResult {
  brands: DesiredBrand[];
  diagnostics: Diagnostic[];
  /** Every manifest file read, as shown in diagnostics. */
  files: string[];
}
