// Auto-reply messages and their image files (the service reference, Auto-reply
// messages; docs/decisions.md, "Auto-replies").

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { appendFile, brandPath, listAll, newForm, seg, type UploadFile } from './resource.js';
import { any, anyObject, arr, bool, num, obj, opt, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { AutoReplyDetail, AutoReplyFile, AutoReplyListItem, AutoReplyRequest } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** Client methods for auto-replies and their files. */
export interface AutoRepliesApi {
  /** Every auto-reply of the brand (list items, pages of 1000). */
  list(brand: BrandRef): AsyncIterable<AutoReplyListItem>;
  /** One auto-reply in full. */
  get(brand: BrandRef, id: string): Promise<AutoReplyDetail>;
  /** Create; a POST, so never retried (OutcomeUnknownError when the answer is lost). */
  create(brand: BrandRef, req: AutoReplyRequest): Promise<{ autoReplyMsgId: string }>;
  /** Update; 64323 (No changes) answered to a retry counts as success. */
  update(brand: BrandRef, id: string, req: AutoReplyRequest): Promise<{ autoReplyMsgId: string }>;
  /** Delete; `label` (the name) makes error messages readable. */
  delete(brand: BrandRef, id: string, label?: string): Promise<void>;
  /** Upload an image file (multipart part `file`). */
  uploadFile(brand: BrandRef, file: UploadFile): Promise<AutoReplyFile>;
  /** Read back a file's id, URL and original name. */
  getFile(brand: BrandRef, fileId: string): Promise<AutoReplyFile>;
}

// docs/decisions.md, "Auto-replies" (and the service reference, Auto-reply message): list item fields.
const listItemFields = {
  brandId: str,
  autoReplyMsgId: str,
  autoReplyMsgName: str,
  messagebaseId: str,
  approvalResult: str,
  registerDate: str,
  updateDate: str,
  registerId: opt(str),
  updateId: opt(str),
};
const listItem = obj(listItemFields);

// the service reference, Auto-reply message, detail response fields.
const detail = obj({
  ...listItemFields,
  status: opt(str),
  aprvRet: opt(str),
  autoReplyMsgType: opt(str),
  autoReplyMsgTypeNm: opt(str),
  cardCount: opt(num),
  copyAllowed: bool,
  body: anyObject,
  buttons: opt(arr(anyObject)),
  chipList: opt(arr(anyObject)),
});

// Create and update answer `[{autoReplyMsgId}]`; DELETE answers the same (docs/decisions.md, "Auto-replies").
const idResult = obj({ autoReplyMsgId: str });

// the service reference, Auto-reply file.
const fileResult = obj({ fileId: str, url: str, fileName: str });

function entity(id: string | undefined, name?: string): string {
  const named = name === undefined ? 'auto-reply' : `auto-reply "${name}"`;
  return id === undefined ? named : `${named} (${id})`;
}

/** The auto-reply methods over `transport`. */
export function autoRepliesApi(transport: Transport): AutoRepliesApi {
  return {
    list(brand) {
      return listAll<AutoReplyListItem>(transport, brandPath(brand, '/autoreplymsg'), listItem, { operation: 'list', entity: `auto-replies of ${brand.id}` }, brand);
    },
    async get(brand, id) {
      const label: OperationLabel = { operation: 'get', entity: entity(id) };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/autoreplymsg/${seg(id)}`), brand, label });
      return single<AutoReplyDetail>(res, detail, label);
    },
    async create(brand, req) {
      const label: OperationLabel = { operation: 'create', entity: entity(undefined, req.autoReplyMsgName) };
      const res = await transport.send({ method: 'POST', path: brandPath(brand, '/autoreplymsg'), brand, json: req, label });
      return single<{ autoReplyMsgId: string }>(res, idResult, label);
    },
    async update(brand, id, req) {
      const label: OperationLabel = { operation: 'update', entity: entity(id, req.autoReplyMsgName) };
      const res = await transport.send({
        method: 'PUT',
        path: brandPath(brand, `/autoreplymsg/${seg(id)}`),
        brand,
        json: req,
        label,
        successAfterRetry: [ERRORS.noChanges.code],
      });
      if (res.acceptedCode !== undefined) return { autoReplyMsgId: id };
      return single<{ autoReplyMsgId: string }>(res, idResult, label);
    },
    async delete(brand, id, name) {
      const label: OperationLabel = { operation: 'delete', entity: entity(id, name) };
      const res = await transport.send({
        method: 'DELETE',
        path: brandPath(brand, `/autoreplymsg/${seg(id)}`),
        brand,
        label,
        // A retried DELETE told "unknown id" means the first attempt got there.
        successAfterRetry: [ERRORS.invalidAutoReplyMsgId.code],
      });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async uploadFile(brand, file) {
      const label: OperationLabel = { operation: 'upload', entity: `auto-reply file "${file.fileName}"` };
      const res = await transport.send({
        method: 'POST',
        path: brandPath(brand, '/autoreplymsg/file'),
        brand,
        label,
        form: () => {
          const form = newForm();
          appendFile(form, 'file', file);
          return form;
        },
      });
      return single<AutoReplyFile>(res, fileResult, label);
    },
    async getFile(brand, fileId) {
      const label: OperationLabel = { operation: 'get', entity: `auto-reply file ${fileId}` };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/autoreplymsg/file/${seg(fileId)}`), brand, label });
      return single<AutoReplyFile>(res, fileResult, label);
    },
  };
}
