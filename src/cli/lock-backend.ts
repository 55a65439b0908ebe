// Which lock backend a command uses (src/apply/lock-backend.ts): PostgreSQL
// when --lock-url or RCSCTL_LOCK_URL gives a postgres:// URL, else the lock
// files of RCSCTL_LOCK_DIR. The URL carries the database password: it goes to
// the run's redaction before anything can print it.

import { checkLockUrl, ciOf, fileLockBackend, lockUrlSecrets, type LockBackend } from '../apply/lock-backend.js';
import { lockDir, type HolderExtras } from '../apply/lock.js';
import { openPgLockBackend } from '../apply/pg-lock.js';
import type { CommandContext } from './context.js';

/** The lock URL a command was given (the flag wins over RCSCTL_LOCK_URL), or undefined for lock files. */
export function lockUrlOf(ctx: CommandContext, flag: string | undefined): string | undefined {
  const url = flag ?? ctx.io.env.RCSCTL_LOCK_URL;
  if (url === undefined || url.trim() === '') return undefined;
  ctx.redaction.add(lockUrlSecrets(url.trim()));
  checkLockUrl(url.trim(), flag !== undefined ? '--lock-url' : 'RCSCTL_LOCK_URL');
  return url.trim();
}

/** Open the backend for `command`: connects to PostgreSQL (E_LOCK when it cannot) or names the lock directory. */
export async function openLockBackend(ctx: CommandContext, url: string | undefined, command: string): Promise<LockBackend> {
  if (url === undefined) return fileLockBackend(lockDir(ctx.io.env));
  return openPgLockBackend({ url, command });
}

/** Who this process is, for whoever its locks refuse: the CI system it runs in. */
export function holderExtras(ctx: CommandContext): HolderExtras {
  const ci = ciOf(ctx.io.env);
  return ci !== undefined ? { ci } : {};
}
