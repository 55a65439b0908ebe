// Sync windows' verdicts, pure, with the time given: when a window is open
// (the moment it opens, the moment it closes, a schedule with seconds), deny
// over allow, and what a manual sync may do.

import { describe, expect, it } from 'vitest';
import { openAt, parseWindow, SyncWindows, type SyncWindow, type WindowSpec } from '../../src/controller/sync-windows.js';

function win(spec: Partial<WindowSpec> & Pick<WindowSpec, 'kind' | 'schedule' | 'durationMs'>, index = 0): SyncWindow {
  const made = parseWindow({ timeZone: 'UTC', brands: ['*'], manualSync: false, index, ...spec });
  if ('error' in made) throw new Error(made.error);
  return made.window;
}

const at = (iso: string): Date => new Date(iso);

describe('sync windows', () => {
  it('a window is open from the moment it opens until, not including, the moment it closes', () => {
    const w = win({ kind: 'deny', schedule: '0 22 * * *', durationMs: 3_600_000 });
    expect(openAt(w, at('2026-03-02T21:59:59.999Z'))).toBeUndefined();
    expect(openAt(w, at('2026-03-02T22:00:00.000Z'))?.closesAt.toISOString()).toBe('2026-03-02T23:00:00.000Z');
    expect(openAt(w, at('2026-03-02T22:59:59.999Z'))).toBeDefined();
    expect(openAt(w, at('2026-03-02T23:00:00.000Z'))).toBeUndefined();
  });

  it('with seconds in the schedule, the opening before the next one still counts when the next is less than a second away', () => {
    const w = win({ kind: 'deny', schedule: '*/30 * * * * *', durationMs: 40_000 });
    // Opened at 12:00:00 for 40 s; the next opening (12:00:30) is half a second away.
    expect(openAt(w, at('2026-03-02T12:00:29.500Z'))?.openedAt.toISOString()).toBe('2026-03-02T12:00:00.000Z');
  });

  it('in the window\'s time zone, daylight saving included', () => {
    const w = win({ kind: 'deny', schedule: '0 9 * * *', durationMs: 3_600_000, timeZone: 'Europe/Berlin' });
    expect(openAt(w, at('2026-03-27T08:30:00Z'))).toBeDefined(); // 09:30 CET
    expect(openAt(w, at('2026-03-30T07:30:00Z'))).toBeDefined(); // 09:30 CEST
    expect(openAt(w, at('2026-03-30T08:30:00Z'))).toBeUndefined();
  });

  it('deny wins over allow; an allow window that names a brand is the only time it applies; manualSync lets a manual sync through', () => {
    const windows = new SyncWindows([
      win({ kind: 'allow', schedule: '0 2 * * *', durationMs: 2 * 3_600_000, brands: ['BR.shop*'], manualSync: true }, 0),
      win({ kind: 'deny', schedule: '30 2 * * *', durationMs: 600_000 }, 1),
    ]);
    expect(windows.verdict('BR.shop1', at('2026-03-02T02:10:00Z'))).toEqual({ applies: true, manual: true });
    expect(windows.verdict('BR.shop1', at('2026-03-02T02:35:00Z'))).toMatchObject({ applies: false, manual: false, held: { kind: 'deny', until: '2026-03-02T02:40:00.000Z' } });
    expect(windows.verdict('BR.shop1', at('2026-03-02T05:00:00Z'))).toMatchObject({ applies: false, manual: true, held: { kind: 'outside-allow', until: '2026-03-03T02:00:00.000Z' } });
    // A brand no allow window names applies whenever no deny window is open.
    expect(windows.verdict('BR.other', at('2026-03-02T05:00:00Z'))).toEqual({ applies: true, manual: true });
    expect(windows.open(at('2026-03-02T02:35:00Z'))).toEqual({ allow: 1, deny: 1 });
  });

  it('names what is wrong with a window', () => {
    expect(parseWindow({ kind: 'deny', schedule: '0 22 * *', durationMs: 1, timeZone: 'UTC', brands: ['*'], manualSync: false, index: 0 })).toMatchObject({ field: 'schedule' });
    expect(parseWindow({ kind: 'deny', schedule: '0 22 * * *', durationMs: 1, timeZone: 'Asia/Nowhere', brands: ['*'], manualSync: false, index: 0 })).toMatchObject({ field: 'timeZone' });
  });
});
