// The PostgreSQL lock backend against a real server (test/pg.ts): a brand lock
// is one advisory lock keyed on the normalised endpoint and the brand; a
// second holder is refused naming the first (host, pid, CI or controller);
// --lock-timeout waits; a holder whose connection drops (kill -9) frees it at
// once; a holder that loses its connection is told to stop (lost).

import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkLockUrl, lockUrlSecrets, redactedLockUrl } from '../../src/apply/lock-backend.js';
import { advisoryKey, LOCK_TABLE, openPgLockBackend } from '../../src/apply/pg-lock.js';
import { RcsctlError } from '../../src/errors.js';
import { PG_PASSWORD, usePostgres } from '../pg.js';

const db = usePostgres();
const opts = (timeoutMs = 0) => ({ timeoutMs, baseUrl: 'http://127.0.0.1:8080', command: 'apply', pollMs: 50 });

async function refusal(p: Promise<unknown>): Promise<RcsctlError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RcsctlError);
  return err as RcsctlError;
}

describe('PostgreSQL lock backend', () => {
  it('lets one holder take a brand; a second is refused naming the holder (host, pid, CI), before anything else; release frees it', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'apply' });
    const b = await openPgLockBackend({ url: db.url, command: 'controller' });
    try {
      const held = await a.acquire(['BR.a', 'BR.b'], { ...opts(), ci: 'GitHub Actions' });
      const err = await refusal(b.acquire(['BR.b'], { ...opts(), command: 'controller' }));
      expect(err.code).toBe('E_LOCKED');
      expect(err.message).toContain(`brand BR.b is locked by rcsctl apply in GitHub Actions (pid ${process.pid} on ${hostname()}, started `);
      expect(err.message).toContain('nothing was sent');
      expect(err.message).toContain('PostgreSQL advisory lock in postgres://rcsctl:(sensitive)@127.0.0.1:');
      expect(err.message).not.toContain(PG_PASSWORD);
      expect(await b.holderOf('http://127.0.0.1:8080', 'BR.a')).toContain('rcsctl apply in GitHub Actions');
      for (const l of held) l.release();
      await a.flush();
      const mine = await b.acquire(['BR.b'], opts());
      expect(mine).toHaveLength(1);
      for (const l of mine) l.release();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keys the lock on the normalised endpoint: another spelling of the base URL is the same lock, another service is not', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'apply' });
    const b = await openPgLockBackend({ url: db.url, command: 'apply' });
    try {
      const held = await a.acquire(['BR.k'], opts());
      expect((await refusal(b.acquire(['BR.k'], { ...opts(), baseUrl: 'HTTP://localhost:8080/' }))).code).toBe('E_LOCKED');
      const other = await b.acquire(['BR.k'], { ...opts(), baseUrl: 'http://127.0.0.1:8081' });
      for (const l of [...held, ...other]) l.release();
      expect(advisoryKey('brand', 'http://127.0.0.1:8080/', 'BR.k')).toBe(advisoryKey('brand', 'http://[::1]:8080', 'BR.k'));
      expect(advisoryKey('brand', 'http://127.0.0.1:8080', 'BR.k')).not.toBe(advisoryKey('leader', 'http://127.0.0.1:8080', 'BR.k'));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a second take of a held brand within one process too (session locks are re-entrant)', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'controller' });
    try {
      const held = await a.acquire(['BR.same'], opts());
      const err = await refusal(a.acquire(['BR.same'], opts()));
      expect(err.code).toBe('E_LOCKED');
      for (const l of held) l.release();
      for (const l of await a.acquire(['BR.same'], opts())) l.release();
    } finally {
      await a.close();
    }
  });

  it('takes several brands all or none', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'apply' });
    const b = await openPgLockBackend({ url: db.url, command: 'apply' });
    try {
      const held = await a.acquire(['BR.m2'], opts());
      await refusal(b.acquire(['BR.m1', 'BR.m2', 'BR.m3'], opts()));
      // BR.m1 was taken and given back: a third taker gets it.
      const c = await a.acquire(['BR.m1'], opts());
      for (const l of [...held, ...c]) l.release();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('waits up to --lock-timeout for the holder, then takes the lock', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'apply' });
    const b = await openPgLockBackend({ url: db.url, command: 'apply' });
    try {
      const held = await a.acquire(['BR.w'], opts());
      setTimeout(() => held.forEach((l) => l.release()), 300);
      const t0 = Date.now();
      const got = await b.acquire(['BR.w'], opts(10_000));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
      got.forEach((l) => l.release());
      await b.flush();
      const again = await a.acquire(['BR.w'], opts());
      const t1 = Date.now();
      const err = await refusal(b.acquire(['BR.w'], opts(400)));
      expect(Date.now() - t1).toBeGreaterThanOrEqual(380);
      expect(err.message).toContain('after waiting');
      again.forEach((l) => l.release());
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('frees the lock of a holder killed with kill -9 as soon as its connection drops', async () => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `const m = await import(${JSON.stringify(new URL('../../dist/src/apply/pg-lock.js', import.meta.url).href)}); const b = await m.openPgLockBackend({ url: process.env.U, command: 'apply' }); await b.acquire(['BR.kill'], { timeoutMs: 0, baseUrl: 'http://127.0.0.1:8080', command: 'apply' }); console.log('held'); setInterval(() => {}, 1000);`],
      { env: { ...process.env, U: db.url }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout!.on('data', (c: Buffer) => c.toString().includes('held') && resolve()));
    const b = await openPgLockBackend({ url: db.url, command: 'apply' });
    try {
      const err = await refusal(b.acquire(['BR.kill'], opts()));
      expect(err.message).toContain(`(pid ${child.pid} on ${hostname()}`);
      child.kill('SIGKILL');
      const t0 = Date.now();
      const got = await b.acquire(['BR.kill'], opts(10_000));
      expect(Date.now() - t0).toBeLessThan(5_000);
      got.forEach((l) => l.release());
    } finally {
      child.kill('SIGKILL');
      await b.close();
    }
  });

  it('signals `lost` when its connection is cut, and refuses to take locks after it', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'controller', heartbeatMs: 100 });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await a.acquire(['BR.lost'], opts());
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'rcsctl controller pid ${process.pid}%'`);
      await new Promise<void>((resolve) => (a.lost.aborted ? resolve() : a.lost.addEventListener('abort', () => resolve())));
      expect(String(a.lost.reason)).toContain('the locks it held are gone');
      expect((await refusal(a.acquire(['BR.other'], opts()))).code).toBe('E_LOCK_LOST');
    } finally {
      await admin.end();
      await a.close();
    }
  });

  it('records the holder in the rcsctl_locks table while it holds the lock', async () => {
    const a = await openPgLockBackend({ url: db.url, command: 'apply' });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const held = await a.acquire(['BR.rec'], opts());
      const { rows } = await admin.query(`SELECT kind, endpoint, name, holder FROM ${LOCK_TABLE} WHERE name = 'BR.rec'`);
      expect(rows).toEqual([{ kind: 'brand', endpoint: 'http://loopback:8080', name: 'BR.rec', holder: expect.objectContaining({ pid: process.pid, host: hostname(), command: 'apply' }) }]);
      held.forEach((l) => l.release());
      await a.close();
      expect((await admin.query(`SELECT 1 FROM ${LOCK_TABLE} WHERE name = 'BR.rec'`)).rows).toEqual([]);
    } finally {
      await admin.end();
      await a.close();
    }
  });

  it('never shows the password: a bad URL and an unreachable database are named without it', async () => {
    expect(redactedLockUrl(db.url)).not.toContain(PG_PASSWORD);
    expect(lockUrlSecrets(db.url).map((s) => s.value)).toContain(PG_PASSWORD);
    expect(() => checkLockUrl('mysql://u:p@h/db', '--lock-url')).toThrow(/must be a postgres:\/\/ URL/);
    const down = db.url.replace(`:${db.port}/`, ':1/');
    const err = await refusal(openPgLockBackend({ url: down, command: 'apply', timeoutMs: 2_000 }));
    expect(err.code).toBe('E_LOCK');
    expect(err.message).toContain('cannot connect to the lock database postgres://rcsctl:(sensitive)@127.0.0.1:1/postgres');
    expect(err.message).not.toContain(PG_PASSWORD);
  });
});
