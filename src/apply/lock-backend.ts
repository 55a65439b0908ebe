// Where the per-brand locks live. Two backends take the same locks:
// - `file`: a lock file per brand in a directory (lock.ts), the default; it
//   holds between the processes of one machine (or of machines sharing the
//   directory on a file system with exclusive create);
// - `postgres`: a PostgreSQL advisory lock per brand (pg-lock.ts), chosen with
//   `--lock-url postgres://…` or RCSCTL_LOCK_URL; it holds between every
//   machine that reaches the database, and a holder killed with kill -9 loses
//   its locks as soon as its connection drops.
// The PostgreSQL backend also holds the controller's leader lease per shard
// (src/controller/leader.ts); the file backend has none: one machine runs one
// controller per shard.

import { hostname } from 'node:os';
import { RcsctlError } from '../errors.js';
import { acquireBrandLocks, describeHolder, lockPath, readHolder, type BrandLock, type HolderExtras, type LockHolder, type LockOptions } from './lock.js';
import { currentBootId, processStartTicks } from './process-identity.js';

/** What a caller asks of a backend: the file backend's `dir` is its own. */
export type AcquireOptions = Omit<LockOptions, 'dir'>;

/** Per-brand locks, and (PostgreSQL only) leases, in one place. */
export interface LockBackend {
  /** `lock-files` or `postgres`. */
  readonly type: 'lock-files' | 'postgres';
  /** Where the locks are, for messages and /status: a directory, or the lock URL without its password. */
  readonly where: string;
  /** Take the locks of `brandIds` (sorted, all or none), waiting up to `opts.timeoutMs`; E_LOCKED names the holder. */
  acquire(brandIds: string[], opts: AcquireOptions): Promise<BrandLock[]>;
  /** Who holds a brand's lock now, in words, or undefined when it is free or unknown. */
  holderOf(baseUrl: string, brandId: string): Promise<string | undefined>;
  /** Aborted when the locks this backend holds may be gone (its database connection dropped): stop writing. Never aborted for files. */
  readonly lost: AbortSignal;
  /** Resolves once every lock released so far is free for others (PostgreSQL releases over the connection). */
  flush(): Promise<void>;
  /** Release everything and disconnect. */
  close(): Promise<void>;
}

/** The CI system named by the environment, or undefined outside CI. */
export function ciOf(env: Record<string, string | undefined>): string | undefined {
  if (env.GITHUB_ACTIONS === 'true') return 'GitHub Actions';
  if (env.GITLAB_CI === 'true') return 'GitLab CI';
  if (env.BUILDKITE === 'true') return 'Buildkite';
  if (env.JENKINS_URL !== undefined && env.JENKINS_URL !== '') return 'Jenkins';
  const ci = (env.CI ?? '').toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false' ? 'CI' : undefined;
}

/** This process as the holder of a lock named `name` (a brand id, or a shard's lease). */
export function holderHere(name: string, baseUrl: string, command: string, extras: HolderExtras & { url?: string } = {}): LockHolder {
  const procStart = processStartTicks(process.pid);
  const bootId = currentBootId();
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    brandId: name,
    baseUrl,
    command,
    ...(procStart !== undefined ? { procStart } : {}),
    ...(bootId !== undefined ? { bootId } : {}),
    ...(extras.ci !== undefined ? { ci: extras.ci } : {}),
    ...(extras.shard !== undefined ? { shard: extras.shard } : {}),
    ...(extras.url !== undefined ? { url: extras.url } : {}),
  };
}

/** The file backend: lock files in `dir` (lock.ts). */
export function fileLockBackend(dir: string): LockBackend {
  return {
    type: 'lock-files',
    where: dir,
    acquire: (brandIds, opts) => acquireBrandLocks(brandIds, { ...opts, dir }),
    holderOf(baseUrl, brandId) {
      const h = readHolder(lockPath(dir, baseUrl, brandId));
      return Promise.resolve(h !== undefined ? describeHolder(h) : undefined);
    },
    lost: new AbortController().signal,
    flush: () => Promise.resolve(),
    async close() {
      // Lock files are released by their runs.
    },
  };
}

/** Checks a lock URL before anything connects: postgres:// or postgresql:// only (E_USAGE names the option, never the password). */
export function checkLockUrl(url: string, option: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RcsctlError('E_USAGE', `${option} is not a URL; expected postgres://USER:PASSWORD@HOST:5432/DATABASE`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new RcsctlError('E_USAGE', `${option} must be a postgres:// URL (postgres://USER:PASSWORD@HOST:5432/DATABASE), not ${u.protocol}//…`);
  if (u.hostname === '' && !u.searchParams.has('host')) throw new RcsctlError('E_USAGE', `${option} names no host; expected postgres://USER:PASSWORD@HOST:5432/DATABASE`);
  return u;
}

/** `url` without its password, for messages: postgres://rcsctl:(sensitive)@db:5432/locks. */
export function redactedLockUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = 'sensitive';
    for (const k of [...u.searchParams.keys()]) if (/pass|secret|key|token/i.test(k)) u.searchParams.set(k, 'sensitive');
    return u.href.replace(':sensitive@', ':(sensitive)@').replace(/=sensitive(?=&|$)/g, '=(sensitive)');
  } catch {
    return '(a lock URL that is not a URL)';
  }
}

/** The secrets a lock URL carries: the whole URL and its password (raw and decoded), to hand to the run's redaction. */
export function lockUrlSecrets(url: string): { name: string; value: string }[] {
  const out = [{ name: 'RCSCTL_LOCK_URL', value: url }];
  try {
    const u = new URL(url);
    if (u.password !== '') out.push({ name: 'RCSCTL_LOCK_URL password', value: u.password }, { name: 'RCSCTL_LOCK_URL password', value: decodeURIComponent(u.password) });
    for (const [k, v] of u.searchParams) if (/pass|secret|key|token/i.test(k)) out.push({ name: `RCSCTL_LOCK_URL ${k}`, value: v });
  } catch {
    // Not a URL: checkLockUrl refuses it.
  }
  return out;
}
