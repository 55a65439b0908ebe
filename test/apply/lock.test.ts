// The per-brand lock file: exclusive, names its holder, taken over only when
// its process is gone from this host, waited for up to the timeout.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireBrandLock, acquireBrandLocks, lockPath } from '../../src/apply/lock.js';
import { RcsctlError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = (timeoutMs = 0) => ({ dir, timeoutMs, baseUrl: 'http://127.0.0.1:1', command: 'apply', pollMs: 20 });

/** A pid that ran on this host and has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('brand lock', () => {
  it('writes pid, host and start time; a second taker is refused naming them; release frees it', async () => {
    const lock = await acquireBrandLock('BR.a', opts());
    const held = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), brandId: 'BR.a', command: 'apply' });
    expect(Date.parse(held.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    const err = await acquireBrandLock('BR.a', opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RcsctlError);
    expect((err as RcsctlError).code).toBe('E_LOCKED');
    expect((err as Error).message).toContain(`locked by rcsctl apply (pid ${process.pid} on ${hostname()}, started ${held.startedAt}`);
    expect((err as Error).message).toContain(`delete ${lock.path}`);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    (await acquireBrandLock('BR.a', opts())).release();
  });

  it('takes over a lock whose process is gone, but never one from another host', async () => {
    const path = lockPath(dir, 'http://127.0.0.1:1', 'BR.stale');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', brandId: 'BR.stale', baseUrl: '', command: 'apply' }));
    const lock = await acquireBrandLock('BR.stale', opts());
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    lock.release();

    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'some-other-host', startedAt: '2026-01-01T00:00:00.000Z', brandId: 'BR.stale', baseUrl: '', command: 'apply' }));
    await expect(acquireBrandLock('BR.stale', opts(100))).rejects.toThrow(/on some-other-host.* after waiting 0s/);
    rmSync(path);
  });

  it('waits up to the timeout for the holder to finish', async () => {
    const first = await acquireBrandLock('BR.wait', opts());
    setTimeout(() => first.release(), 150);
    const t0 = Date.now();
    const second = await acquireBrandLock('BR.wait', opts(5000));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    second.release();
  });

  it('takes several brands all or none', async () => {
    const other = await acquireBrandLock('BR.y', opts());
    await expect(acquireBrandLocks(['BR.z', 'BR.y', 'BR.x'], opts())).rejects.toThrow(/BR\.y is locked/);
    // BR.x was taken first (sorted order) and given back.
    (await acquireBrandLock('BR.x', opts())).release();
    other.release();
  });
});
