// The service's condition, one for the whole controller: `ok`, `unreachable`
// (no answer: refused, reset, timed out, or a gateway's 502/503/504) or
// `unauthorized` (401: the token is invalid or has expired). Every pass that
// reached the service says which; a change is one log line and one gauge, not
// one failure per brand. A 401 with a static RCSCTL_TOKEN cannot mend itself:
// the line says what to do.

import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import type { ServiceState } from './state.js';

export { SERVICE_STATES, type ServiceState } from './state.js';

/** What a pass met, enough to tell the service's condition from a brand's own failure. */
export interface ServiceSignal {
  code: string;
  message: string;
  httpStatus?: number;
}

/** The service object of GET /status. */
export interface ServiceStatus {
  state: ServiceState;
  /** Since when it is in this state (ISO 8601). */
  since: string;
  /** The error that set `unreachable` or `unauthorized` (the last one seen). */
  lastError?: { code: string; message: string; at: string };
  /** How the controller authenticates, when told: a static token cannot be renewed, client credentials are. */
  credentials?: 'static-token' | 'client-credentials';
}

/** What a pass's error says about the service: undefined when it is the brand's own failure. */
export function serviceStateOf(error: ServiceSignal | undefined): Exclude<ServiceState, 'ok'> | undefined {
  if (error === undefined) return undefined;
  if (error.httpStatus === 401) return 'unauthorized';
  if (error.code === 'E_NETWORK' || error.httpStatus === 502 || error.httpStatus === 503 || error.httpStatus === 504) return 'unreachable';
  return undefined;
}

/** The service's condition, kept from every pass's outcome. */
export class ServiceCondition {
  private status: ServiceStatus;

  constructor(
    private readonly credentials: ServiceStatus['credentials'],
    private readonly log: Log,
    private readonly metrics: ControllerMetrics,
  ) {
    this.status = { state: 'ok', since: new Date().toISOString(), ...(credentials !== undefined ? { credentials } : {}) };
    metrics.serviceState(this.status.state);
  }

  get state(): ServiceState {
    return this.status.state;
  }

  /** A pass reached the service (or tried): `error` is what it met, if anything. Returns the service's state now. */
  observe(error: ServiceSignal | undefined): ServiceState {
    const bad = serviceStateOf(error);
    const now = new Date().toISOString();
    if (bad !== undefined && error !== undefined) {
      const lastError = { code: error.code, message: error.message, at: now };
      if (this.status.state !== bad) this.change(bad, now, lastError);
      else this.status.lastError = lastError;
    } else if (this.status.state !== 'ok') {
      this.change('ok', now, undefined);
    }
    return this.status.state;
  }

  /** The service object of GET /status. */
  toJSON(): ServiceStatus {
    return { ...this.status };
  }

  private change(to: ServiceState, at: string, lastError: ServiceStatus['lastError']): void {
    const from = this.status.state;
    this.status = { state: to, since: at, ...(this.credentials !== undefined ? { credentials: this.credentials } : {}), ...(lastError !== undefined ? { lastError } : {}) };
    this.metrics.serviceState(to);
    const advice =
      to === 'unauthorized'
        ? this.credentials === 'client-credentials'
          ? 'the client credentials are refused: check RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET'
          : 'the token is refused (expired or revoked), and a static token (RCSCTL_TOKEN, --token-file) cannot be renewed: give the controller client credentials (RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET), or a new token and a restart'
        : to === 'unreachable'
          ? 'every brand is retried with backoff until the service answers'
          : 'the service answers again';
    this.log(to === 'ok' ? 'info' : 'error', 'service.state', { from, to, advice, ...(lastError !== undefined ? { error: lastError.message } : {}) });
  }
}
