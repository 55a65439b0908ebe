// Agency message files, on the agency messaging interface (the service reference,
// Agency messaging interface; failure codes: docs/decisions.md, "Envelopes, errors and empty lists").

import { unwrapped } from './envelope.js';
import { isServiceError, type OperationLabel } from './errors.js';
import { appendFile, newForm, seg, type UploadFile } from './resource.js';
import { obj, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { AgencyFileInfo, AgencyFileResponse } from '../contract/wire.js';
import { AGENCY_ERRORS } from '../contract/codes.js';

/** Agency messaging version prefix. */
const AGENCY_PREFIX = '/ag/1.2';

/** A file registration: multipart parts fileId, usageType, mimeType, file, messagebaseId. */
export interface AgencyFileRequest {
  fileId: string;
  usageType: string;
  mimeType: string;
  file: UploadFile;
  messagebaseId?: string;
}

/** Client methods for agency message files. */
export interface AgencyFilesApi {
  /** Register a file under a chosen fileId; a POST, never retried (a repeat answers 40010). */
  register(brand: BrandRef, req: AgencyFileRequest): Promise<AgencyFileInfo>;
  /** A file's status; undefined when the service does not know it (40001). */
  get(brand: BrandRef, fileId: string): Promise<AgencyFileInfo | undefined>;
}

// the service reference: `{status:'200', data:{fileInfo:{fileId, usageType, mimeType, status, expiryDate}}}`.
const fileResponse = obj({
  data: obj({ fileInfo: obj({ fileId: str, usageType: str, mimeType: str, status: str, expiryDate: str }) }),
});

/** The agency file methods over `transport`. */
export function agencyFilesApi(transport: Transport): AgencyFilesApi {
  return {
    async register(brand, req) {
      const label: OperationLabel = { operation: 'register', entity: `agency file ${req.fileId}` };
      const res = await transport.send({
        method: 'POST',
        family: 'agency',
        path: `${AGENCY_PREFIX}/file`,
        brand,
        label,
        form: () => {
          const form = newForm();
          form.append('fileId', req.fileId);
          form.append('usageType', req.usageType);
          form.append('mimeType', req.mimeType);
          appendFile(form, 'file', req.file);
          if (req.messagebaseId !== undefined) form.append('messagebaseId', req.messagebaseId);
          return form;
        },
      });
      return unwrapped<AgencyFileResponse>(res, fileResponse, label).data.fileInfo;
    },
    async get(brand, fileId) {
      const label: OperationLabel = { operation: 'get', entity: `agency file ${fileId}` };
      try {
        const res = await transport.send({ method: 'GET', family: 'agency', path: `${AGENCY_PREFIX}/file/${seg(fileId)}`, brand, label });
        return unwrapped<AgencyFileResponse>(res, fileResponse, label).data.fileInfo;
      } catch (err) {
        if (isServiceError(err, AGENCY_ERRORS.unknownFile.code)) return undefined;
        throw err;
      }
    },
  };
}
