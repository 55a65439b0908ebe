// The work loop's liveness (src/controller/liveness.ts) on a clock the test
// moves: idle is healthy however long; work due with no pass ending past the
// bound is not; a pass ending, or work arriving after a quiet time, restarts
// the count.

import { describe, expect, it } from 'vitest';
import { WorkLoopWatch } from '../../src/controller/liveness.js';

describe('WorkLoopWatch', () => {
  it('idle is healthy; busy without a pass ending past the bound is not; an ended pass restarts the count', () => {
    let now = 1_000_000;
    let busy = false;
    const w = new WorkLoopWatch(500, () => busy, () => now);
    now += 10_000;
    expect(w.report()).toEqual({ ok: true, stallTimeoutMs: 500 });

    // Work arrives after a long quiet: counted from its arrival, not from the last pass.
    w.queued();
    busy = true;
    expect(w.report().ok).toBe(true);
    now += 500;
    expect(w.report()).toMatchObject({ ok: true, waitingSince: new Date(now - 500).toISOString() });
    now += 1;
    expect(w.report()).toMatchObject({ ok: false, waitingSince: new Date(now - 501).toISOString() });

    // A pass ends (the others still due): healthy again, for another bound.
    w.passEnded();
    expect(w.report().ok).toBe(true);
    now += 400;
    w.queued();
    now += 200;
    expect(w.report().ok, 'more work while busy does not restart the count').toBe(false);

    busy = false;
    expect(w.report().ok).toBe(true);
  });
});
