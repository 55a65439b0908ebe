// The PostgreSQL lock backend: every lock is a session advisory lock
// (pg_try_advisory_lock) on one database connection, so that it lasts exactly
// as long as the connection: a holder killed with kill -9, or cut off, loses
// its locks as soon as the database sees its connection end. The key is 64
// bits of a SHA-256 of the lock's kind, the normalised endpoint (lock-key.ts)
// and the name (a brand id, or a controller's shard for the leader lease).
// Who holds a lock is written, under the lock, to the table rcsctl_locks
// (created when missing): whoever is refused reads it to name the holder, and
// a standby reads the leader's webhook URL there. Without the right to create
// the table the locks work all the same, and a holder is named from
// pg_stat_activity's application_name.

import { createHash } from 'node:crypto';
import pg from 'pg';
import { errorMessage, RcsctlError } from '../errors.js';
import { holderHere, redactedLockUrl, type AcquireOptions, type LockBackend } from './lock-backend.js';
import { lockEndpoint } from './lock-key.js';
import { describeHolder, type BrandLock, type LockHolder } from './lock.js';

/** The table of holders. */
export const LOCK_TABLE = 'rcsctl_locks';

/** The key that serialises creating the table (two first runs at once). */
const TABLE_KEY = advisoryKey('brand', 'rcsctl:', LOCK_TABLE);

/** What a lock is for: a brand's apply, or a shard's leader lease. */
export type LockKind = 'brand' | 'leader';

/** The 64-bit advisory lock key of a lock, from its kind, normalised endpoint and name. */
export function advisoryKey(kind: LockKind, baseUrl: string, name: string): bigint {
  return createHash('sha256').update(`rcsctl ${kind}\0${lockEndpoint(baseUrl)}\0${name}`).digest().readBigInt64BE(0);
}

/** How to open the backend. */
export interface PgLockOptions {
  /** postgres://USER:PASSWORD@HOST:PORT/DATABASE (checkLockUrl). */
  url: string;
  /** The command (apply, controller), shown in pg_stat_activity. */
  command: string;
  /** How long connecting, and each query, may take (default 10 s). */
  timeoutMs?: number;
  /** How often the connection is checked while it holds a lock (default 2 s); a failed check counts as a lost connection. */
  heartbeatMs?: number;
  /** Poll interval while waiting for a held lock (default 500 ms). */
  pollMs?: number;
}

/** The PostgreSQL backend: brand locks, and the leases of controller shards. */
export interface PgLockBackend extends LockBackend {
  readonly type: 'postgres';
  /** Take the lease `name` once, without waiting: true when this connection holds it (now or already). */
  tryLease(baseUrl: string, name: string, holder: LockHolder): Promise<boolean>;
  /** Give the lease up (the controller stops). */
  releaseLease(baseUrl: string, name: string): Promise<void>;
  /** Who holds the lease `name` now, as recorded; undefined when nobody does. */
  leaseHolder(baseUrl: string, name: string): Promise<LockHolder | undefined>;
}

interface Held {
  key: bigint;
  kind: LockKind;
}

