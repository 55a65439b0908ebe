// The one exception every emulator handler throws to answer with a documented
// error; the server turns it into the management or agency error body.

import { AGENCY_AUTH_CODES, AGENCY_EQUIVALENTS, AGENCY_ERRORS, EMULATOR_ERRORS, ERRORS, formatMessage, type AgencyErrorName, type ErrorDef, type ErrorName } from '../contract/codes.js';

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
export function failAgency(name: AgencyErrorName, detail?: string): never {
  throw new ServiceError(AGENCY_ERRORS[name], detail);
}

/** Throw one of the emulator's own errors. */
export function failEmulator(name: keyof typeof EMULATOR_ERRORS, detail?: string): never {
  throw new ServiceError(EMULATOR_ERRORS[name], detail);
}

/**
 * The code and message an error takes on the agency interface: its own 4xxxx
 * codes and the token's pass; any other becomes its 4xxxx equivalent, with the
 * same HTTP status and detail (docs/decisions.md, "Codes of the agency messaging interface").
 */
export function onAgencyInterface(err: ServiceError): { def: ErrorDef; detail: string | undefined } {
  const def = err.def;
  if (/^4\d{4}$/.test(def.code) || AGENCY_AUTH_CODES.includes(def.code)) return { def, detail: err.detail };
  const name = AGENCY_EQUIVALENTS[def.code];
  if (name === undefined) return { def: { ...AGENCY_ERRORS.invalidRequest, http: def.http }, detail: formatMessage(def, err.detail) };
  return { def: { ...AGENCY_ERRORS[name], http: def.http }, detail: err.detail };
}
