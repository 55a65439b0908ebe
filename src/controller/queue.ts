// The dirty queue: which brands need a pass. A marked brand waits until it
// has been quiet for `quietMs` (at most `maxDelayMs` after its first mark), so
// a burst of notifications becomes one pass; marking a brand that already
// waits only extends that wait; marking one whose pass is running asks for
// exactly one more pass after it. At most `limit` passes run at once.

/** When a marked brand's pass may start. */
export interface QueueTiming {
  /** Start once no mark came for this long (default 250 ms). */
  quietMs: number;
  /** ...but no later than this after the first mark (default 2 s). */
  maxDelayMs: number;
}

interface Waiting {
  first: number;
  timer: NodeJS.Timeout;
}

/** Brands waiting for a pass, run at most `limit` at a time. */
export class DirtyQueue {
  private readonly waiting = new Map<string, Waiting>();
  private readonly ready = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly limit: number,
    private readonly pass: (brandId: string) => Promise<void>,
    private readonly timing: QueueTiming = { quietMs: 250, maxDelayMs: 2000 },
  ) {}

  /** Ask for a pass of `brandId`. */
  mark(brandId: string): void {
    if (this.stopped || this.ready.has(brandId)) return;
    if (this.running.has(brandId)) {
      this.again.add(brandId);
      return;
    }
    const now = Date.now();
    const w = this.waiting.get(brandId);
    const first = w?.first ?? now;
    if (w !== undefined) clearTimeout(w.timer);
    const delay = Math.max(0, Math.min(this.timing.quietMs, first + this.timing.maxDelayMs - now));
    this.waiting.set(brandId, { first, timer: setTimeout(() => this.due(brandId), delay) });
  }

  /** Ask for a pass of `brandId` at once, without the quiet time (sync now); a running pass gets one more after it. */
  now(brandId: string): void {
    if (this.stopped || this.ready.has(brandId)) return;
    if (this.running.has(brandId)) {
      this.again.add(brandId);
      return;
    }
    const w = this.waiting.get(brandId);
    if (w !== undefined) clearTimeout(w.timer);
    this.due(brandId);
  }

  /** Brands waiting for their pass (not those running). */
  get depth(): number {
    return this.waiting.size + this.ready.size + this.again.size;
  }

  /** Brands whose pass is running. */
  get active(): ReadonlySet<string> {
    return this.running;
  }

  /** Forget a brand that left the manifests (a running pass finishes). */
  forget(brandId: string): void {
    const w = this.waiting.get(brandId);
    if (w !== undefined) clearTimeout(w.timer);
    this.waiting.delete(brandId);
    this.ready.delete(brandId);
    this.again.delete(brandId);
  }

  /** Take no more work; what runs finishes. */
  stop(): void {
    this.stopped = true;
    for (const id of [...this.waiting.keys()]) this.forget(id);
    this.ready.clear();
    this.again.clear();
    this.settle();
  }

  /** Resolves when nothing waits and nothing runs. */
  idle(): Promise<void> {
    if (this.depth === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private due(brandId: string): void {
    this.waiting.delete(brandId);
    if (this.stopped) return;
    this.ready.add(brandId);
    this.pump();
  }

  private pump(): void {
    for (const brandId of [...this.ready]) {
      if (this.stopped || this.running.size >= this.limit) return;
      this.ready.delete(brandId);
      this.running.add(brandId);
      void this.pass(brandId)
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(brandId);
          if (this.again.delete(brandId)) this.mark(brandId);
          this.pump();
          this.settle();
        });
    }
  }

  private settle(): void {
    if (this.depth > 0 || this.running.size > 0) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
