// A per-brand lock between rcsctl processes on one machine, so two applies to
// one brand never interleave there. A lock is a file holding who took it: pid,
// host, start time, and on Linux the boot id and the process's start ticks.
// It is written whole to a temporary file and hard-linked into place, so it is
// created exclusively and never seen empty. A lock whose holder is gone (same
// host: no such pid, a pid now another process, a host restarted since) is
// stale, and so is a file that cannot be read once it is older than
// UNREADABLE_LOCK_TAKEOVER_MS; either is taken over, by one process only.
// Across machines the service offers no lock; see docs/concurrency.md.

import { createHash, randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { closeSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RcsctlError } from '../errors.js';
import { lockEndpoint } from './lock-key.js';
import { currentBootId, processStartMs, processStartTicks } from './process-identity.js';

/** Who holds a lock: what the lock file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  brandId: string;
  baseUrl: string;
  command: string;
  /** The holder's start time in clock ticks after boot (Linux); absent off Linux and in locks of releases before it. */
  procStart?: string;
  /** The boot the holder runs in (Linux); absent as procStart is. */
  bootId?: string;
  /** The CI system the holder runs in (GitHub Actions, GitLab CI, CI), absent outside CI. */
  ci?: string;
  /** The controller's shard (`i/n`). */
  shard?: string;
  /** A controller's webhook URL, where a standby forwards notifications (leases only). */
  url?: string;
}

/** Who is asking, beyond the command: shown to whoever is refused. */
export interface HolderExtras {
  /** The CI system the process runs in (ciOf in lock-backend.ts), absent outside CI. */
  ci?: string;
  /** The controller's shard (`i/n`). */
  shard?: string;
}

/** A lock held by this process; release it exactly once. */
export interface BrandLock {
  path: string;
  release(): void;
}

/** Where and how long to wait. */
export interface LockOptions extends HolderExtras {
  /** Directory of the lock files (default: RCSCTL_LOCK_DIR, else <tmpdir>/rcsctl-locks). */
  dir: string;
  /** How long to wait for a held lock before giving up, in ms (0: do not wait). */
  timeoutMs: number;
  baseUrl: string;
  command: string;
  /** Poll interval while waiting (default 200 ms). */
  pollMs?: number;
}

/**
 * How old a lock file that cannot be read (empty, cut short, not rcsctl's)
 * must be before it is taken over. rcsctl has written locks whole since this
 * bound exists, so such a file is debris, from an earlier release killed
 * between creating and writing its lock or from a damaged disk; the bound
 * only spares an earlier release caught in that instant.
 */
export const UNREADABLE_LOCK_TAKEOVER_MS = 10_000;

/**
 * How old a take-over claim must be before it is cleared: a claim lives for a
 * few system calls, so an older one was left by a process killed while taking
 * over a stale lock.
 */
const ABANDONED_CLAIM_MS = 10_000;

/** A lock file's creation time may sit before the holder's process start by at most this (rounding of /proc's boot time). */
const START_SLACK_MS = 5_000;

/** The lock directory for an environment. */
export function lockDir(env: Record<string, string | undefined>): string {
  const dir = env.RCSCTL_LOCK_DIR;
  return dir !== undefined && dir !== '' ? dir : join(tmpdir(), 'rcsctl-locks');
}

/** The lock file of one brand on one service: readable brand id, hashed normalised endpoint (lock-key.ts), so every spelling of one base URL takes one lock. */
export function lockPath(dir: string, baseUrl: string, brandId: string): string {
  const safe = brandId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  const service = createHash('sha256').update(lockEndpoint(baseUrl)).digest('hex').slice(0, 12);
  return join(dir, `${safe}-${service}.lock`);
}

/** Take the locks of `brandIds` (in sorted order, so two runs never deadlock); all or none. */
export async function acquireBrandLocks(brandIds: string[], opts: LockOptions): Promise<BrandLock[]> {
  const held: BrandLock[] = [];
  try {
    for (const id of [...new Set(brandIds)].sort()) held.push(await acquireBrandLock(id, opts));
    return held;
  } catch (err) {
    releaseAll(held);
    throw err;
  }
}

/** Release every lock in `locks` (each at most once). */
export function releaseAll(locks: BrandLock[]): void {
  for (const l of locks.splice(0)) l.release();
}

