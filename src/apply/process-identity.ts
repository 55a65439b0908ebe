// Which process a pid is: a pid alone is reused (after a reboot, or when the
// pid counter wraps), so a lock that names only a pid may name a stranger.
// On Linux /proc tells a process's start time and the boot it runs in; the
// pair (boot id, start time) names one process for good. Elsewhere these
// answer undefined and the lock falls back to "is the pid alive".

import { readFileSync } from 'node:fs';

/** Clock ticks per second in /proc (USER_HZ: 100 on every architecture Node supports on Linux). */
const TICKS_PER_SECOND = 100;

let cachedBootId: string | undefined | null = null;

/** This machine's boot id (Linux: /proc/sys/kernel/random/boot_id), or undefined where there is none. */
export function currentBootId(): string | undefined {
  if (cachedBootId === null) cachedBootId = readTrimmed('/proc/sys/kernel/random/boot_id');
  return cachedBootId;
}

/**
 * A running process's start time in clock ticks after boot (field 22 of
 * /proc/<pid>/stat), as text; undefined when there is no such entry (the
 * process is gone, /proc hides it, or this is not Linux).
 */
export function processStartTicks(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = readTrimmed(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // Field 2, the command name, is in parentheses and may itself hold spaces
  // and parentheses: count the fields from after its last ')'. That text
  // starts at field 3, so field 22 is the 20th word.
  const rest = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/);
  const ticks = rest[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/** The wall-clock time (ms) a process started, from its start ticks and the boot time in /proc/stat; undefined off Linux. */
export function processStartMs(ticks: string): number | undefined {
  const btime = /^btime (\d+)$/m.exec(readTrimmed('/proc/stat') ?? '');
  if (btime === null) return undefined;
  return Number(btime[1]) * 1000 + (Number(ticks) * 1000) / TICKS_PER_SECOND;
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
