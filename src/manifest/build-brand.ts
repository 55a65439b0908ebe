// Turning schema-clean documents into DesiredBrand objects: documents for the
// same brandId merge, local files are read and checked, and handles declared
// twice across documents are reported.

import type { Action } from '../api/types.js';
import type { DiagnosticCode } from './codes.js';
import { FileReader, loadLocalFile, mimeTypeOf } from './local-files.js';
import { diagAt, jsonPointer, offsetOf, position, type PathSegments, type SourceDoc } from './source.js';
import type {
  DesiredAgencyFile,
  DesiredAutoReply,
  DesiredBodyValue,
  DesiredBrand,
  DesiredChatbot,
  DesiredMenuItem,
  DesiredSuggestion,
  Diagnostic,
  LocalFile,
  PruneKind,
  SourceLocation,
} from './types.js';

/** A brand being assembled, with the document each resource came from (for positions). */
export interface BrandDraft {
  brand: DesiredBrand;
  /** Which document declared each resource object (DesiredAutoReply, DesiredChatbot, ...). */
  origin: Map<object, SourceDoc>;
  /** Where the brand key was set, for conflict messages. */
  keyFrom?: SourceDoc;
  /**
   * Every `section/key` declared, even when its file failed to load, so a
   * broken file is reported once and not again as a missing handle.
   */
  declared: Map<string, SourceLocation>;
}

// The shapes below are what the schema has already guaranteed.
type Obj = Record<string, unknown>;
interface RawDoc {
  brand: { id: string; key?: string };
  prune?: PruneKind[];
  files?: Record<string, { path: string }>;
  autoReplies?: Record<string, Obj>;
  logos?: Record<string, { name: string; description?: string; path: string; fileId?: string }>;
  chatbots?: Record<string, Obj>;
  agencyFiles?: Record<string, { path: string; mimeType?: string; usageType?: 'send'; messagebaseId?: string }>;
}

/** Source location of the node at `path`. */
export function locationOf(src: SourceDoc, path: PathSegments): SourceLocation {
  const { line, col } = position(src.lines, offsetOf(src, path, 'key'));
  return { file: src.file, line, col, path: jsonPointer(path) };
}

/** Add one schema-clean document to the drafts (merging by brandId). */
export async function addDocument(
  drafts: Map<string, BrandDraft>,
  src: SourceDoc,
  reader: FileReader,
): Promise<Diagnostic[]> {
  const raw = src.value as RawDoc;
  const diags: Diagnostic[] = [];
  const brandId = raw.brand.id;
  let draft = drafts.get(brandId);
  if (draft === undefined) {
    draft = {
      brand: emptyBrand(brandId, locationOf(src, ['brand'])),
      origin: new Map(),
      declared: new Map(),
    };
    drafts.set(brandId, draft);
  }
  const { brand, origin } = draft;
  if (!brand.manifestFiles.includes(src.file)) brand.manifestFiles.push(src.file);
  if (raw.brand.key !== undefined) {
    if (brand.brandKey !== undefined && brand.brandKey !== raw.brand.key) {
      diags.push(diagAt(src, 'RCS406', ['brand', 'key'], `brand ${brandId} is given a different key in ${draft.keyFrom?.file ?? 'another document'}`));
    } else {
      brand.brandKey = raw.brand.key;
      draft.keyFrom = src;
    }
  }
  for (const kind of raw.prune ?? []) if (!brand.prune.includes(kind)) brand.prune.push(kind);

  // Declared twice across documents: the first one wins, the second is an error.
  const once = (section: string, key: string, code: DiagnosticCode, what: string): boolean => {
    const prior = draft.declared.get(`${section}/${key}`);
    if (prior === undefined) {
      draft.declared.set(`${section}/${key}`, locationOf(src, [section, key]));
      return true;
    }
    diags.push(diagAt(src, code, [section, key], `${what} "${key}" is declared twice in brand ${brandId} (first at ${prior.file}:${prior.line}:${prior.col})`, { at: 'key' }));
    return false;
  };
  const file = async (at: PathSegments, rel: string, use: Parameters<typeof loadLocalFile>[3]): Promise<LocalFile | undefined> => {
    const r = await loadLocalFile(src, at, rel, use, reader);
    diags.push(...r.diagnostics);
    return r.file;
  };

  for (const [handle, f] of Object.entries(raw.files ?? {})) {
    if (!once('files', handle, 'RCS403', 'file handle')) continue;
    const loaded = await file(['files', handle, 'path'], f.path, 'autoReplyFile');
    if (loaded === undefined) continue;
    const d = { handle, file: loaded, source: locationOf(src, ['files', handle]) };
    brand.files.set(handle, d);
    origin.set(d, src);
  }

  for (const [handle, a] of Object.entries(raw.autoReplies ?? {})) {
    if (!once('autoReplies', handle, 'RCS403', 'auto-reply handle')) continue;
    const d = toAutoReply(handle, a, locationOf(src, ['autoReplies', handle]));
    brand.autoReplies.set(handle, d);
    origin.set(d, src);
  }

  for (const [handle, l] of Object.entries(raw.logos ?? {})) {
    if (!once('logos', handle, 'RCS403', 'logo handle')) continue;
    const loaded = await file(['logos', handle, 'path'], l.path, 'logo');
    if (loaded === undefined) continue;
    const d = {
      handle,
      name: l.name,
      file: loaded,
      source: locationOf(src, ['logos', handle]),
      ...(l.fileId !== undefined ? { fileId: l.fileId } : {}),
      ...(l.description !== undefined ? { description: l.description } : {}),
    };
    brand.logos.set(handle, d);
    origin.set(d, src);
  }

  for (const [chatbotId, c] of Object.entries(raw.chatbots ?? {})) {
    if (!once('chatbots', chatbotId, 'RCS404', 'chatbotId')) continue;
    const d = toChatbot(chatbotId, c, locationOf(src, ['chatbots', chatbotId]));
    const cert = c.certificate as { path: string } | undefined;
    if (cert !== undefined) {
      const loaded = await file(['chatbots', chatbotId, 'certificate', 'path'], cert.path, 'certificate');
      if (loaded !== undefined) d.certificate = loaded;
    }
    brand.chatbots.set(chatbotId, d);
    origin.set(d, src);
  }

  for (const [fileId, a] of Object.entries(raw.agencyFiles ?? {})) {
    if (!once('agencyFiles', fileId, 'RCS405', 'agency fileId')) continue;
    const loaded = await file(['agencyFiles', fileId, 'path'], a.path, 'agencyFile');
    if (loaded === undefined) continue;
    const mimeType = a.mimeType ?? loaded.mimeType;
    if (mimeTypeOf(loaded.extension) !== mimeType) {
      diags.push(diagAt(src, 'RCS308', ['agencyFiles', fileId, 'mimeType'], `mimeType ${mimeType} does not match "${a.path}" (${loaded.mimeType})`));
      continue;
    }
    const d: DesiredAgencyFile = {
      fileId,
      usageType: 'send',
      mimeType,
      file: loaded,
      source: locationOf(src, ['agencyFiles', fileId]),
      ...(a.messagebaseId !== undefined ? { messagebaseId: a.messagebaseId } : {}),
    };
    brand.agencyFiles.set(fileId, d);
    origin.set(d, src);
  }
  return diags;
}

