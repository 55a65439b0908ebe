// Brand logos (the service reference, Logo modification; docs/decisions.md, "Logos").

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { appendFile, brandPath, listAll, mapAll, newForm, seg, type UploadFile } from './resource.js';
import { any, obj, opt, str, unsetAsNull } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { Logo } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** A logo registration or modification: multipart parts name, description, file. */
export interface LogoRequest {
  name: string;
  description?: string;
  file: UploadFile;
}

/** Client methods for logos. */
export interface LogosApi {
  /** Every logo of the brand. */
  list(brand: BrandRef): AsyncIterable<Logo>;
  /** One logo. */
  get(brand: BrandRef, fileId: string): Promise<Logo>;
  /** Register a logo (starts in 승인대기); a POST, never retried. */
  create(brand: BrandRef, req: LogoRequest): Promise<{ fileId: string }>;
  /** Modify a logo (requests approval again); 64323 answered to a retry counts as success. */
  update(brand: BrandRef, fileId: string, req: LogoRequest): Promise<{ fileId: string }>;
  /** Delete a logo. */
  delete(brand: BrandRef, fileId: string, label?: string): Promise<void>;
  /** Withdraw a pending approval request. */
  cancel(brand: BrandRef, fileId: string): Promise<void>;
}

// docs/decisions.md, "Logos": the logo object.
const logo = obj({
  fileId: str,
  fileUrl: opt(str),
  name: str,
  fileName: opt(str),
  description: opt(str),
  approvalResult: str,
  approvalReason: opt(str),
  registerDate: opt(str),
  approvalDate: opt(str),
  updateDate: opt(str),
  registerId: opt(str),
  updateId: opt(str),
});

// docs/decisions.md, "Logos": create, modify and delete answer `[{fileId}]`.
const fileIdResult = obj({ fileId: str });

function entity(fileId: string | undefined, name?: string): string {
  const named = name === undefined ? 'logo' : `logo "${name}"`;
  return fileId === undefined ? named : `${named} (${fileId})`;
}

function logoForm(req: LogoRequest): () => import('undici').FormData {
  return () => {
    const form = newForm();
    form.append('name', req.name);
    if (req.description !== undefined) form.append('description', req.description);
    appendFile(form, 'file', req.file);
    return form;
  };
}

/** The logo methods over `transport`. */
export function logosApi(transport: Transport): LogosApi {
  return {
    list(brand) {
      return mapAll(listAll<Logo>(transport, brandPath(brand, '/logo'), logo, { operation: 'list', entity: `logos of ${brand.id}` }, brand), readLogo);
    },
    async get(brand, fileId) {
      const label: OperationLabel = { operation: 'get', entity: entity(fileId) };
      const res = await transport.send({ method: 'GET', path: brandPath(brand, `/logo/${seg(fileId)}`), brand, label });
      return readLogo(single<Logo>(res, logo, label));
    },
    async create(brand, req) {
      const label: OperationLabel = { operation: 'create', entity: entity(undefined, req.name) };
      const res = await transport.send({ method: 'POST', path: brandPath(brand, '/logo'), brand, label, form: logoForm(req) });
      return single<{ fileId: string }>(res, fileIdResult, label);
    },
    async update(brand, fileId, req) {
      const label: OperationLabel = { operation: 'update', entity: entity(fileId, req.name) };
      const res = await transport.send({
        method: 'PUT',
        path: brandPath(brand, `/logo/${seg(fileId)}`),
        brand,
        label,
        form: logoForm(req),
        successAfterRetry: [ERRORS.noChanges.code],
      });
      if (res.acceptedCode !== undefined) return { fileId };
      return single<{ fileId: string }>(res, fileIdResult, label);
    },
    async delete(brand, fileId, name) {
      const label: OperationLabel = { operation: 'delete', entity: entity(fileId, name) };
      const res = await transport.send({
        method: 'DELETE',
        path: brandPath(brand, `/logo/${seg(fileId)}`),
        brand,
        label,
        successAfterRetry: [ERRORS.invalidFileId.code],
      });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async cancel(brand, fileId) {
      const label: OperationLabel = { operation: 'cancel approval of', entity: entity(fileId) };
      const res = await transport.send({ method: 'PUT', path: brandPath(brand, `/logo/${seg(fileId)}/cancel`), brand, label });
      results(res, any, label);
    },
  };
}

/** Logo fields without a value read as null, whichever form the service answers them in. */
function readLogo(l: Logo): Logo {
  return unsetAsNull(l, ['description', 'approvalReason', 'approvalDate']);
}
