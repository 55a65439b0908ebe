// The account a kind acts as when nothing but the process can say it.

import { PERSON_ENV } from '../api/brands.js';

/**
 * RCSCTL_PERSON_ID of the process, for a re-read (or a removal) whose step recorded no account and that
 * this process did not read (a saved plan applied in a new process): the handlers and re-reads are given
 * no run environment yet. Reads take the run's (ReadEnv.account).
 */
export function processAccount(): string | undefined {
  const fromEnv = process.env[PERSON_ENV];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
}