function toSuggestion(s: Obj): DesiredSuggestion {
  if (s.action !== undefined) return { action: s.action as Action };
  const r = s.reply as { autoReply?: string; autoReplyMsgId?: string; displayText?: string };
  return {
    reply: {
      ...(r.autoReply !== undefined ? { autoReply: r.autoReply } : {}),
      ...(r.autoReplyMsgId !== undefined ? { autoReplyMsgId: r.autoReplyMsgId } : {}),
      ...(r.displayText !== undefined ? { displayText: r.displayText } : {}),
    },
  };
}

function toAutoReply(handle: string, a: Obj, source: SourceLocation): DesiredAutoReply {
  const body: Record<string, DesiredBodyValue> = {};
  for (const [k, v] of Object.entries(a.body as Obj)) body[k] = typeof v === 'string' ? v : { file: (v as { file: string }).file };
  const d: DesiredAutoReply = { handle, name: a.name as string, messagebaseId: a.messagebaseId as string, body, source };
  if (a.id !== undefined) d.id = a.id as string;
  if (a.copyAllowed !== undefined) d.copyAllowed = a.copyAllowed as boolean;
  if (a.buttons !== undefined) {
    d.buttons = (a.buttons as Obj[]).map((g) =>
      g.suggestions === undefined ? {} : { suggestions: (g.suggestions as Obj[]).map(toSuggestion) },
    );
  }
  if (a.chipList !== undefined) d.chipList = (a.chipList as Obj[]).map(toSuggestion);
  return d;
}

function toChatbot(chatbotId: string, c: Obj, source: SourceLocation): DesiredChatbot {
  const d: DesiredChatbot = { chatbotId, source };
  if (c.subTitle !== undefined) d.subTitle = c.subTitle as string;
  if (c.subNum !== undefined) d.subNum = c.subNum as string;
  if (c.display !== undefined) d.display = c.display as DesiredChatbot['display'];
  if (c.inputField !== undefined) d.inputField = c.inputField as 0 | 1;
  if (c.rcsReply !== undefined) d.rcsReply = c.rcsReply as '0' | '1';
  if (c.subDescr !== undefined) d.subDescr = c.subDescr as string;
  if (c.saftyStatusYn !== undefined) d.saftyStatusYn = c.saftyStatusYn as 'Y' | 'N';
  if (c.persistentMenu !== undefined) {
    d.persistentMenu = (c.persistentMenu as Obj[]).map((m) => {
      const item: DesiredMenuItem = { type: m.type as DesiredMenuItem['type'], title: m.title as string };
      if (m.autoReply !== undefined) item.autoReply = m.autoReply as string;
      if (m.autoReplyMsgId !== undefined) item.autoReplyMsgId = m.autoReplyMsgId as string;
      if (m.feedId !== undefined) item.feedId = m.feedId as string;
      if (m.actionType !== undefined) item.actionType = 'dialerAction';
      if (m.action !== undefined) item.action = m.action as NonNullable<DesiredMenuItem['action']>;
      return item;
    });
  }
  return d;
}

/** A brand that declares nothing yet. */
export function emptyBrand(brandId: string, source: SourceLocation): DesiredBrand {
  return { brandId, prune: [], files: new Map(), autoReplies: new Map(), logos: new Map(), chatbots: new Map(), agencyFiles: new Map(), manifestFiles: [], source };
}
