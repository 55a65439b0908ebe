// Every diagnostic code the manifest loader can emit, in one closed table, so
// the code, its default severity and its one-line title live in one place and
// docs/diagnostics.md can be checked against it (test/manifest/docs.test.ts).

import type { Severity } from './types.js';

/** Code table: RCS1xx reading and YAML, RCS2xx schema, RCS3xx local files, RCS4xx references, RCS5xx lint, RCS6xx text, RCS7xx composition (bases, variables, overrides, generated brands). */
export const DIAGNOSTIC_CODES = {
  RCS100: { severity: 'error', title: 'manifest path cannot be read' },
  RCS101: { severity: 'error', title: 'YAML syntax error' },
  RCS102: { severity: 'error', title: 'duplicate key in a mapping' },
  RCS103: { severity: 'error', title: 'custom YAML tag refused' },
  RCS104: { severity: 'error', title: 'too many YAML aliases' },
  RCS105: { severity: 'error', title: 'manifest file too large' },
  RCS106: { severity: 'error', title: 'environment variable not set' },
  RCS107: { severity: 'error', title: 'malformed interpolation' },
  RCS108: { severity: 'error', title: 'no manifest files found' },
  RCS109: { severity: 'error', title: 'file is not valid UTF-8' },
  RCS110: { severity: 'error', title: 'NUL character' },
  RCS111: { severity: 'error', title: 'lone surrogate' },
  RCS112: { severity: 'error', title: 'nesting too deep' },
  RCS113: { severity: 'warning', title: 'manifest file holds no document' },
  RCS114: { severity: 'error', title: 'the manifests declare no brand' },
  RCS115: { severity: 'error', title: 'a credential in manifest content' },
  RCS201: { severity: 'error', title: 'unknown key' },
  RCS202: { severity: 'error', title: 'required key missing' },
  RCS203: { severity: 'error', title: 'wrong value type' },
  RCS204: { severity: 'error', title: 'value not allowed' },
  RCS205: { severity: 'error', title: 'value too long' },
  RCS206: { severity: 'error', title: 'value empty or too short' },
  RCS207: { severity: 'error', title: 'value has the wrong form' },
  RCS208: { severity: 'error', title: 'too many items' },
  RCS209: { severity: 'error', title: 'postback data is filled by the service' },
  RCS210: { severity: 'error', title: 'menu type `menu` is no longer allowed' },
  RCS211: { severity: 'error', title: 'action needs exactly one action type' },
  RCS212: { severity: 'error', title: 'a button or chip holds exactly one of action or reply' },
  RCS213: { severity: 'error', title: 'duplicate list item' },
  RCS214: { severity: 'error', title: 'unquoted number used as an id' },
  RCS215: { severity: 'error', title: 'reply takes at most one of autoReply or autoReplyMsgId' },
  RCS299: { severity: 'error', title: 'schema violation' },
  RCS301: { severity: 'error', title: 'path leaves the repository' },
  RCS302: { severity: 'error', title: 'path leaves the repository through a symlink' },
  RCS303: { severity: 'error', title: 'file not found' },
  RCS304: { severity: 'error', title: 'file type not allowed' },
  RCS305: { severity: 'error', title: 'file too large' },
  RCS306: { severity: 'error', title: 'file content is not a readable image of its type' },
  RCS307: { severity: 'error', title: 'logo is not 300x300 pixels' },
  RCS308: { severity: 'error', title: 'mimeType does not match the file' },
  RCS309: { severity: 'error', title: 'image is damaged or cut short' },
  RCS310: { severity: 'error', title: 'image has too many pixels' },
  RCS311: { severity: 'error', title: 'file content does not match its type' },
  RCS312: { severity: 'error', title: 'file is empty' },
  RCS401: { severity: 'error', title: 'reference to a missing file handle' },
  RCS402: { severity: 'error', title: 'reference to a missing auto-reply handle' },
  RCS403: { severity: 'error', title: 'handle declared twice' },
  RCS404: { severity: 'error', title: 'chatbotId declared twice' },
  RCS405: { severity: 'error', title: 'agency fileId declared twice' },
  RCS406: { severity: 'error', title: 'conflicting brand keys' },
  RCS501: { severity: 'warning', title: 'body field ignored by the messagebase' },
  RCS502: { severity: 'error', title: 'messagebaseId not one an auto-reply can use' },
  RCS503: { severity: 'error', title: 'duplicate auto-reply name' },
  RCS504: { severity: 'error', title: 'duplicate logo name' },
  RCS505: { severity: 'error', title: 'persistent menu on a room whose rcsReply is not "1"' },
  RCS506: { severity: 'warning', title: 'reply link to an auto-reply outside the brand' },
  RCS507: { severity: 'warning', title: 'file declared but never used' },
  RCS508: { severity: 'warning', title: 'agency fileId does not start with the brandId' },
  RCS509: { severity: 'error', title: 'pinned id declared twice' },
  RCS510: { severity: 'error', title: "reply link to another brand's auto-reply" },
  RCS511: { severity: 'error', title: 'menu item field does not fit its type' },
  RCS512: { severity: 'warning', title: 'postback data on a reply link' },
  RCS513: { severity: 'warning', title: 'media id that looks like a file handle' },
  RCS514: { severity: 'note', title: 'room without a subscription certificate', liveChecked: true },
  RCS530: { severity: 'error', title: 'template needs exactly one of formattedString and body' },
  RCS531: { severity: 'error', title: 'custTmpltId declared twice' },
  RCS532: { severity: 'error', title: 'template variable or button breaks the template rules' },
  RCS533: { severity: 'error', title: 'unknown template form' },
  RCS534: { severity: 'error', title: "formattedString breaks the form's widget policy" },
  RCS535: { severity: 'error', title: "template body breaks the form's params" },
  RCS540: { severity: 'error', title: 'moved: address of no kind, or from and to of different kinds' },
  RCS541: { severity: 'error', title: 'moved: to names no resource of the brand' },
  RCS542: { severity: 'error', title: 'moved: an address moved twice' },
  RCS543: { severity: 'error', title: 'moved: a chain or a cycle of moves' },
  RCS544: { severity: 'error', title: 'moved: from is still declared' },
  RCS536: { severity: 'error', title: 'messagebaseId not in the service\'s common list' },
  RCS601: { severity: 'warning', title: 'bidirectional control in a shown text' },
  RCS602: { severity: 'warning', title: 'invisible character in a shown text' },
  RCS603: { severity: 'warning', title: 'body text longer than rcsctl\'s bound (no length is documented)' },
  RCS701: { severity: 'error', title: 'unknown base variable' },
  RCS702: { severity: 'error', title: 'required base variable not given' },
  RCS703: { severity: 'error', title: 'base variable of the wrong type' },
  RCS704: { severity: 'error', title: 'base uses itself (cycle)' },
  RCS705: { severity: 'error', title: 'base not found' },
  RCS706: { severity: 'error', title: 'malformed base, bases, overrides or BrandSet entry' },
  RCS707: { severity: 'error', title: 'generator rows cannot be read' },
  RCS708: { severity: 'error', title: 'override changes nothing a base sets' },
} as const satisfies Record<string, { severity: Severity; title: string; liveChecked?: true }>;

/** A diagnostic code of the table above. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * Whether `code` is a guess that reading the live service settles
 * (`liveChecked`): validate shows it, and plan, apply and drift, which read
 * the service and say what it settles with file and line, do not.
 */
export function isLiveChecked(code: string): boolean {
  const entry = (DIAGNOSTIC_CODES as Record<string, { liveChecked?: true }>)[code];
  return entry?.liveChecked === true;
}
