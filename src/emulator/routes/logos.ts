// Brand logos (the service reference, Brand logo and Logo modification;
// docs/decisions.md, "Logos").

import { imageSize } from 'image-size';
import { LOGO, MAX_LENGTH } from '../../spec/limits.js';
import { formatServiceTime } from '../../util/time.js';
import { authorizeBrand } from '../auth.js';
import { contentTypeOf, fileUrl, unreadableUpload } from '../files.js';
import { ok, paged, type RequestContext, withUnset } from '../http-types.js';
import type { UploadedFile } from '../multipart.js';
import type { Route } from '../router.js';
import { logoId } from '../ids.js';
import { fail } from '../service-error.js';
import { LOGO_MODIFIABLE, afterCancel, logoAfterModify } from '../state-machines.js';
import type { StoredBlob, StoredBrand, StoredLogo } from '../store.js';
import { extensionOf, optionalString, requiredString } from '../validate.js';

const BASE = '/api/1.1/brand/:brandId/logo';

/** The logo routes. */
export function logoRoutes(): Route[] {
  return [
    { method: 'GET', pattern: BASE, handler: list },
    { method: 'POST', pattern: BASE, handler: register },
    { method: 'GET', pattern: `${BASE}/:fileId`, handler: detail },
    { method: 'PUT', pattern: `${BASE}/:fileId`, handler: modify },
    { method: 'DELETE', pattern: `${BASE}/:fileId`, handler: remove },
    { method: 'PUT', pattern: `${BASE}/:fileId/cancel`, handler: cancel },
  ];
}

function list(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return paged(ctx, [...brand.logos.values()], (l) => view(ctx, l));
}

function detail(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return ok([view(ctx, find(brand, ctx.params.fileId as string))]);
}

async function register(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const form = await ctx.multipart();
  const fields = Object.fromEntries(form.fields);
  const name = requiredString(fields, 'name', MAX_LENGTH.logoName);
  const description = optionalString(fields, 'description', MAX_LENGTH.logoDescription) ?? null;
  const file = form.files.get('file');
  if (file === undefined) fail('requiredValue', 'file');
  const blob = checkLogoFile(file);
  if (brand.logos.size >= LOGO.maxPerBrand) fail('tooManyLogos', String(LOGO.maxPerBrand));
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const fileId = logoId(ctx.store, brand.brandId);
  brand.logos.set(fileId, { fileId, name, description, blob, approvalResult: '승인대기', approvalReason: null, registerDate: now, approvalDate: null, updateDate: now, registerId: account.userId, updateId: account.userId });
  return ok([{ fileId }]);
}

async function modify(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const logo = find(brand, ctx.params.fileId as string);
  if (!LOGO_MODIFIABLE.includes(logo.approvalResult)) fail('notAllowedModification');
  const form = await ctx.multipart();
  const fields = Object.fromEntries(form.fields);
  // Parts left out keep their stored value (*chosen*).
  const name = fields.name !== undefined ? requiredString(fields, 'name', MAX_LENGTH.logoName) : logo.name;
  const description = fields.description !== undefined ? (optionalString(fields, 'description', MAX_LENGTH.logoDescription) ?? null) : logo.description;
  const file = form.files.get('file');
  const blob = file !== undefined ? checkLogoFile(file) : logo.blob;
  if (name === logo.name && description === logo.description && blob.bytes.equals(logo.blob.bytes)) fail('noChanges');
  const from = logo.approvalResult;
  if (from === '승인') logo.previous = { name: logo.name, description: logo.description, blob: logo.blob };
  Object.assign(logo, { name, description, blob, approvalResult: logoAfterModify(from), approvalReason: null, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  return ok([{ fileId: logo.fileId }]);
}

function remove(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const logo = find(brand, ctx.params.fileId as string);
  brand.logos.delete(logo.fileId);
  return ok([{ fileId: logo.fileId }]);
}

function cancel(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const logo = find(brand, ctx.params.fileId as string);
  const to = afterCancel(logo.approvalResult);
  if (to === undefined) fail('notAllowedModification');
  if (logo.previous !== undefined && to === '승인') Object.assign(logo, logo.previous);
  delete logo.previous;
  Object.assign(logo, { approvalResult: to, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  return ok([{ fileId: logo.fileId }]);
}

/** Type, size and the one allowed size, 300x300 (64355, 64395, 64606). */
function checkLogoFile(file: UploadedFile): StoredBlob {
  if (file.filename === '' || !(LOGO.extensions as readonly string[]).includes(extensionOf(file.filename))) fail('notAllowedExtension');
  if ([...file.filename].length > MAX_LENGTH.fileName) fail('overSize', 'fileName');
  if (file.bytes.length > LOGO.maxBytes) fail('fileTooLarge');
  if (unreadableUpload(file.bytes, file.filename)) fail('notAllowedExtension');
  let size: { width?: number; height?: number };
  try {
    size = imageSize(file.bytes);
  } catch {
    fail('notAllowedExtension');
  }
  if (size.width !== LOGO.width || size.height !== LOGO.height) fail('logoSize');
  return { fileName: file.filename, bytes: file.bytes, contentType: contentTypeOf(file.filename) };
}

function find(brand: StoredBrand, id: string): StoredLogo {
  const l = brand.logos.get(id);
  if (l === undefined) fail('invalidFileId');
  return l;
}

function view(ctx: RequestContext, l: StoredLogo) {
  return withUnset(ctx.store, {
    fileId: l.fileId,
    fileUrl: fileUrl(ctx.baseUrl, l.fileId, l.blob.fileName),
    name: l.name,
    fileName: l.blob.fileName,
    description: l.description,
    approvalResult: l.approvalResult,
    approvalReason: l.approvalReason,
    registerDate: l.registerDate,
    approvalDate: l.approvalDate,
    updateDate: l.updateDate,
    registerId: l.registerId,
    updateId: l.updateId,
  });
}
