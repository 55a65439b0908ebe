// Sync windows, as Argo CD's: allow and deny windows, each opening on a cron
// schedule (croner reads the expression, in the window's time zone) and
// staying open for a duration, for every brand or the brands it names. In
// apply mode a brand applies only when no deny window is open for it and, if
// any allow window names it, one of those is open. A window's `manualSync`
// lets a manual sync (POST /brands/{id}/sync) apply anyway: inside a deny
// window, or outside an allow window. Pure: the time is always given.

import { Cron } from 'croner';

/** One window, read from the configuration file. */
export interface SyncWindow {
  kind: 'allow' | 'deny';
  schedule: string;
  durationMs: number;
  timeZone: string;
  /** Brand ids, `*` a wildcard. */
  brands: string[];
  manualSync: boolean;
  /** Its place in the file's list, to name it. */
  index: number;
  cron: Cron;
}

/** What a window's fields are, before the schedule is read. */
export type WindowSpec = Omit<SyncWindow, 'cron'>;

/** Read a window's schedule and time zone; the field that is wrong, and why, if one is. */
export function parseWindow(spec: WindowSpec): { window: SyncWindow } | { error: string; field: 'schedule' | 'timeZone' } {
  try {
    new Intl.DateTimeFormat('en', { timeZone: spec.timeZone });
  } catch {
    return { field: 'timeZone', error: `"${spec.timeZone}" is not a time zone (give an IANA name like Asia/Seoul or UTC)` };
  }
  let cron: Cron;
  try {
    cron = new Cron(spec.schedule, { timezone: spec.timeZone, paused: true });
  } catch (err) {
    return { field: 'schedule', error: `"${spec.schedule}" is not a cron expression (${(err as Error).message})` };
  }
  if (cron.nextRun(new Date()) === null) return { field: 'schedule', error: `"${spec.schedule}" never opens` };
  return { window: { ...spec, cron } };
}

/** Whether `brandId` matches one of `patterns` (`*` stands for any run of characters). */
export function brandMatches(patterns: readonly string[], brandId: string): boolean {
  return patterns.some((p) => p === '*' || p === brandId || (p.includes('*') && new RegExp(`^${p.split('*').map(escapeRe).join('.*')}$`).test(brandId)));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A window open now: which, and when it closes. */
export interface OpenWindow {
  window: SyncWindow;
  openedAt: Date;
  closesAt: Date;
}

/** When `w` last opened at or before `now`, if it is still open. */
export function openAt(w: SyncWindow, now: Date): OpenWindow | undefined {
  // croner's previous runs are strictly before the reference, in whole seconds: a second past now, so a
  // window that opens exactly now counts; of the two latest, the one not after now (the later may be).
  const last = w.cron.previousRuns(2, new Date(now.getTime() + 1000)).find((d) => d.getTime() <= now.getTime());
  if (last === undefined) return undefined;
  const closesAt = new Date(last.getTime() + w.durationMs);
  return closesAt.getTime() > now.getTime() ? { window: w, openedAt: last, closesAt } : undefined;
}

/** Whether a brand may apply now, and if not why and until when. */
export interface WindowVerdict {
  /** A pass may apply. */
  applies: boolean;
  /** A manual sync may apply. */
  manual: boolean;
  /** When it may not: the window that holds it, as /status shows it. */
  held?: { kind: 'deny' | 'outside-allow'; window: string; until?: string };
}

/** The windows of a configuration, asked about a brand at a time. */
export class SyncWindows {
  constructor(readonly windows: readonly SyncWindow[]) {}

  /** Whether `brandId` may apply at `now`. */
  verdict(brandId: string, now: Date): WindowVerdict {
    const mine = this.windows.filter((w) => brandMatches(w.brands, brandId));
    const denies = mine.filter((w) => w.kind === 'deny').map((w) => openAt(w, now)).filter((o): o is OpenWindow => o !== undefined);
    if (denies.length > 0) {
      const last = denies.reduce((a, b) => (b.closesAt > a.closesAt ? b : a));
      return { applies: false, manual: denies.every((o) => o.window.manualSync), held: { kind: 'deny', window: describe(last.window), until: last.closesAt.toISOString() } };
    }
    const allows = mine.filter((w) => w.kind === 'allow');
    if (allows.length === 0 || allows.some((w) => openAt(w, now) !== undefined)) return { applies: true, manual: true };
    const next = allows.map((w) => ({ w, at: w.cron.nextRun(now) })).filter((n): n is { w: SyncWindow; at: Date } => n.at !== null).sort((a, b) => a.at.getTime() - b.at.getTime())[0];
    return {
      applies: false,
      manual: allows.some((w) => w.manualSync),
      held: { kind: 'outside-allow', window: describe(next?.w ?? allows[0]!), ...(next !== undefined ? { until: next.at.toISOString() } : {}) },
    };
  }

  /** Windows open now, by kind (for rcsctl_sync_windows_open). */
  open(now: Date): { allow: number; deny: number } {
    const out = { allow: 0, deny: 0 };
    for (const w of this.windows) if (openAt(w, now) !== undefined) out[w.kind]++;
    return out;
  }
}

/** `deny "0 22 * * *" for 8h (Asia/Seoul), syncWindows[0]`. */
function describe(w: SyncWindow): string {
  return `${w.kind} "${w.schedule}" for ${formatMs(w.durationMs)} (${w.timeZone}), syncWindows[${w.index}]`;
}

function formatMs(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
