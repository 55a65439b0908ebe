// Why one brand could not be planned, applied or checked, while the others
// went on: a refused or failed request (403, 5xx after retries, no
// connection), a problem in its manifests, or a step that failed. Every
// report format carries it in the brand's entry (`error`).

import { RcsApiError } from '../api/errors.js';
import { errorMessage, RcsctlError } from '../errors.js';

/** The stage a brand failed in. */
export type BrandStage = 'manifest' | 'read' | 'plan' | 'apply' | 'verify';

/** What went wrong with one brand; never holds a secret (messages come redacted from the client). */
export interface BrandError {
  /** Stable code: `E_API`, `E_NETWORK`, `E_MANIFEST`, `E_STEP_FAILED`, ... */
  code: string;
  stage: BrandStage;
  message: string;
  /** The HTTP status, when the service answered. */
  httpStatus?: number;
  /** The service's own code, when it gave one. */
  serviceCode?: string;
  /** What to do next, for the errors people meet most. */
  hint?: string;
  /** The manifest file the error points at: for a service error (403, 401, 5xx) the one that declares the brand, for a manifest error the first error's. */
  file?: string;
  /** The line in that file: of its `brand:`, or of the first error. */
  line?: number;
  /** A manifest error's column (1-based). */
  col?: number;
  /** A manifest error's source line, and a caret under the column under it (two lines). */
  excerpt?: string;
}

/** Where the manifests declare a brand: its document's `brand:` line. */
export interface BrandDeclaration {
  brandId: string;
  file: string;
  line: number;
}

/** What to do next about an error, when there is advice (the CLI's hints). */
export type HintFor = (err: unknown) => string | undefined;

/**
 * The BrandError for anything thrown while working on one brand; `hintFor`
 * adds advice. A service error (the service answered 403, 401, 5xx ...) names
 * the manifest line that declares the brand, compiler-style:
 * `brands/acme/brand.yaml:3: list logos of BR.x failed: 403 63001 …` (with
 * `brand BR.x: ` after the position when the message does not name the brand).
 */
export function toBrandError(err: unknown, stage: BrandStage, hintFor: HintFor = () => undefined, declared?: BrandDeclaration): BrandError {
  const code = err instanceof RcsctlError ? err.code : 'E_INTERNAL';
  const out: BrandError = { code, stage, message: errorMessage(err) };
  if (err instanceof RcsApiError) {
    out.httpStatus = err.httpStatus;
    if (err.serviceCode !== '') out.serviceCode = err.serviceCode;
    if (declared !== undefined) {
      const brand = out.message.includes(declared.brandId) ? '' : `brand ${declared.brandId}: `;
      out.message = `${declared.file}:${declared.line}: ${brand}${out.message}`;
      out.file = declared.file;
      out.line = declared.line;
    }
  }
  const hint = hintFor(err);
  if (hint !== undefined) out.hint = hint;
  return out;
}

/** One line: `E_API (read): list auto-replies failed: 403 63001 ...`. */
export function brandErrorLine(e: BrandError): string {
  return `${e.code} (${e.stage}): ${e.message}`;
}
