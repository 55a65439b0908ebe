// The pure half of `rcsctl export`: a live brand in, the manifest document and
// the list of images to download out. Written so that `rcsctl plan` on the
// result right away is empty: names and ids as stored, server-filled postback
// data dropped, copyAllowed only when false, media and reply links by handle.

import { basename, extname } from 'node:path';
import type { AutoReplyDetail, AutoReplyFile, ButtonGroup, ChatbotDetail, Logo, PersistentMenuItem, Suggestion } from '../api/types.js';
import { MEDIA_FIELD } from '../kinds/auto-reply.js';
import { mediaFileId } from '../spec/media.js';
import type { LiveBrand } from '../plan/types.js';
import { assignHandles } from './handles.js';

/** An image to fetch into the export directory. */
export interface Download {
  url: string;
  /** Path relative to the export directory (`images/hero.png`). */
  path: string;
  /** The live file name: when it ends in `-<sha256 first 12>`, the content is checked against it. */
  liveFileName: string;
  /** The hash prefix the live name promises, when it has one. */
  expectedSha12?: string;
}

/** The manifest object (key order as written) and the images it refers to. */
export interface ExportedManifest {
  manifest: Record<string, unknown>;
  downloads: Download[];
  /** Things the user should know (files that will be uploaded again, and so on). */
  notes: string[];
}

/** How to export. */
export interface ExportOptions {
  /** Write `brand.key: "${env:NAME}"` for an agency account. */
  brandKeyEnv?: string;
}

const HASHED = /^(.*)-([0-9a-f]{12})$/;

/** Build the manifest for `live`. */
export function buildManifest(live: LiveBrand, opts: ExportOptions = {}): ExportedManifest {
  const notes: string[] = [];
  const downloads: Download[] = [];
  const usedPaths = new Set<string>();

  // Auto-reply files: only those some body uses (the service cannot list the others).
  const files = [...live.files.values()];
  const fileHandles = assignHandles(files, (f) => f.fileId, (f) => localName(f.fileName).stem, 'file');
  const filesOut: Record<string, unknown> = {};
  for (const f of sortByHandle(files, (f) => fileHandles.get(f.fileId) as string)) {
    const path = placeImage(f.fileName, 'images', usedPaths);
    downloads.push(download(f.url, path, f.fileName));
    filesOut[fileHandles.get(f.fileId) as string] = { path };
    if (localName(f.fileName).sha12 === undefined) {
      notes.push(`file ${f.fileName} was not uploaded by rcsctl; the first apply uploads it once more under a content-addressed name`);
    }
  }

  const arHandles = assignHandles(live.autoReplies, (a) => a.autoReplyMsgId, (a) => a.autoReplyMsgName, 'reply');
  // A name two live auto-replies share cannot identify either: pin their ids.
  const sharedArNames = shared(live.autoReplies.map((a) => a.autoReplyMsgName));
  const autoReplies: Record<string, unknown> = {};
  for (const a of sortByHandle(live.autoReplies, (a) => arHandles.get(a.autoReplyMsgId) as string)) {
    const entry = autoReply(a, fileHandles, arHandles, live.files);
    autoReplies[arHandles.get(a.autoReplyMsgId) as string] = sharedArNames.has(a.autoReplyMsgName) ? { id: a.autoReplyMsgId, ...entry } : entry;
  }
  for (const name of [...sharedArNames].sort()) {
    notes.push(`auto-reply name "${name}" is used more than once live: those entries are pinned by \`id:\`, but manifest names must be unique, so rename all but one (in the manifest; apply renames them live) before validate passes`);
  }

  const logoHandles = assignHandles(live.logos, (l) => l.fileId, (l) => l.name, 'logo');
  const sharedLogoNames = shared(live.logos.map((l) => l.name));
  const logos: Record<string, unknown> = {};
  for (const l of sortByHandle(live.logos, (l) => logoHandles.get(l.fileId) as string)) {
    const path = placeImage(l.fileName, 'images/logos', usedPaths);
    downloads.push(download(l.fileUrl, path, l.fileName));
    const entry = logo(l, path);
    logos[logoHandles.get(l.fileId) as string] = sharedLogoNames.has(l.name) ? { fileId: l.fileId, ...entry } : entry;
    if (localName(l.fileName).sha12 === undefined) notes.push(`logo "${l.name}" was not registered by rcsctl; the first plan shows its image as changed (a modification goes to review)`);
  }

  const chatbots: Record<string, unknown> = {};
  for (const c of [...live.chatbots].sort((a, b) => a.chatbotId.localeCompare(b.chatbotId))) chatbots[c.chatbotId] = chatbot(c, arHandles);

  const manifest: Record<string, unknown> = {
    apiVersion: 'rcsctl/v1',
    kind: 'Brand',
    brand: opts.brandKeyEnv !== undefined ? { id: live.brandId, key: `\${env:${opts.brandKeyEnv}}` } : { id: live.brandId },
  };
  if (Object.keys(filesOut).length > 0) manifest.files = filesOut;
  if (Object.keys(autoReplies).length > 0) manifest.autoReplies = autoReplies;
  if (Object.keys(logos).length > 0) manifest.logos = logos;
  if (Object.keys(chatbots).length > 0) manifest.chatbots = chatbots;
  return { manifest, downloads, notes };
}

