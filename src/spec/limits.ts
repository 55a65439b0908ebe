// Limits of the service that the manifest schema, the loader and the emulator all
// enforce, kept in one place. Source: the service reference (Limits) and
// docs/decisions.md, "Service shapes rcsctl assumes where the reference shows none".

/** Maximum string lengths, by field. */
export const MAX_LENGTH = {
  brandId: 13,
  brandKey: 18,
  autoReplyMsgName: 100,
  messagebaseId: 40,
  autoReplyMsgId: 40,
  fileId: 64,
  fileUrl: 128,
  fileName: 256,
  logoName: 30,
  logoDescription: 100,
  chatbotId: 15,
  subNum: 40,
  subTitle: 20,
  subDescr: 50,
  botAgencyId: 20,
  webhook: 128,
  menuTitle: 25,
  replyDisplayText: 25,
  agencyFileId: 64,
  usageType: 10,
  clientId: 20,
  clientSecret: 18,
  tmpltName: 40,
  custTmpltId: 25,
  messagebaseformId: 10,
} as const;

/** Enumerations. */
export const ENUMS = {
  display: ['11', '10', '01', '00'],
  inputField: [0, 1],
  rcsReply: ['0', '1'],
  saftyStatusYn: ['Y', 'N'],
  menuType: ['reply', 'feed', 'action'],
  menuActionType: ['dialerAction'],
  usageType: ['send'],
} as const;

/** Persistent menu: at most this many items (docs/decisions.md, "Persistent menus"). */
export const MAX_MENU_ITEMS = 5;

/** Logo file rules (docs/decisions.md, "Logos"). */
export const LOGO = {
  extensions: ['gif', 'png', 'jpeg', 'jpg', 'bmp'],
  maxBytes: 1024 * 1024,
  width: 300,
  height: 300,
  maxPerBrand: 10,
} as const;

/** Auto-reply image files: the reference gives no limit; we use the logo's (*chosen*). */
export const AUTO_REPLY_FILE = {
  extensions: ['gif', 'png', 'jpeg', 'jpg', 'bmp'],
  maxBytes: 1024 * 1024,
} as const;

/** Subscription certificate for chatbot registration and update. */
export const CERTIFICATE = {
  extensions: ['jpg', 'png', 'pdf', 'tiff', 'zip'],
  maxBytes: 20 * 1024 * 1024,
} as const;

/** Agency message files: sendable until D+365 00:00, valid until D+456 00:00. */
export const AGENCY_FILE = {
  sendableDays: 365,
  validDays: 456,
  maxBytes: 1024 * 1024,
  mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp'],
} as const;

/** Buttons and chips: lengths of the public document's suggestion and action objects. */
export const SUGGESTION = {
  displayText: 25,
  postbackData: 2048,
  mapLabel: 100,
  calendarTitle: 100,
  calendarDescription: 500,
  composeText: 100,
} as const;

/**
 * Bounds on message body texts for which neither the service reference nor the
 * public OpenAPI document states a length (*chosen*,
 * docs/decisions.md, "Long values"): a longer value is a warning (RCS603), not
 * an error, since the service may take it. A title a handset shows on one or two lines; a text of
 * a few screens; a URL as long as the postback data the document allows.
 */
export const UNSTATED_TEXT_BOUND = {
  /** title, title1..3, subTitle1..3 */
  title: 200,
  /** description, description1..3, subDesc1..3, and any other body text */
  text: 2000,
  /** mediaUrl, mediaUrl1..3, subMediaUrl1..3 */
  url: 2048,
} as const;

/** The bound of a body field (`description2` → text), by its name. */
export function unstatedBound(field: string): number {
  if (/^(sub)?(title|Title)\d*$/.test(field)) return UNSTATED_TEXT_BOUND.title;
  if (/^(mediaUrl|subMediaUrl)\d*$/.test(field)) return UNSTATED_TEXT_BOUND.url;
  return UNSTATED_TEXT_BOUND.text;
}

/** List paging (the service reference, Limits). */
export const PAGING = { defaultLimit: 100, maxLimit: 1000 } as const;

/** Brand templates (the public OpenAPI document: RegMessagebaseInfo, RegTemplateInfo). */
export const TEMPLATE = {
  /** custTmpltId: letters and digits only, at most 25. */
  custTmpltId: /^[A-Za-z0-9]{1,25}$/,
  /** Entries of one v1 registration (regMessagebases maxItems). */
  maxPerRegistration: 1000,
} as const;
