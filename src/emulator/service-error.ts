// The one exception every emulator handler throws to answer with a documented
// error; the server turns it into the management or agency error body.

import { AGENCY_ERRORS, EMULATOR_ERRORS, ERRORS, formatMessage, type ErrorDef, type ErrorName } from '../contract/codes.js';

export { EMULATOR_ERRORS };

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
