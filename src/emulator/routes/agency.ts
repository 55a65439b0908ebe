// Agency message files: POST /ag/1.2/file and GET /ag/1.2/file/{fileId}
// (the service reference, Agency message file; lifetime D+365 / D+456).

import { imageSize } from 'image-size';
import { AGENCY_FILE, MAX_LENGTH } from '../../spec/limits.js';
import { formatServiceTime, kstMidnightAfter } from '../../util/time.js';
import { authenticate } from '../auth.js';
import { imageFits, messagebaseForFile, type UsableMessagebase } from '../messaging/messagebase-use.js';
import type { RequestContext, Reply } from '../http-types.js';
import type { Route } from '../router.js';
import { fail, failAgency } from '../service-error.js';
import type { EmulatorStore, StoredAgencyFile } from '../store.js';
import { optionalString, requiredString } from '../validate.js';
import { unreadableUpload } from '../files.js';

/** The agency file routes. */
export function agencyRoutes(): Route[] {
  return [
    { method: 'POST', pattern: '/ag/1.2/file', handler: register },
    { method: 'GET', pattern: '/ag/1.2/file/:fileId', handler: status },
  ];
}

async function register(ctx: RequestContext): Promise<Reply> {
  const account = authenticate(ctx);
  const form = await ctx.multipart();
  const fields = Object.fromEntries(form.fields);
  const fileId = requiredString(fields, 'fileId', MAX_LENGTH.agencyFileId);
  const usageType = optionalString(fields, 'usageType', MAX_LENGTH.usageType) ?? 'send';
  if (usageType !== 'send') fail('invalidType', 'usageType');
  const mimeType = requiredString(fields, 'mimeType');
  if (!(AGENCY_FILE.mimeTypes as readonly string[]).includes(mimeType)) fail('notAllowedExtension');
  const messagebaseId = optionalString(fields, 'messagebaseId', MAX_LENGTH.messagebaseId) ?? null;
  const base = messagebaseId === null ? undefined : messagebaseForFile(ctx.store, messagebaseId);
  if (messagebaseId !== null && base === undefined) failAgency('unknownMessagebase');
  const file = form.files.get('file');
  if (file === undefined || file.bytes.length === 0) fail('requiredValue', 'file');
  if (file.bytes.length > AGENCY_FILE.maxBytes) fail('fileTooLarge');
  // The file's name may say nothing: its MIME type says what it must be.
  if (unreadableUpload(file.bytes, `file.${mimeType.split('/')[1] ?? ''}`)) fail('notAllowedExtension');
  if (base !== undefined) checkFit(base, file.bytes);
  purgeGone(ctx.store, fileId);
  if (ctx.store.agencyFiles.has(fileId)) failAgency('fileAlreadyRegistered');
  const stored: StoredAgencyFile = { fileId, usageType, mimeType, messagebaseId, registeredAt: ctx.store.now(), registerId: account.userId, fileName: file.filename || fileId, bytes: file.bytes, contentType: mimeType };
  ctx.store.agencyFiles.set(fileId, stored);
  return answer(ctx.store, stored);
}

/** An image registered for a messagebase has the size of one of its images (the service reference: 40011 otherwise). */
function checkFit(base: UsableMessagebase, bytes: Buffer): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    failAgency('imageSizeMismatch', 'not a readable image');
  }
  const got = { width: size.width ?? 0, height: size.height ?? 0 };
  if (!imageFits(base, got)) failAgency('imageSizeMismatch', `${got.width}x${got.height}; ${base.messagebaseId} takes ${sizesOf(base)}`);
}

function sizesOf(base: UsableMessagebase): string {
  const sizes = [...new Set(base.images.map((i) => `${i.width}x${i.height}`))];
  return sizes.length === 0 ? 'no image' : sizes.join(' or ');
}

function status(ctx: RequestContext): Reply {
  authenticate(ctx);
  const fileId = ctx.params.fileId as string;
  purgeGone(ctx.store, fileId);
  const f = ctx.store.agencyFiles.get(fileId);
  if (f === undefined) failAgency('unknownFile');
  return answer(ctx.store, f);
}

/** After D+456 00:00 the file is gone for good. */
function purgeGone(store: EmulatorStore, fileId: string): void {
  const f = store.agencyFiles.get(fileId);
  if (f !== undefined && store.now() >= kstMidnightAfter(new Date(f.registeredAt), AGENCY_FILE.validDays).getTime()) store.agencyFiles.delete(fileId);
}

function answer(store: EmulatorStore, f: StoredAgencyFile): Reply {
  const sendableUntil = kstMidnightAfter(new Date(f.registeredAt), AGENCY_FILE.sendableDays);
  return {
    status: 200,
    json: {
      status: '200',
      data: {
        fileInfo: {
          fileId: f.fileId,
          usageType: f.usageType,
          mimeType: f.mimeType,
          status: store.now() >= sendableUntil.getTime() ? 'expired' : 'ready',
          expiryDate: formatServiceTime(sendableUntil),
        },
      },
    },
  };
}
