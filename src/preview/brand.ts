// The preview of a brand as its manifests declare it: every auto-reply and
// room, with images inlined from the manifests' files, and the findings.

import { relative } from 'node:path';
import type { DesiredBrand, Diagnostic, LocalFile } from '../manifest/types.js';
import { linkFindings, menuItemView, messageView, shownIn, type BrandView, type Finding, type ImageView, type LinkTarget, type RawReply, type Resolvers, type RoomView } from './model.js';

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

/** Anchor keys: auto-replies and rooms share one page, so they get prefixes. */
export const anchor = {
  autoReply: (key: string): string => `ar-${key}`,
  room: (chatbotId: string): string => `room-${chatbotId}`,
};

/** The preview of one brand; `diagnostics` are the loader's warnings, shown as lint findings. */
export function brandView(brand: DesiredBrand, diagnostics: readonly Diagnostic[] = [], cwd = process.cwd()): BrandView {
  const where = (s: { file: string; line: number }): string => `${relative(cwd, s.file) || s.file}:${s.line}`;
  const resolvers: Resolvers = {
    image(value, alt) {
      const handle = typeof value === 'object' && value !== null && 'file' in value ? String((value as { file: unknown }).file) : undefined;
      const file = handle === undefined ? undefined : brand.files.get(handle);
      if (file !== undefined) return imageOf(file.file, alt);
      return { name: handle ?? String(value), alt };
    },
    link: (reply) => linkTarget(brand, reply),
  };
  const messages = [...brand.autoReplies.values()].map((a) =>
    messageView({ key: anchor.autoReply(a.handle), address: `autoReply.${a.handle}`, name: a.name, messagebaseId: a.messagebaseId, body: a.body, buttons: a.buttons ?? [], chipList: a.chipList ?? [], source: where(a.source) }, resolvers),
  );
  const logo = [...brand.logos.values()][0];
  const rooms = [...brand.chatbots.values()].map((c): RoomView => {
    const room: RoomView = { key: anchor.room(c.chatbotId), address: `chatbot.${c.chatbotId}`, chatbotId: c.chatbotId, name: c.subTitle ?? c.chatbotId, source: where(c.source) };
    if (c.subDescr !== undefined) room.description = c.subDescr;
    const places = shownIn(c.display);
    if (places !== undefined) room.shownIn = places;
    if (c.inputField !== undefined) room.inputEnabled = c.inputField === 1;
    if (c.rcsReply !== undefined) room.rcsReply = c.rcsReply;
    if (c.saftyStatusYn !== undefined) room.safetyMark = c.saftyStatusYn === 'Y';
    if (c.persistentMenu !== undefined) room.menu = c.persistentMenu.map((item, i) => menuItemView(item, i, resolvers));
    if (logo !== undefined) room.logo = imageOf(logo.file, `${logo.name} (logo)`);
    return room;
  });
  const lint: Finding[] = diagnostics
    .filter((d) => brand.manifestFiles.includes(d.file))
    .map((d): Finding => ({ code: 'lint', severity: 'warning', message: `${d.code}: ${d.message}`, where: where(d) }));
  const main = [...brand.chatbots.values()].find((c) => c.subTitle !== undefined);
  return { brandId: brand.brandId, title: main?.subTitle ?? brand.brandId, messages, rooms, findings: [...linkFindings(messages, rooms), ...lint] };
}

function linkTarget(brand: DesiredBrand, reply: RawReply): LinkTarget {
  if (reply.autoReply !== undefined) {
    const target = brand.autoReplies.get(reply.autoReply);
    return target === undefined ? { name: reply.autoReply } : { key: anchor.autoReply(reply.autoReply), name: target.name };
  }
  const pinned = [...brand.autoReplies.values()].find((a) => a.id !== undefined && a.id === reply.autoReplyMsgId);
  if (pinned !== undefined) return { key: anchor.autoReply(pinned.handle), name: pinned.name };
  return { name: reply.autoReplyMsgId ?? '(no target)' };
}
