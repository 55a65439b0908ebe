// The preview of a brand as its manifests declare it: every object a kind
// draws as a message, every room with its menu and the brand's logo (the
// kinds' `handset`), with images inlined from the manifests' files, and the
// findings.

import { relative } from 'node:path';
import { shortText } from '../core/shorten.js';
import { declaredObjects } from '../kinds/declared.js';
import { KINDS, type AnyKind } from '../kinds/index.js';
import { isPreviewable, type Shown, type ShownHome, type ShownMessage } from '../kinds/resource-kind.js';
import type { DesiredBrand, Diagnostic, LocalFile } from '../manifest/types.js';
import { brandFolderOf } from '../kinds/brand-name.js';
import { linkFindings, menuItemView, messageView, shownIn, suggestionView, type BrandView, type Finding, type HomeView, type ImageView, type LinkTarget, type RawMenuItem, type RawMessage, type RawReply, type RawSuggestion, type Resolvers, type RoomView } from './model.js';

/** Image types a browser shows inline; anything else becomes a placeholder. */
const INLINE_TYPES = /^image\/(png|jpeg|gif|webp|bmp)$/;

/** A `data:` URI of a local image, or undefined when it is not an image a page may inline. */
export function dataUri(file: Pick<LocalFile, 'bytes' | 'mimeType'>): string | undefined {
  return INLINE_TYPES.test(file.mimeType) ? `data:${file.mimeType};base64,${file.bytes.toString('base64')}` : undefined;
}

/** An image view of a local file. */
export function imageOf(file: Pick<LocalFile, 'bytes' | 'mimeType' | 'uploadName'>, alt: string): ImageView {
  const src = dataUri(file);
  return src === undefined ? { name: file.uploadName, alt } : { name: file.uploadName, src, alt };
}

/** Anchor keys: messages and rooms share one page, so they get prefixes. */
export const anchor = {
  message: (key: string): string => `ar-${key}`,
  room: (id: string): string => `room-${id}`,
  home: (key: string): string => `home-${key}`,
};

/** One declared object a kind shows on a handset, with its kind and key. */
export interface ShownObject<S extends Shown = Shown> {
  kind: AnyKind;
  key: string;
  shown: S;
}

/** What every kind with a `handset` shows of the brand's declared objects, in registry order. */
export function shownObjects(brand: DesiredBrand): ShownObject[] {
  return KINDS.filter(isPreviewable).flatMap((kind) => declaredObjects(kind, brand).map(([key, d]): ShownObject => ({ kind, key, shown: kind.shown(d, brand) })));
}

/** The shown objects of one handset role. */
export function shownAs<H extends Shown['handset']>(objects: readonly ShownObject[], handset: H): ShownObject<Extract<Shown, { handset: H }>>[] {
  return objects.filter((o): o is ShownObject<Extract<Shown, { handset: H }>> => o.shown.handset === handset);
}

/** The brand's picture on every room (a `profile` kind's first declared object). */
export function logoOf(objects: readonly ShownObject[]): ImageView | undefined {
  const logo = shownAs(objects, 'profile')[0]?.shown;
  return logo === undefined ? undefined : imageOf(logo.file, `${logo.name} (logo)`);
}

