// Brand templates (messagebases), their image files, and the template forms
// they are written against. Shapes: the public OpenAPI document (Messagebase,
// MessagebaseInfo, MessagebaseForm(Info), RegMessagebaseInfo, RegTemplateInfo,
// ModTemplateInfo, TemplateFileInfo, MessagebaseformLogo); the paths are the
// service reference's. What both leave open is in docs/decisions.md.

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { API_PREFIX, appendFile, brandPath, listAll, newForm, seg, type UploadFile } from './resource.js';
import { any, anyObject, arr, num, obj, opt, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type {
  MessagebaseForm,
  MessagebaseFormListItem,
  MessagebaseFormLogo,
  TemplateDetail,
  TemplateFile,
  TemplateListItem,
  TemplateV1Request,
  TemplateV2Modification,
  TemplateV2Request,
} from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** Client methods for brand templates, their files and the forms. */
export interface TemplatesApi {
  /** Every template of the brand (list items). */
  list(brand: BrandRef): AsyncIterable<TemplateListItem>;
  /** One template in full. */
  get(brand: BrandRef, messagebaseId: string): Promise<TemplateDetail>;
  /** Register a text template (v1, one entry of `regMessagebases`); a POST, never retried. */
  createText(brand: BrandRef, req: TemplateV1Request): Promise<{ messagebaseId: string }>;
  /** Modify a text template (v1 PUT); 64323 or 64328 answered to a retry counts as success. */
  updateText(brand: BrandRef, messagebaseId: string, req: TemplateV1Request): Promise<{ messagebaseId: string }>;
  /** Register a template through v2 (params in `body`); a POST, never retried. */
  create(brand: BrandRef, req: TemplateV2Request): Promise<{ messagebaseId: string }>;
  /** Modify a template through v2; retried like an update (64323 or 64328 on a retry is success). */
  update(brand: BrandRef, messagebaseId: string, req: TemplateV2Modification): Promise<{ messagebaseId: string }>;
  /** Delete a template; 64106 answered to a retry counts as success. */
  delete(brand: BrandRef, messagebaseId: string, name?: string): Promise<void>;
  /** Withdraw a pending review (승인대기 → 저장; a pending or rejected modification rolls back to the approved one). */
  cancel(brand: BrandRef, messagebaseId: string, name?: string): Promise<void>;
  /** Upload an image for image templates (multipart part `file`). */
  uploadFile(brand: BrandRef, file: UploadFile): Promise<TemplateFile>;
  /** One uploaded template image. */
  getFile(brand: BrandRef, fileId: string): Promise<TemplateFile>;
  /** Every template form. */
  listForms(): AsyncIterable<MessagebaseFormListItem>;
  /** One form in full: widget policy, params, limits. */
  getForm(messagebaseformId: string): Promise<MessagebaseForm>;
  /** The logos the service offers for a form's title. */
  formLogos(messagebaseformId: string): Promise<MessagebaseFormLogo[]>;
}

// The public document: Messagebase (the list item).
const listItemFields = {
  groupId: opt(str),
  messagebaseId: str,
  tmpltName: str,
  messagebaseformId: str,
  brandId: opt(str),
  status: opt(str),
  approvalResult: str,
  approvalReason: opt(str),
  registerDate: opt(str),
  approvalDate: opt(str),
  updateDate: str,
  registerId: opt(str),
  updateId: opt(str),
};
const listItem = obj(listItemFields);

const param = obj({ param: str, type: opt(str), contentType: opt(str), strSize: opt(num), inputText: opt(str) });

// The public document: MessagebaseInfo; custTmpltId, body and buttons are assumed (docs/decisions.md).
const detail = obj({
  ...listItemFields,
  productCode: opt(str),
  cardType: opt(str),
  params: opt(arr(param)),
  files: opt(arr(anyObject)),
  formattedString: opt(anyObject),
  custTmpltId: opt(str),
  body: opt(arr(anyObject)),
  buttons: opt(arr(anyObject)),
});

const formListItem = obj({ messagebaseformId: str, formName: str, cardType: opt(str), bizCategory: opt(str), bizService: opt(str) });
const form = obj({
  messagebaseformId: str,
  formName: str,
  cardType: opt(str),
  bizCategory: opt(str),
  productCode: opt(str),
  policyInfo: obj({ cardCount: num, maxButtonCount: num }),
  params: arr(param),
  formattedString: anyObject,
});
const formLogo = obj({ fileId: str, fileUrl: opt(str), fileName: opt(str) });

// Register, modify, delete and cancel answer `[{messagebaseId}]`.
const idResult = obj({ messagebaseId: str });
// The public document: TemplateFileInfo.
const fileResult = obj({ fileId: str, url: str, fileName: str, imageWidth: opt(num), imageHeight: opt(num) });

function entity(id: string | undefined, name?: string): string {
  const named = name === undefined ? 'template' : `template "${name}"`;
  return id === undefined ? named : `${named} (${id})`;
}

/** The template methods over `transport`. */
export function templatesApi(transport: Transport): TemplatesApi {
  async function sendId(label: OperationLabel, brand: BrandRef, method: 'POST' | 'PUT', path: string, json: unknown, id?: string): Promise<{ messagebaseId: string }> {
    const res = await transport.send({
      method,
      path: brandPath(brand, path),
      brand,
      json,
      label,
      // A retried modification finds the first attempt's work: unchanged (64323), or already under review (64328).
      // Verification after apply reads the template back, so a wrong guess here cannot pass unnoticed.
      ...(id !== undefined ? { idempotent: true, successAfterRetry: [ERRORS.noChanges.code, ERRORS.notAllowedModification.code] } : {}),
    });
    if (res.acceptedCode !== undefined && id !== undefined) return { messagebaseId: id };
    return single<{ messagebaseId: string }>(res, idResult, label);
  }
  return {
    list(brand) {
      return listAll<TemplateListItem>(transport, brandPath(brand, '/messagebase'), listItem, { operation: 'list', entity: `templates of ${brand.id}` }, brand);
    },
    async get(brand, id) {
      const label: OperationLabel = { operation: 'get', entity: entity(id) };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/messagebase/${seg(id)}`), brand, label });
      return single<TemplateDetail>(res, detail, label);
    },
    createText: (brand, req) => sendId({ operation: 'create', entity: entity(undefined, req.tmpltName) }, brand, 'POST', '/messagebase', { regMessagebases: [req] }),
    updateText: (brand, id, req) => sendId({ operation: 'update', entity: entity(id, req.tmpltName) }, brand, 'PUT', `/messagebase/${seg(id)}`, req, id),
    create: (brand, req) => sendId({ operation: 'create', entity: entity(undefined, req.tmpltName) }, brand, 'POST', '/v2/messagebase', req),
    // The service reference names POST for the v2 modification (the public document says PUT; the reference wins).
    update: (brand, id, req) => sendId({ operation: 'update', entity: entity(id, req.tmpltName) }, brand, 'POST', `/v2/messagebase/${seg(id)}`, req, id),
    async delete(brand, id, name) {
      const label: OperationLabel = { operation: 'delete', entity: entity(id, name) };
      const res = await transport.send({ method: 'DELETE', path: brandPath(brand, `/messagebase/${seg(id)}`), brand, label, successAfterRetry: [ERRORS.invalidMessagebaseId.code] });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async cancel(brand, id, name) {
      const label: OperationLabel = { operation: 'cancel the review of', entity: entity(id, name) };
      const res = await transport.send({ method: 'PUT', path: brandPath(brand, `/messagebase/${seg(id)}/cancel`), brand, label });
      results(res, any, label);
    },
    async uploadFile(brand, file) {
      const label: OperationLabel = { operation: 'upload', entity: `template file "${file.fileName}"` };
      const res = await transport.send({
        method: 'POST',
        path: brandPath(brand, '/v2/messagebase/file'),
        brand,
        label,
        form: () => {
          const f = newForm();
          appendFile(f, 'file', file);
          return f;
        },
      });
      return single<TemplateFile>(res, fileResult, label);
    },
    async getFile(brand, fileId) {
      const label: OperationLabel = { operation: 'get', entity: `template file ${fileId}` };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/v2/messagebase/file/${seg(fileId)}`), brand, label });
      return single<TemplateFile>(res, fileResult, label);
    },
    listForms: () => listAll<MessagebaseFormListItem>(transport, `${API_PREFIX}/messagebase/messagebaseform`, formListItem, { operation: 'list', entity: 'template forms' }),
    async getForm(id) {
      const label: OperationLabel = { operation: 'get', entity: `template form ${id}` };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/messagebase/messagebaseform/${seg(id)}`, label });
      return single<MessagebaseForm>(res, form, label);
    },
    async formLogos(id) {
      const label: OperationLabel = { operation: 'list', entity: `logos of template form ${id}` };
      const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/messagebase/messagebaseform/${seg(id)}/logo`, label });
      return results<MessagebaseFormLogo>(res, formLogo, label);
    },
  };
}