/** This process as a lock holder of `brandId`. */
function thisProcess(brandId: string, opts: LockOptions): LockHolder {
  const procStart = processStartTicks(process.pid);
  const bootId = currentBootId();
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    brandId,
    baseUrl: opts.baseUrl,
    command: opts.command,
    ...(procStart !== undefined ? { procStart } : {}),
    ...(bootId !== undefined ? { bootId } : {}),
    ...(opts.ci !== undefined ? { ci: opts.ci } : {}),
    ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
  };
}

/** A holder in words: `rcsctl apply in GitHub Actions (pid 42 on runner-3, started …, 5s ago)`. */
export function describeHolder(h: LockHolder): string {
  const what = `rcsctl ${h.command}${h.shard !== undefined ? ` of shard ${h.shard}` : ''}${h.ci !== undefined ? ` in ${h.ci}` : ''}`;
  return `${what} (pid ${h.pid} on ${h.host}, started ${h.startedAt}, ${ago(h.startedAt)})`;
}

/** Take the lock of one brand, waiting up to `timeoutMs` for a live holder. */
export async function acquireBrandLock(brandId: string, opts: LockOptions): Promise<BrandLock> {
  mkdirSync(opts.dir, { recursive: true });
  const path = lockPath(opts.dir, opts.baseUrl, brandId);
  const me = thisProcess(brandId, opts);
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (tryCreate(path, me)) return ownLock(path, me);
    const seen = look(path);
    if (seen === undefined) continue;
    if (isTakeable(seen) && takeOver(path, seen)) continue;
    if (Date.now() >= deadline) throw lockedError(brandId, path, seen, opts.timeoutMs);
    await new Promise((r) => setTimeout(r, Math.min(opts.pollMs ?? 200, Math.max(1, deadline - Date.now()))));
  }
}

// The whole content goes to a file of this process's own first; link() then
// puts it in place only if no lock is there (rename would replace one).
function tryCreate(path: string, me: LockHolder): boolean {
  const tmp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(me) + '\n', { flag: 'wx', mode: 0o644 });
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw new RcsctlError('E_LOCK', `cannot create the lock file ${path}: ${(err as Error).message}`);
  } finally {
    removeQuietly(tmp);
  }
}

function ownLock(path: string, me: LockHolder): BrandLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Remove it only while it is still ours (a stale-lock breaker may have replaced it).
      const now = readHolder(path);
      if (now !== undefined && sameHolder(now, me)) removeQuietly(path);
    },
  };
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt && a.procStart === b.procStart;
}

/** What a lock file says, or undefined when it is missing or cannot be read as a lock. */
export function readHolder(path: string): LockHolder | undefined {
  try {
    return parseHolder(readFileSync(path));
  } catch {
    return undefined;
  }
}

// Locks of earlier releases lack procStart and bootId and are read all the same.
function parseHolder(bytes: Buffer): LockHolder | undefined {
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Partial<LockHolder> | null;
    if (v === null || typeof v !== 'object') return undefined;
    if (typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.startedAt !== 'string') return undefined;
    if (v.procStart !== undefined && typeof v.procStart !== 'string') return undefined;
    if (v.bootId !== undefined && typeof v.bootId !== 'string') return undefined;
    for (const k of ['ci', 'shard', 'url'] as const) if (v[k] !== undefined && typeof v[k] !== 'string') return undefined;
    return v as LockHolder;
  } catch {
    return undefined;
  }
}

/** One look at a lock file: its bytes and the file they were read from. */
interface Seen {
  bytes: Buffer;
  stat: BigIntStats;
  /** What it says, or undefined when it cannot be read as a lock. */
  holder: LockHolder | undefined;
}

function look(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    throw new RcsctlError('E_LOCK', `cannot read the lock file ${path}: ${(err as Error).message}`);
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const bytes = readFileSync(fd);
    return { bytes, stat, holder: parseHolder(bytes) };
  } finally {
    closeSync(fd);
  }
}

function sameFile(a: Seen, b: Seen): boolean {
  return a.stat.dev === b.stat.dev && a.stat.ino === b.stat.ino && a.stat.mtimeNs === b.stat.mtimeNs && a.bytes.equals(b.bytes);
}

function ageMs(seen: Seen): number {
  return Date.now() - Number(seen.stat.mtimeMs);
}

