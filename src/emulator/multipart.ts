// multipart/form-data bodies, parsed with busboy from an already size-capped
// buffer. Malformed or truncated input becomes an error envelope, never a crash.

import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { fail } from './service-error.js';

/** One uploaded file part. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

/** The parts of a multipart body: text fields and files, by part name. */
export interface MultipartBody {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
}

/** Parse a multipart body; 64303 (multipart/form-data) when it is not one or is malformed. */
export function parseMultipart(headers: IncomingHttpHeaders, body: Buffer): Promise<MultipartBody> {
  const type = headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) fail('invalidType', 'Content-Type: multipart/form-data');
  if (body.length === 0) fail('missingBody');
  return new Promise((resolve, reject) => {
    const out: MultipartBody = { fields: new Map(), files: new Map() };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: headers as busboy.BusboyConfig['headers'], limits: { fieldSize: body.length + 1, parts: 1000 } });
    } catch {
      reject(malformed());
      return;
    }
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      if (err !== undefined) reject(err);
      else resolve(out);
    };
    bb.on('field', (name, value) => out.fields.set(name, value));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', () => finish(malformed()));
      stream.on('end', () => out.files.set(name, { filename: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.concat(chunks) }));
    });
    bb.on('error', () => finish(malformed()));
    bb.on('close', () => finish());
    bb.end(body);
  });
}

function malformed(): unknown {
  try {
    fail('invalidType', 'multipart/form-data');
  } catch (err) {
    return err;
  }
}
