// The key that seals secrets in the files rcsctl keeps (the saved plan, the
// live cache). A sealed value is `<sensitive:NAME:KEYID:HMAC>`: an HMAC-SHA256
// under this key, so the file still tells whether a value is the one planned
// (apply's check, the cache's reuse) but offers no offline oracle: without the
// key, a guess of a 6-digit PIN cannot be checked against it. The key is
// RCSCTL_PLAN_KEY when set (CI, where plan and apply run on different runners:
// a secret of the pipeline), else this machine's key file in the cache
// directory, made on first use, owner-only, created atomically.
// docs/plan.md ("Sensitive values in a saved plan"), docs/decisions.md.

import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RcsctlError } from '../errors.js';

/** The environment variable that gives the key (CI: a secret of the pipeline, the same in the plan and the apply job). */
export const PLAN_KEY_VAR = 'RCSCTL_PLAN_KEY';
/** The shortest RCSCTL_PLAN_KEY taken (`openssl rand -hex 32` gives 64). */
export const MIN_PLAN_KEY_LENGTH = 32;
/** The key file's name in the cache directory. */
export const KEY_FILE = 'seal.key';

/** A sealing key. Its secret lives in a closure, never on a property, so neither inspect nor JSON reaches it. */
export interface SealKey {
  /** 8 hex digits naming the key (an HMAC of a constant: it says nothing of the key). */
  readonly id: string;
  /** Where the key came from, for messages: `RCSCTL_PLAN_KEY` or the key file's path. */
  readonly source: string;
  /** HMAC-SHA256 of `value`, hex. */
  mac(value: string): string;
}

/** A key from its secret bytes. */
export function sealKey(secret: Buffer, source: string): SealKey {
  const mac = (value: string): string => createHmac('sha256', secret).update(value).digest('hex');
  return { id: mac('rcsctl seal key id').slice(0, 8), source, mac };
}

/**
 * The key for this run: RCSCTL_PLAN_KEY, else the key file in `dir` (made
 * when missing). Throws E_CONFIG when neither can be had, or the file is
 * readable by others.
 */
export function loadSealKey(env: Record<string, string | undefined>, dir: string | undefined): SealKey {
  const given = env[PLAN_KEY_VAR]?.trim();
  if (given !== undefined && given !== '') {
    if (given.length < MIN_PLAN_KEY_LENGTH) throw new RcsctlError('E_CONFIG', `${PLAN_KEY_VAR} must be at least ${MIN_PLAN_KEY_LENGTH} characters (for example the output of \`openssl rand -hex 32\`)`);
    return sealKey(Buffer.from(given, 'utf8'), PLAN_KEY_VAR);
  }
  if (dir === undefined) {
    throw new RcsctlError('E_CONFIG', `sealing sensitive values needs a key: set ${PLAN_KEY_VAR} (at least ${MIN_PLAN_KEY_LENGTH} characters), or give a cache directory (RCSCTL_CACHE_DIR or HOME) to hold this machine's key`);
  }
  const path = join(dir, KEY_FILE);
  return sealKey(readOrCreate(path), path);
}

function readOrCreate(path: string): Buffer {
  const existing = readKeyFile(path);
  if (existing !== undefined) return existing;
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: two processes
  // racing to make the key both end up with the one that won.
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } catch (err) {
    throw new RcsctlError('E_CONFIG', `cannot create the sealing key ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}): set ${PLAN_KEY_VAR} instead`);
  } finally {
    rmSync(tmp, { force: true });
  }
  const made = readKeyFile(path);
  if (made === undefined) throw new RcsctlError('E_CONFIG', `cannot read the sealing key ${path} just made: set ${PLAN_KEY_VAR} instead`);
  return made;
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    const st = statSync(path);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) throw new RcsctlError('E_CONFIG', `the sealing key ${path} is readable by others (mode ${(st.mode & 0o777).toString(8)}): run chmod 600 on it, or delete it to make a new one (plans sealed with it must then be made again)`);
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if (err instanceof RcsctlError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new RcsctlError('E_CONFIG', `cannot read the sealing key ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new RcsctlError('E_CONFIG', `the sealing key ${path} is not 64 hex digits: delete it to make a new one (plans sealed with it must then be made again)`);
  return Buffer.from(text, 'hex');
}