function isTakeable(seen: Seen): boolean {
  return seen.holder !== undefined ? isStale(seen.holder) : ageMs(seen) >= UNREADABLE_LOCK_TAKEOVER_MS;
}

/**
 * A lock is stale when it was taken on this host by a process that no longer
 * runs there: the host has restarted since (another boot id), the pid is
 * gone, or the pid now belongs to a process that started after the lock was
 * taken (its start ticks differ, or, for a lock of an earlier release, it
 * started later than the lock's time).
 */
export function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  const boot = currentBootId();
  if (holder.bootId !== undefined && boot !== undefined && holder.bootId !== boot) return true;
  const running = processStartTicks(holder.pid);
  if (running !== undefined) {
    if (holder.procStart !== undefined) return running !== holder.procStart;
    const started = processStartMs(running);
    return started !== undefined && Date.parse(holder.startedAt) < started - START_SLACK_MS;
  }
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    // EPERM: the process exists under another user.
    return errno(err) === 'ESRCH';
  }
}

/**
 * Remove the stale lock `seen`, so the next exclusive create decides who holds
 * it next. Several processes may judge one lock stale at once, and a slow one
 * must not remove the fresh lock a quicker one has taken since. So a breaker
 * first claims the stale file: it hard-links the file at `path` to a name made
 * from the stale file's identity, which link() creates for one process only.
 * The claimant checks that what it linked is the file it judged stale, and
 * only then removes it; a late breaker's link then fails (the lock is gone) or
 * links a newer lock, which its check refuses. Returns false when another
 * process holds the claim (wait, then look again).
 */
function takeOver(path: string, seen: Seen): boolean {
  const identity = createHash('sha256').update(`${seen.stat.dev}:${seen.stat.ino}:${seen.stat.mtimeNs}:`).update(seen.bytes).digest('hex');
  const claim = `${path}.takeover-${identity.slice(0, 16)}`;
  try {
    linkSync(path, claim);
  } catch (err) {
    if (errno(err) === 'ENOENT') return true;
    if (errno(err) === 'EEXIST') return clearAbandonedClaim(claim);
    throw new RcsctlError('E_LOCK', `cannot take over the stale lock file ${path}: ${(err as Error).message}`);
  }
  try {
    const claimed = look(claim);
    const still = look(path);
    if (claimed !== undefined && still !== undefined && sameFile(claimed, seen) && sameFile(still, seen)) {
      try {
        unlinkSync(path);
      } catch (err) {
        if (errno(err) !== 'ENOENT') throw new RcsctlError('E_LOCK', `cannot remove the stale lock file ${path}: ${(err as Error).message}`);
      }
    }
  } finally {
    removeQuietly(claim);
  }
  return true;
}

// A claim older than a few system calls' worth was left by a breaker killed
// mid-take-over; clearing it lets the take-over start again.
function clearAbandonedClaim(claim: string): boolean {
  try {
    const st = lstatSync(claim);
    if (Date.now() - st.ctimeMs < ABANDONED_CLAIM_MS) return false;
  } catch {
    return true;
  }
  removeQuietly(claim);
  return true;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function lockedError(brandId: string, path: string, seen: Seen, timeoutMs: number): RcsctlError {
  const holder = seen.holder;
  const who =
    holder === undefined
      ? `a lock file it cannot read (${formatDuration(Math.max(0, ageMs(seen)))} old; one is taken over once it is ${formatDuration(UNREADABLE_LOCK_TAKEOVER_MS)} old)`
      : describeHolder(holder);
  const waited = timeoutMs > 0 ? ` after waiting ${formatDuration(timeoutMs)}` : '';
  return new RcsctlError(
    'E_LOCKED',
    `brand ${brandId} is locked by ${who}${waited}; nothing was sent.\n` +
      `  Wait for it to finish, or run with --lock-timeout 5m to wait for it.\n` +
      `  If that process is gone for good, delete ${path}.`,
    { brandId, lockFile: path, ...(holder !== undefined ? { holder } : {}) },
  );
}

function ago(iso: string): string {
  const ms = Date.now() - Date.parse(iso);
  return Number.isFinite(ms) ? `${formatDuration(Math.max(0, ms))} ago` : 'at an unknown time';
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s}s` : `${Math.round(s / 60)}m`;
}
