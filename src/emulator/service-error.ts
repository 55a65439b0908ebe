// The one exception every emulator handler throws to answer with a documented
// error; the server turns it into the management or agency error body.

import { AGENCY_ERRORS, ERRORS, formatMessage, type ErrorDef, type ErrorName } from '../api/codes.js';

/** A documented service error, with the detail that fills the message's `%s`. */
export class ServiceError extends Error {
  constructor(
    readonly def: ErrorDef,
    readonly detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(formatMessage(def, detail));
  }
}

/** Errors the emulator needs that the service documents nowhere (*chosen*, docs/emulator.md). */
export const EMULATOR_ERRORS = {
  notFound: { http: 404, code: '60404', message: 'Not Found' },
  methodNotAllowed: { http: 405, code: '60405', message: 'Method Not Allowed' },
  bodyTooLarge: { http: 413, code: '64304', message: 'Over specified size (%s)' },
  forbiddenAdmin: { http: 403, code: '60403', message: 'Admin API is loopback only' },
  badAdminRequest: { http: 400, code: '60400', message: 'Bad admin request (%s)' },
  adminNotFound: { http: 404, code: '60404', message: 'Not Found (%s)' },
  invalidTransition: { http: 409, code: '60409', message: 'Invalid transition (%s)' },
} as const satisfies Record<string, ErrorDef>;

/** Throw a documented management error. */
export function fail(name: ErrorName, detail?: string): never {
  throw new ServiceError(ERRORS[name], detail);
}

/** Throw a documented agency messaging error. */
export function failAgency(name: keyof typeof AGENCY_ERRORS, detail?: string): never {
  throw new ServiceError(AGENCY_ERRORS[name], detail);
}

/** Throw one of the emulator's own errors. */
export function failEmulator(name: keyof typeof EMULATOR_ERRORS, detail?: string): never {
  throw new ServiceError(EMULATOR_ERRORS[name], detail);
}