/** Connect to the lock database and make sure the holders' table exists. E_LOCK when the database cannot be reached (the URL shown without its password). */
// long: the closure is the backend object: its methods share one connection, the keys it holds and its heartbeat, and each is a short function inside it.
export async function openPgLockBackend(opts: PgLockOptions): Promise<PgLockBackend> {
  const where = redactedLockUrl(opts.url);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const client = new pg.Client({
    connectionString: opts.url,
    application_name: `rcsctl ${opts.command} pid ${process.pid} on ${holderHere('', '', opts.command).host}`.slice(0, 63),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
    // The server notices a holder cut off without a word (a partition, a
    // machine gone) within about 11 s, and frees its locks.
    options: '-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3',
  });
  const lostCtl = new AbortController();
  let closing = false;
  const lose = (why: string): void => {
    if (closing || lostCtl.signal.aborted) return;
    lostCtl.abort(new RcsctlError('E_LOCK_LOST', `the connection to the lock database ${where} was lost (${why}): the locks it held are gone`));
  };
  client.on('error', (err) => lose(errorMessage(err)));
  client.on('end', () => lose('the connection ended'));
  try {
    await client.connect();
  } catch (err) {
    closing = true;
    await client.end().catch(() => undefined);
    throw new RcsctlError('E_LOCK', `cannot connect to the lock database ${where}: ${errorMessage(err)}`);
  }
  const held = new Map<bigint, Held>();
  const pending = new Set<Promise<unknown>>();
  let table = true;
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${TABLE_KEY})`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} (lock_key bigint PRIMARY KEY, kind text NOT NULL, endpoint text NOT NULL, name text NOT NULL, holder jsonb NOT NULL, backend_pid integer NOT NULL, taken_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query('COMMIT');
  } catch {
    // No right to create it: the locks hold all the same; holders are named from pg_stat_activity.
    table = false;
    await client.query('ROLLBACK').catch(() => undefined);
  }

  async function query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    if (lostCtl.signal.aborted) throw lostCtl.signal.reason as Error;
    try {
      return await client.query<R>(text, values);
    } catch (err) {
      if (err instanceof Error && /timeout/i.test(err.message)) {
        lose('no answer within ' + timeoutMs + ' ms');
        void client.end().catch(() => undefined);
      }
      if (lostCtl.signal.aborted) throw lostCtl.signal.reason as Error;
      throw new RcsctlError('E_LOCK', `the lock database ${where} refused a lock query: ${errorMessage(err)}`);
    }
  }

  // While it holds anything, the connection is checked: a leader whose
  // connection died must stop writing before another replica takes over.
  const heartbeat = setInterval(() => {
    if (held.size === 0 || lostCtl.signal.aborted) return;
    void query('SELECT 1').catch(() => undefined);
  }, opts.heartbeatMs ?? 2_000);
  heartbeat.unref();

  async function tryTake(kind: LockKind, baseUrl: string, name: string, holder: LockHolder): Promise<boolean> {
    const key = advisoryKey(kind, baseUrl, name);
    // Session locks are re-entrant: this process's own holding is checked here.
    if (held.has(key)) return false;
    const { rows } = await query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key.toString()]);
    if (rows[0]?.ok !== true) return false;
    held.set(key, { key, kind });
    if (table) {
      await query(
        `INSERT INTO ${LOCK_TABLE} (lock_key, kind, endpoint, name, holder, backend_pid, taken_at) VALUES ($1::bigint, $2, $3, $4, $5, pg_backend_pid(), now())
         ON CONFLICT (lock_key) DO UPDATE SET kind = EXCLUDED.kind, endpoint = EXCLUDED.endpoint, name = EXCLUDED.name, holder = EXCLUDED.holder, backend_pid = EXCLUDED.backend_pid, taken_at = EXCLUDED.taken_at`,
        [key.toString(), kind, lockEndpoint(baseUrl), name, JSON.stringify(holder)],
      ).catch((err: unknown) => {
        release(key);
        throw err;
      });
    }
    return true;
  }

  function release(key: bigint): Promise<void> {
    if (!held.delete(key)) return Promise.resolve();
    if (lostCtl.signal.aborted || closing) return Promise.resolve();
    // One simple-protocol round trip (the key is a number this module made); queued in order before any later take.
    const p = client
      .query(`${table ? `DELETE FROM ${LOCK_TABLE} WHERE lock_key = ${key} AND backend_pid = pg_backend_pid(); ` : ''}SELECT pg_advisory_unlock(${key})`)
      .then(() => undefined)
      .catch(() => undefined);
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  }

  /** Who holds `key` now: the session that holds the advisory lock, and what it recorded. */
  async function holderOfKey(key: bigint, kind: LockKind, baseUrl: string, name: string): Promise<{ holder?: LockHolder; words: string } | undefined> {
    const u = BigInt.asUintN(64, key);
    const recorded = table ? `r.holder, r.kind, r.endpoint, r.name` : `NULL::jsonb AS holder, NULL AS kind, NULL AS endpoint, NULL AS name`;
    const join = table ? `LEFT JOIN ${LOCK_TABLE} r ON r.lock_key = ${key} AND r.backend_pid = l.pid` : '';
    const { rows } = await query<{ pid: number; app: string | null; holder: LockHolder | null; kind: string | null; endpoint: string | null; name: string | null }>(
      `SELECT l.pid, a.application_name AS app, ${recorded}
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid ${join}
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.classid = $1::oid AND l.objid = $2::oid
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       LIMIT 1`,
      [(u >> 32n).toString(), (u & 0xffffffffn).toString()],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    if (row.holder !== null) {
      const words = describeHolder(row.holder);
      // Two locks whose 64-bit keys collide: refused all the same (never two writers), and said plainly.
      const other = row.kind !== kind || row.endpoint !== lockEndpoint(baseUrl) || row.name !== name;
      return { holder: row.holder, words: other ? `${words}, which holds the lock of ${row.kind} ${row.name} on ${row.endpoint} under the same key` : words };
    }
    return { words: row.app !== null && row.app !== '' ? `${row.app} (database session ${row.pid})` : `database session ${row.pid}, which recorded no holder` };
  }

  const backend: PgLockBackend = {
    type: 'postgres',
    where,
    lost: lostCtl.signal,
    async acquire(brandIds: string[], o: AcquireOptions): Promise<BrandLock[]> {
      const taken: BrandLock[] = [];
      try {
        for (const id of [...new Set(brandIds)].sort()) taken.push(await acquireOne(id, o));
        return taken;
      } catch (err) {
        for (const l of taken) l.release();
        await backend.flush();
        throw err;
      }
    },
    async flush() {
      await Promise.all([...pending]);
    },
    async holderOf(baseUrl, brandId) {
      return (await holderOfKey(advisoryKey('brand', baseUrl, brandId), 'brand', baseUrl, brandId).catch(() => undefined))?.words;
    },
    tryLease: (baseUrl, name, holder) => tryTake('leader', baseUrl, name, holder).then((ok) => ok || held.has(advisoryKey('leader', baseUrl, name))),
    releaseLease: (baseUrl, name) => release(advisoryKey('leader', baseUrl, name)),
    async leaseHolder(baseUrl, name) {
      return (await holderOfKey(advisoryKey('leader', baseUrl, name), 'leader', baseUrl, name))?.holder;
    },
    async close() {
      clearInterval(heartbeat);
      await Promise.all([...pending]);
      closing = true;
      held.clear();
      // Ending the session releases every lock it still holds.
      await client.end().catch(() => undefined);
    },
  };

  async function acquireOne(brandId: string, o: AcquireOptions): Promise<BrandLock> {
    const me = holderHere(brandId, o.baseUrl, o.command, { ...(o.ci !== undefined ? { ci: o.ci } : {}), ...(o.shard !== undefined ? { shard: o.shard } : {}) });
    const deadline = Date.now() + o.timeoutMs;
    for (;;) {
      if (await tryTake('brand', o.baseUrl, brandId, me)) {
        const key = advisoryKey('brand', o.baseUrl, brandId);
        return { path: `${where} (advisory lock ${key})`, release: () => void release(key) };
      }
      if (Date.now() >= deadline) {
        const key = advisoryKey('brand', o.baseUrl, brandId);
        const who = held.has(key) ? { holder: me, words: `another run of this process (pid ${process.pid})` } : await holderOfKey(key, 'brand', o.baseUrl, brandId).catch(() => undefined);
        throw lockedError(brandId, where, who, o.timeoutMs);
      }
      await new Promise((r) => setTimeout(r, Math.min(opts.pollMs ?? o.pollMs ?? 500, Math.max(1, deadline - Date.now()))));
    }
  }

  return backend;
}

function lockedError(brandId: string, where: string, who: { holder?: LockHolder; words: string } | undefined, timeoutMs: number): RcsctlError {
  const waited = timeoutMs > 0 ? ` after waiting ${Math.round(timeoutMs / 1000)}s` : '';
  return new RcsctlError(
    'E_LOCKED',
    `brand ${brandId} is locked by ${who?.words ?? 'another rcsctl run (it let go just now: try again)'}${waited}; nothing was sent.\n` +
      `  Wait for it to finish, or run with --lock-timeout 5m to wait for it.\n` +
      `  The lock is a PostgreSQL advisory lock in ${where}: it ends with its holder's database connection, so a holder that was killed frees it at once.`,
    { brandId, lockUrl: where, ...(who?.holder !== undefined ? { holder: who.holder } : {}) },
  );
}