function autoReply(a: AutoReplyDetail, fileHandles: Map<string, string>, arHandles: Map<string, string>, files: Map<string, AutoReplyFile>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(a.body ?? {})) {
    const id = mediaFileId(value);
    const handle = MEDIA_FIELD.test(field) && files.has(id) ? fileHandles.get(id) : undefined;
    body[field] = handle !== undefined ? { file: handle } : value;
  }
  const out: Record<string, unknown> = { name: a.autoReplyMsgName, messagebaseId: a.messagebaseId };
  if (a.copyAllowed === false) out.copyAllowed = false;
  out.body = body;
  const buttons = (a.buttons ?? []).map((g: ButtonGroup) => (g.suggestions === undefined ? {} : { suggestions: g.suggestions.map((s) => suggestion(s, arHandles)) }));
  if (buttons.length > 0) out.buttons = buttons;
  if ((a.chipList ?? []).length > 0) out.chipList = (a.chipList ?? []).map((s) => suggestion(s, arHandles));
  return out;
}

/** A suggestion as the manifest writes it: postback data dropped, reply links by handle. */
function suggestion(s: Suggestion, arHandles: Map<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.action !== undefined) {
    const { postback: _postback, ...action } = s.action;
    out.action = action;
  }
  if (s.reply !== undefined) {
    const reply: Record<string, unknown> = {};
    const id = s.reply.autoReplyMsgId;
    const handle = id !== undefined ? arHandles.get(id) : undefined;
    if (handle !== undefined) reply.autoReply = handle;
    else if (id !== undefined) reply.autoReplyMsgId = id;
    if (s.reply.displayText !== undefined) reply.displayText = s.reply.displayText;
    out.reply = reply;
  }
  return out;
}

function logo(l: Logo, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = { name: l.name };
  if (l.description !== null && l.description !== '') out.description = l.description;
  out.path = path;
  return out;
}

function chatbot(c: ChatbotDetail, arHandles: Map<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { subTitle: c.subTitle };
  if (c.subNum !== null && c.subNum !== undefined && c.subNum !== '') out.subNum = c.subNum;
  out.display = c.display;
  out.inputField = c.inputField;
  out.rcsReply = c.rcsReply;
  if (c.subDescr !== null && c.subDescr !== '') out.subDescr = c.subDescr;
  out.saftyStatusYn = c.saftyStatusYn;
  const menu = [...(c.persistentMenu ?? [])].sort((a, b) => a.ordNo - b.ordNo);
  if (menu.length > 0) out.persistentMenu = menu.map((i) => menuItem(i, arHandles));
  return out;
}

function menuItem(i: PersistentMenuItem, arHandles: Map<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: i.type, title: i.title };
  if (i.autoReplyMsgId !== undefined) {
    const handle = arHandles.get(i.autoReplyMsgId);
    if (handle !== undefined) out.autoReply = handle;
    else out.autoReplyMsgId = i.autoReplyMsgId;
  }
  if (i.feedId !== undefined) out.feedId = i.feedId;
  if (i.actionType !== undefined) out.actionType = i.actionType;
  if (i.action !== undefined) out.action = i.action;
  return out;
}

/**
 * The local name of a live file: `hero-ff7131fa55b5.png` was uploaded by
 * rcsctl from `hero.png`, so saving it as `hero.png` gives the same upload name.
 */
export function localName(fileName: string): { stem: string; ext: string; sha12?: string } {
  const ext = extname(fileName);
  const stem = basename(fileName, ext);
  const m = HASHED.exec(stem);
  return m ? { stem: m[1] as string, ext, sha12: m[2] as string } : { stem, ext };
}

/**
 * A path under `dir` whose base name gives back the live upload name. Equal
 * stems go into numbered subfolders (`images/2/hero.png`), never renamed,
 * because the upload name is made from the base name.
 */
function placeImage(fileName: string, dir: string, used: Set<string>): string {
  const { stem, ext, sha12 } = localName(fileName);
  const base = (sha12 !== undefined ? stem : basename(fileName, ext)) + ext.toLowerCase();
  let path = `${dir}/${safe(base)}`;
  for (let n = 2; used.has(path.toLowerCase()); n++) path = `${dir}/${n}/${safe(base)}`;
  used.add(path.toLowerCase());
  return path;
}

function safe(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_');
  return cleaned === '' ? 'file' : cleaned;
}

function download(url: string, path: string, liveFileName: string): Download {
  const sha12 = localName(liveFileName).sha12;
  return sha12 !== undefined ? { url, path, liveFileName, expectedSha12: sha12 } : { url, path, liveFileName };
}

/** Values that occur more than once. */
function shared(values: string[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return twice;
}

function sortByHandle<T>(items: T[], handle: (t: T) => string): T[] {
  return [...items].sort((a, b) => handle(a).localeCompare(handle(b)));
}