/** The preview of one brand; `diagnostics` are the loader's warnings, shown as lint findings. */
export function brandView(brand: DesiredBrand, diagnostics: readonly Diagnostic[] = [], cwd = process.cwd()): BrandView {
  const shortNames = new Map<string, string>();
  const where = (s: { file: string; line: number }): string => {
    let name = shortNames.get(s.file);
    if (name === undefined) shortNames.set(s.file, (name = relative(cwd, s.file) || s.file));
    return `${name}:${s.line}`;
  };
  const objects = shownObjects(brand);
  const messages = shownAs(objects, 'message');
  const link = linkTargets(messages);
  const resolvers: Resolvers = {
    // A message kind gives its images as local files (what the manifest's file handle names), else as a name.
    image: (value, alt) => (isLocalFile(value) ? imageOf(value, alt) : { name: String(value), alt }),
    link,
  };
  const messageViews = messages.map(({ kind, key, shown }) => messageView(asRawMessage(anchor.message(key), `${kind.name}.${key}`, shown, where(shown.source)), resolvers));
  const logo = logoOf(objects);
  const menus = new Map(shownAs(objects, 'menu').map((m) => [m.shown.room, m.shown]));
  const rooms = shownAs(objects, 'room').map(({ kind, key, shown }): RoomView => {
    const c = shown;
    const room: RoomView = { key: anchor.room(c.id), address: `${kind.name}.${key}`, chatbotId: c.id, name: c.title ?? c.id, source: where(c.source) };
    if (c.description !== undefined) room.description = shortText(c.description);
    const places = shownIn(c.display);
    if (places !== undefined) room.shownIn = places;
    if (c.inputEnabled !== undefined) room.inputEnabled = c.inputEnabled;
    if (c.rcsReply !== undefined) room.rcsReply = c.rcsReply;
    if (c.safetyMark !== undefined) room.safetyMark = c.safetyMark;
    const menu = menus.get(c.id);
    if (menu !== undefined) room.menu = (menu.items as RawMenuItem[]).map((item, i) => menuItemView(item, i, resolvers));
    if (logo !== undefined) room.logo = logo;
    return room;
  });
  const ownFiles = new Set(brand.manifestFiles);
  const lint: Finding[] = diagnostics
    .filter((d) => ownFiles.has(d.file))
    .map((d): Finding => ({ code: 'lint', severity: 'warning', message: `${d.code}: ${d.message}`, where: where(d) }));
  const main = shownAs(objects, 'room').find((r) => r.shown.title !== undefined);
  const home = shownAs(objects, 'home')[0];
  const homeView = home === undefined ? undefined : homeViewOf(home, where(home.shown.source), resolvers);
  return {
    brandId: brand.brandId,
    // The brand's name, never a room's (a brand has many rooms): without a profile, the folder that declares the brand.
    title: home?.shown.name ?? folderTitle(brand),
    ...(main?.shown.title !== undefined ? { roomName: main.shown.title } : {}),
    messages: messageViews,
    rooms,
    ...(homeView === undefined ? {} : { home: homeView }),
    findings: [...linkFindings(messageViews, rooms), ...lint],
  };
}

function homeViewOf({ kind, key, shown }: ShownObject<ShownHome>, source: string, resolvers: Resolvers): HomeView {
  const view: HomeView = {
    key: anchor.home(key),
    address: `${kind.name}.${key}`,
    name: shown.name,
    buttons: (shown.buttons as RawSuggestion[]).map((b, i) => suggestionView(b, `buttons[${i}]`, resolvers)),
    source,
  };
  if (shown.description !== undefined) view.description = shortText(shown.description);
  if (shown.profileImage !== undefined) view.profileImage = imageOf(shown.profileImage, `${shown.name} (profile image)`);
  if (shown.backgroundImage !== undefined) view.backgroundImage = imageOf(shown.backgroundImage, `${shown.name} (background image)`);
  return view;
}

function isLocalFile(value: unknown): value is LocalFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as { bytes?: unknown }).bytes);
}

function asRawMessage(key: string, address: string, m: ShownMessage, source: string): RawMessage {
  const raw: RawMessage = { key, address, name: m.name, messagebaseId: m.messagebaseId, body: { ...m.body }, buttons: (m.buttons ?? []) as RawMessage['buttons'], chipList: (m.chipList ?? []) as RawMessage['chipList'], source };
  return raw;
}

/**
 * The message a reply opens: by handle, or by the live id a declared message is pinned to.
 * Both looked up in maps made once: a search of the messages per reply made a brand of
 * n linked auto-replies cost n² (100,000 of them did not finish in minutes).
 */
function linkTargets(messages: readonly ShownObject<ShownMessage>[]): (reply: RawReply) => LinkTarget {
  const byKey = new Map(messages.map((m) => [m.key, m]));
  const byPinned = new Map<string, ShownObject<ShownMessage>>();
  for (const m of messages) if (m.shown.pinnedId !== undefined && !byPinned.has(m.shown.pinnedId)) byPinned.set(m.shown.pinnedId, m);
  return (reply) => {
    if (reply.autoReply !== undefined) {
      const target = byKey.get(reply.autoReply);
      return target === undefined ? { name: reply.autoReply } : { key: anchor.message(target.key), name: target.shown.name };
    }
    const pinned = reply.autoReplyMsgId === undefined ? undefined : byPinned.get(reply.autoReplyMsgId);
    if (pinned !== undefined) return { key: anchor.message(pinned.key), name: pinned.shown.name };
    // A reply with neither target is a chatbot answer (isAnswer), never looked up here.
    return { name: reply.autoReplyMsgId ?? '' };
  };
}

/** A brand without a declared name, by the folder that declares it (its id when that is the working folder). */
function folderTitle(brand: DesiredBrand): string {
  const folder = brandFolderOf(brand);
  return folder === '.' ? brand.brandId : folder;
}
