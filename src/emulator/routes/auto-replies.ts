// Auto-reply messages and their image files (the service reference, Auto-reply
// messages; docs/decisions.md, "Auto-replies").

import type { ButtonGroup, Suggestion } from '../../contract/wire.js';
import { AUTO_REPLY_FILE, MAX_LENGTH } from '../../spec/limits.js';
import { formatServiceTime } from '../../util/time.js';
import { bodyAsRead, fillPostbacks, parseAutoReply } from '../auto-reply-model.js';
import { authorizeBrand } from '../auth.js';
import { fileUrl, contentTypeOf, unreadableUpload } from '../files.js';
import { ok, paged, withUnset, type RequestContext } from '../http-types.js';
import type { Route } from '../router.js';
import { fail } from '../service-error.js';
import type { StoredAutoReply, StoredBrand, StoredFile } from '../store.js';
import { extensionOf, sameJson } from '../validate.js';

const BASE = '/api/1.1/brand/:brandId/autoreplymsg';

/** The auto-reply routes. */
export function autoReplyRoutes(): Route[] {
  return [
    { method: 'POST', pattern: BASE, handler: create },
    { method: 'GET', pattern: BASE, handler: list },
    { method: 'POST', pattern: `${BASE}/file`, handler: uploadFile },
    { method: 'GET', pattern: `${BASE}/file/:fileId`, handler: fileDetail },
    { method: 'GET', pattern: `${BASE}/:id`, handler: detail },
    { method: 'PUT', pattern: `${BASE}/:id`, handler: update },
    { method: 'DELETE', pattern: `${BASE}/:id`, handler: remove },
  ];
}

async function create(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const content = parseAutoReply(ctx.store, brand, await ctx.json());
  const id = ctx.store.nextId('ARM');
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const stored: StoredAutoReply = { autoReplyMsgId: id, ...content, approvalResult: '등록완료', registerDate: now, updateDate: now, registerId: account.userId, updateId: account.userId };
  setFilled(ctx, stored);
  brand.autoReplies.set(id, stored);
  return ok([{ autoReplyMsgId: id }]);
}

async function update(ctx: RequestContext) {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const stored = find(brand, ctx.params.id as string);
  if (stored.approvalResult === '처리중') fail('notAllowedModification');
  const content = parseAutoReply(ctx.store, brand, await ctx.json(), stored.autoReplyMsgId);
  const current = { autoReplyMsgName: stored.autoReplyMsgName, messagebaseId: stored.messagebaseId, copyAllowed: stored.copyAllowed, body: stored.body, buttons: stored.buttons, chipList: stored.chipList };
  if (sameJson(normaliseLists(current), normaliseLists(content))) fail('noChanges');
  delete stored.buttons;
  delete stored.chipList;
  Object.assign(stored, content, { updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  // A 저장 auto-reply registers on update, as a create does.
  stored.approvalResult = '등록완료';
  setFilled(ctx, stored);
  return ok([{ autoReplyMsgId: stored.autoReplyMsgId }]);
}

function list(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return paged(ctx, [...brand.autoReplies.values()], listItem(brand));
}

function detail(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const a = find(brand, ctx.params.id as string);
  const facts = ctx.store.messagebase(a.messagebaseId);
  const processing = a.approvalResult === '처리중';
  return ok([
    withUnset(ctx.store, {
      ...listItem(brand)(a),
      status: processing ? 'APRV_MOD' : 'ACTIVE',
      aprvRet: processing ? 'INSPECTED' : a.approvalResult === '등록완료' ? 'OK' : null,
      autoReplyMsgType: facts?.type ?? 'SCL',
      autoReplyMsgTypeNm: facts?.typeName ?? '말풍선',
      cardCount: 0,
      copyAllowed: a.copyAllowed,
      body: bodyAsRead(ctx.store, a.body),
      ...suggestionsAsRead(ctx, a),
    }),
  ]);
}

function remove(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const a = find(brand, ctx.params.id as string);
  if (a.approvalResult === '처리중') fail('notAllowedDelete');
  brand.autoReplies.delete(a.autoReplyMsgId);
  return ok([{ autoReplyMsgId: a.autoReplyMsgId }]);
}

async function uploadFile(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const form = await ctx.multipart();
  const file = form.files.get('file');
  if (file === undefined) fail('requiredValue', 'file');
  if (file.filename === '') fail('requiredValue', 'fileName');
  if ([...file.filename].length > MAX_LENGTH.fileName) fail('overSize', 'fileName');
  if (!(AUTO_REPLY_FILE.extensions as readonly string[]).includes(extensionOf(file.filename))) fail('notAllowedExtension');
  if (file.bytes.length > AUTO_REPLY_FILE.maxBytes) fail('fileTooLarge');
  if (file.bytes.length === 0) fail('missingBody');
  if (unreadableUpload(file.bytes, file.filename)) fail('notAllowedExtension');
  const fileId = ctx.store.nextId('ARF');
  const stored: StoredFile = { fileId, brandId: brand.brandId, fileName: file.filename, bytes: file.bytes, contentType: contentTypeOf(file.filename) };
  brand.files.set(fileId, stored);
  return ok([fileView(ctx, stored)]);
}

function fileDetail(ctx: RequestContext) {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const f = brand.files.get(ctx.params.fileId as string);
  if (f === undefined) fail('invalidFileId');
  return ok([fileView(ctx, f)]);
}

function fileView(ctx: RequestContext, f: StoredFile) {
  return { fileId: f.fileId, url: fileUrl(ctx.baseUrl, f.fileId, f.fileName), fileName: f.fileName };
}

function find(brand: StoredBrand, id: string): StoredAutoReply {
  const a = brand.autoReplies.get(id);
  if (a === undefined) fail('invalidAutoReplyMsgId');
  return a;
}

function listItem(brand: StoredBrand) {
  return (a: StoredAutoReply) => ({
    brandId: brand.brandId,
    autoReplyMsgId: a.autoReplyMsgId,
    autoReplyMsgName: a.autoReplyMsgName,
    messagebaseId: a.messagebaseId,
    approvalResult: a.approvalResult,
    registerDate: a.registerDate,
    updateDate: a.updateDate,
    registerId: a.registerId,
    updateId: a.updateId,
  });
}

function setFilled(ctx: RequestContext, a: StoredAutoReply): void {
  const filled = fillPostbacks(ctx.store, a.buttons, a.chipList);
  delete a.filledButtons;
  delete a.filledChipList;
  if (filled.buttons !== undefined) a.filledButtons = filled.buttons;
  if (filled.chipList !== undefined) a.filledChipList = filled.chipList;
}

/** Absent and empty lists compare alike. */
function normaliseLists(c: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  for (const k of ['buttons', 'chipList']) if (Array.isArray(out[k]) && (out[k] as unknown[]).length === 0) delete out[k];
  return out;
}

/** buttons and chipList as a read shows them: postback data filled in, unless the behaviour says otherwise. */
function suggestionsAsRead(ctx: RequestContext, a: StoredAutoReply): { buttons?: ButtonGroup[]; chipList?: Suggestion[] } {
  const fill = ctx.store.behaviour.fillPostbacks;
  const buttons = fill ? a.filledButtons : a.buttons;
  const chipList = fill ? a.filledChipList : a.chipList;
  return { ...(buttons !== undefined ? { buttons } : {}), ...(chipList !== undefined ? { chipList } : {}) };
}
