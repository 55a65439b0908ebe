// Whether the controller's work loop is alive, for /healthz: while work is
// due (a brand marked, or a pass running), some pass must end within the
// bound; when nothing is due, there is nothing to be stuck on. Nothing the
// service answers enters into it: a pass that fails still ends.

/** The default bound: longer than any pass that is not stuck (a request's retries stop after 60 s). */
export const DEFAULT_STALL_TIMEOUT_MS = 15 * 60_000;

/** What /healthz reports. */
export interface LivenessReport {
  ok: boolean;
  /** Since when work has waited without a pass ending (ISO 8601), while work is due. */
  waitingSince?: string;
  stallTimeoutMs: number;
}

/** Watches the work loop's progress. */
export class WorkLoopWatch {
  /** When the loop last made progress: a pass ended, or work arrived after a quiet time. */
  private progressAt: number;

  constructor(
    readonly stallTimeoutMs: number,
    /** Whether work is due or running now. */
    private readonly busy: () => boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.progressAt = now();
  }

  /** Work is about to be queued: if the loop was quiet, the clock starts now. */
  queued(): void {
    if (!this.busy()) this.progressAt = this.now();
  }

  /** A pass ended (however it ended). */
  passEnded(): void {
    this.progressAt = this.now();
  }

  report(): LivenessReport {
    if (!this.busy()) return { ok: true, stallTimeoutMs: this.stallTimeoutMs };
    return { ok: this.now() - this.progressAt <= this.stallTimeoutMs, waitingSince: new Date(this.progressAt).toISOString(), stallTimeoutMs: this.stallTimeoutMs };
  }
}
