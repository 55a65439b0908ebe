// One check of `rcsctl doctor`: the noun shared by the doctor stage and the
// kinds that contribute checks of their own routes (ResourceKind.doctor).

/** The outcome of one check. */
export type CheckStatus = 'ok' | 'differs' | 'skipped';

/** One check: what rcsctl assumed, what the service said, where the assumption comes from. */
export interface DoctorCheck {
  id: string;
  title: string;
  status: CheckStatus;
  assumed: string;
  said: string;
  /** The place in the service reference or the public OpenAPI document. */
  doc: string;
  /** The service's error code, when the check differs because the service refused the request (the CLI words a hint from it). */
  serviceCode?: string;
}
