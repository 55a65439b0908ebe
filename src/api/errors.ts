// The client's error types. Every failure the service reports becomes an
// RcsApiError that names the operation and the entity; a POST whose outcome is
// not known becomes an OutcomeUnknownError so the applier can read back instead
// of creating twice. No error here ever holds a header, a token or a secret:
// messages are built from the service's code and message, which the transport
// passes through its redactor first.

import { RcsctlError } from '../errors.js';

/** HTTP methods the service uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a request was doing, for error messages: `update auto-reply "Hours" (ARM1)`. */
export interface OperationLabel {
  /** Verb such as `create`, `update`, `list`. */
  operation: string;
  /** The thing acted on: `auto-reply "Hours" (ARM1)`; absent for plain calls. */
  entity?: string;
}

/** Where a request went: method and path (no query string, no host). */
export interface RequestSite {
  method: HttpMethod;
  path: string;
}

function subject(site: RequestSite, label?: OperationLabel): string {
  if (label === undefined) return `${site.method} ${site.path}`;
  return label.entity === undefined ? `${label.operation} (${site.method} ${site.path})` : `${label.operation} ${label.entity}`;
}

/** The service answered with an error envelope (or an agency failure body). */
export class RcsApiError extends RcsctlError {
  override readonly name: string = 'RcsApiError';
  /** HTTP status of the answer. */
  readonly httpStatus: number;
  /** The service's code, e.g. `64328`; `''` when the body carried none. */
  readonly serviceCode: string;
  /** The service's message, e.g. `Not allowed modification`. */
  readonly serviceMessage: string;
  /** Request method. */
  readonly method: HttpMethod;
  /** Request path without query string. */
  readonly path: string;
  /** The entity acted on, when known: `auto-reply "Hours" (ARM1)`. */
  readonly entity?: string;
  /** The verb: `create`, `update`, `delete`, `list`, `get`... */
  readonly operation?: string;
  /**
   * Set when no request of the client had been answered with success before
   * this one: a 404 then says that the address is wrong (the base URL), not
   * that one resource is missing.
   */
  nothingAnsweredBefore?: true;
  /** With `nothingAnsweredBefore`: the path the base URL itself holds (`/rcs`, `/api/1.1`), `''` for none. */
  basePath?: string;

  constructor(site: RequestSite, httpStatus: number, serviceCode: string, serviceMessage: string, label?: OperationLabel) {
    const codePart = serviceCode === '' ? '' : ` ${serviceCode}`;
    super('E_API', `${subject(site, label)} failed: ${httpStatus}${codePart} ${serviceMessage}`.trimEnd(), {
      httpStatus,
      serviceCode,
      serviceMessage,
      method: site.method,
      path: site.path,
      ...(label?.entity !== undefined ? { entity: label.entity } : {}),
    });
    this.httpStatus = httpStatus;
    this.serviceCode = serviceCode;
    this.serviceMessage = serviceMessage;
    this.method = site.method;
    this.path = site.path;
    if (label?.entity !== undefined) this.entity = label.entity;
    if (label !== undefined) this.operation = label.operation;
  }
}

/**
 * A POST that may have reached the service, with no answer to tell whether it
 * took effect (reset, timeout, dropped response, gateway error). Never retried:
 * the caller reads back by identity and creates only if absent.
 */
export class OutcomeUnknownError extends RcsctlError {
  override readonly name: string = 'OutcomeUnknownError';
  /** Request method (always a non-idempotent one). */
  readonly method: HttpMethod;
  /** Request path without query string. */
  readonly path: string;
  /** The entity the request was creating, when known. */
  readonly entity?: string;
  /** Why the outcome is unknown, e.g. `connection reset` or `502 Bad Gateway`. */
  readonly reason: string;

  constructor(site: RequestSite, reason: string, label?: OperationLabel) {
    super('E_OUTCOME_UNKNOWN', `${subject(site, label)}: outcome unknown (${reason}); the request may have taken effect, read back before trying again`, {
      method: site.method,
      path: site.path,
      reason,
      ...(label?.entity !== undefined ? { entity: label.entity } : {}),
    });
    this.method = site.method;
    this.path = site.path;
    this.reason = reason;
    if (label?.entity !== undefined) this.entity = label.entity;
  }
}

/** A response whose body does not have the documented shape; names the field. */
export class ResponseShapeError extends RcsctlError {
  override readonly name: string = 'ResponseShapeError';
  /** JSON path of the offending field, e.g. `result[0].autoReplyMsgId`. */
  readonly field: string;
  /** What was expected there, e.g. `string`. */
  readonly expected: string;
  /** What came instead (a type name, never the value). */
  readonly actual: string;
  /** Request method. */
  readonly method: HttpMethod;
  /** Request path without query string. */
  readonly path: string;

  constructor(site: RequestSite, field: string, expected: string, actual: string, label?: OperationLabel) {
    super('E_API_SHAPE', `${subject(site, label)}: unexpected response: ${field} should be ${expected}, got ${actual}`, {
      field,
      expected,
      actual,
      method: site.method,
      path: site.path,
    });
    this.field = field;
    this.expected = expected;
    this.actual = actual;
    this.method = site.method;
    this.path = site.path;
  }
}

/** The service could not be reached, or kept failing, until retries ran out. */
export class ApiTransportError extends RcsctlError {
  override readonly name: string = 'ApiTransportError';
  /** Request method. */
  readonly method: HttpMethod;
  /** Request path without query string. */
  readonly path: string;
  /** Attempts made, the first one included. */
  readonly attempts: number;

  constructor(site: RequestSite, reason: string, attempts: number, label?: OperationLabel) {
    super('E_NETWORK', `${subject(site, label)} failed: ${reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, {
      method: site.method,
      path: site.path,
      attempts,
    });
    this.method = site.method;
    this.path = site.path;
    this.attempts = attempts;
  }
}

/** True when `err` is an RcsApiError carrying the service code `code` (e.g. `64323`). */
export function isServiceError(err: unknown, code: string): boolean {
  return err instanceof RcsApiError && err.serviceCode === code;
}

/** The caller aborted the request (its run is stopping): it was not sent, or its answer was not awaited, so whether it took effect is unknown. */
export class RequestAbortedError extends RcsctlError {
  override readonly name: string = 'RequestAbortedError';

  constructor(site: RequestSite, label?: OperationLabel) {
    super('E_INTERRUPTED', `${subject(site, label)}: aborted (the run is stopping); the next plan shows whether it took effect`, { method: site.method, path: site.path });
  }
}
