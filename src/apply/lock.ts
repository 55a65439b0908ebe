// A per-brand lock between rcsctl processes on one machine, so two applies to
// one brand never interleave there. A lock is a file created exclusively
// (O_EXCL) holding who took it: pid, host and start time. A lock whose process
// is gone (same host, no such pid) is stale and is taken over. Across machines
// the service offers no lock; see docs/concurrency.md for what covers that.

import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RcsctlError } from '../errors.js';

/** Who holds a lock: what the lock file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  brandId: string;
  baseUrl: string;
  command: string;
}

/** A lock held by this process; release it exactly once. */
export interface BrandLock {
  path: string;
  release(): void;
}

/** Where and how long to wait. */
export interface LockOptions {
  /** Directory of the lock files (default: RCSCTL_LOCK_DIR, else <tmpdir>/rcsctl-locks). */
  dir: string;
  /** How long to wait for a held lock before giving up, in ms (0: do not wait). */
  timeoutMs: number;
  baseUrl: string;
  command: string;
  /** Poll interval while waiting (default 200 ms). */
  pollMs?: number;
}

/** The lock directory for an environment. */
export function lockDir(env: Record<string, string | undefined>): string {
  const dir = env.RCSCTL_LOCK_DIR;
  return dir !== undefined && dir !== '' ? dir : join(tmpdir(), 'rcsctl-locks');
}

/** The lock file of one brand on one service: readable brand id, hashed base URL. */
export function lockPath(dir: string, baseUrl: string, brandId: string): string {
  const safe = brandId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  const service = createHash('sha256').update(baseUrl).digest('hex').slice(0, 12);
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

/** Take the lock of one brand, waiting up to `timeoutMs` for a live holder. */
export async function acquireBrandLock(brandId: string, opts: LockOptions): Promise<BrandLock> {
  mkdirSync(opts.dir, { recursive: true });
  const path = lockPath(opts.dir, opts.baseUrl, brandId);
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), brandId, baseUrl: opts.baseUrl, command: opts.command };
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (tryCreate(path, me)) return ownLock(path, me);
    const holder = readHolder(path);
    if (holder !== undefined && isStale(holder)) {
      breakStale(path, holder);
      continue;
    }
    if (holder === undefined && !exists(path)) continue;
    if (Date.now() >= deadline) throw lockedError(brandId, path, holder, opts.timeoutMs);
    await new Promise((r) => setTimeout(r, Math.min(opts.pollMs ?? 200, Math.max(1, deadline - Date.now()))));
  }
}

function tryCreate(path: string, me: LockHolder): boolean {
  try {
    writeFileSync(path, JSON.stringify(me) + '\n', { flag: 'wx', mode: 0o644 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new RcsctlError('E_LOCK', `cannot create the lock file ${path}: ${(err as Error).message}`);
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
      if (now !== undefined && now.pid === me.pid && now.host === me.host && now.startedAt === me.startedAt) {
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      }
    },
  };
}

/** What a lock file says, or undefined when it is missing or unreadable (being written). */
export function readHolder(path: string): LockHolder | undefined {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.startedAt !== 'string') return undefined;
    return v as LockHolder;
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A lock is stale when it was taken on this host by a process that no longer runs. */
export function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    // EPERM: the process exists under another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// Move the stale file aside (only one breaker's rename succeeds), then check
// that what was moved is the lock judged stale; if another process had taken
// the lock in between, put its file back.
function breakStale(path: string, stale: LockHolder): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readHolder(aside);
  const same = moved !== undefined && moved.pid === stale.pid && moved.host === stale.host && moved.startedAt === stale.startedAt;
  if (!same) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone took the lock meanwhile; theirs stands.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Nothing to clean.
  }
}

function lockedError(brandId: string, path: string, holder: LockHolder | undefined, timeoutMs: number): RcsctlError {
  const who =
    holder === undefined
      ? 'another rcsctl process'
      : `rcsctl ${holder.command} (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}, ${ago(holder.startedAt)})`;
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
