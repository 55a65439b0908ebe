// The per-brand lock file: exclusive, written whole, names its holder (pid,
// host, and on Linux boot id and process start), taken over only when its
// process is gone from this host or when it cannot be read and is old, by one
// process only; waited for up to the timeout.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireBrandLock, acquireBrandLocks, lockPath, UNREADABLE_LOCK_TAKEOVER_MS } from '../../src/apply/lock.js';
import { currentBootId, processStartTicks } from '../../src/apply/process-identity.js';
import { RcsctlError } from '../../src/errors.js';
import { ROOT } from '../e2e/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = (timeoutMs = 0) => ({ dir, timeoutMs, baseUrl: 'http://127.0.0.1:1', command: 'apply', pollMs: 20 });

const linux = process.platform === 'linux';

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

/** A lock file of the given content, as a holder on this host would write it. */
function holderOf(brandId: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ host: hostname(), startedAt: new Date().toISOString(), brandId, baseUrl: '', command: 'apply', ...extra });
}

/** Set a file's modification time `ms` into the past. */
function age(path: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
}

/** A live process of this host that is not rcsctl (killed after the test). */
function stranger(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

describe('brand lock: written whole', () => {
  it('is linked into place from a temporary file, leaves no temporary file, and records the boot id and process start', async () => {
    const lock = await acquireBrandLock('BR.whole', opts());
    const held = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(readdirSync(dir).filter((f) => f.startsWith('BR.whole'))).toEqual([lock.path.slice(dir.length + 1)]);
    if (linux) expect(held).toMatchObject({ procStart: processStartTicks(process.pid), bootId: currentBootId() });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });
  it('is never seen empty by a reader, while another process takes and releases it over and over', async () => {
    const lockUrl = pathToFileURL(join(ROOT, 'dist', 'src', 'apply', 'lock.js')).href;
    const path = lockPath(dir, 'http://127.0.0.1:1', 'BR.seen');
    const stop = join(dir, 'stop-taking');
    // It takes and releases until told to stop (at most 20,000 times), so the
    // reader sees the lock however the two processes are scheduled.
    const taker = `const { existsSync } = await import('node:fs');
      const { acquireBrandLock } = await import(${JSON.stringify(lockUrl)});
      for (let i = 0; i < 20000 && !existsSync(${JSON.stringify(stop)}); i++) (await acquireBrandLock('BR.seen', { dir: ${JSON.stringify(dir)}, timeoutMs: 0, baseUrl: 'http://127.0.0.1:1', command: 'apply' })).release();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', taker], { stdio: 'inherit' });
    const exited = new Promise((r) => child.on('exit', r));
    let done = false;
    void exited.then(() => (done = true));
    let seen = 0;
    let empty = 0;
    while (!done && seen < 300) {
      for (let i = 0; i < 2000; i++) {
        try {
          const text = readFileSync(path, 'utf8');
          seen++;
          if (text === '') empty++;
        } catch {
          // Between a release and the next take.
        }
      }
      await new Promise((r) => setImmediate(r));
    }
    writeFileSync(stop, '');
    await exited;
    expect(child.exitCode).toBe(0);
    expect(seen).toBeGreaterThan(0);
    expect(empty).toBe(0);
  });
});

describe('brand lock: unreadable lock files', () => {
  // What an earlier release left when killed between creating its lock and
  // writing it, and what a damaged disk leaves.
  for (const [name, content] of [
    ['empty', ''],
    ['cut short', '{"pid": 12'],
    ['JSON but not a lock', '{}'],
    ['null', 'null'],
  ] as const) {
    it(`refuses an ${name} lock file while it is young, naming it, and takes it over once it is older than the bound`, async () => {
      const brand = `BR.unreadable-${name.replace(/\W/g, '')}`;
      const path = lockPath(dir, 'http://127.0.0.1:1', brand);
      writeFileSync(path, content);
      const err = await acquireBrandLock(brand, opts()).catch((e: unknown) => e);
      expect((err as RcsctlError).code).toBe('E_LOCKED');
      expect((err as Error).message).toMatch(/locked by a lock file it cannot read \(0s old; one is taken over once it is 10s old\)/);
      age(path, UNREADABLE_LOCK_TAKEOVER_MS + 1000);
      const lock = await acquireBrandLock(brand, opts());
      expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
      lock.release();
    });
  }

  it('waits for a young unreadable lock to come of age within --lock-timeout', async () => {
    const path = lockPath(dir, 'http://127.0.0.1:1', 'BR.unreadable-wait');
    writeFileSync(path, '');
    age(path, UNREADABLE_LOCK_TAKEOVER_MS - 300);
    const lock = await acquireBrandLock('BR.unreadable-wait', opts(5000));
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });
});

describe.runIf(linux)('brand lock: a pid now held by another process', () => {
  it('takes over a lock whose pid runs but started at another time, or in another boot; never one whose holder still runs', async () => {
    const other = stranger();
    try {
      const pid = other.pid as number;
      let ticks: string | undefined;
      while ((ticks = processStartTicks(pid)) === undefined) await new Promise((r) => setTimeout(r, 10));
      const path = lockPath(dir, 'http://127.0.0.1:1', 'BR.reused');
      const cases: Array<[string, Record<string, unknown>, boolean]> = [
        ['its process start differs', { pid, procStart: String(Number(ticks) + 1), bootId: currentBootId() }, true],
        ['it was taken in another boot', { pid, procStart: ticks, bootId: '00000000-0000-0000-0000-000000000000' }, true],
        ['an earlier release, taken before the process started', { pid, startedAt: '2026-01-01T00:00:00.000Z' }, true],
        ['the holder still runs', { pid, procStart: ticks, bootId: currentBootId() }, false],
        ['an earlier release, taken after the process started', { pid }, false],
      ];
      for (const [why, extra, takeable] of cases) {
        writeFileSync(path, holderOf('BR.reused', extra));
        const got = await acquireBrandLock('BR.reused', opts()).catch((e: unknown) => e);
        if (takeable) {
          expect(got, why).not.toBeInstanceOf(Error);
          (got as { release(): void }).release();
        } else {
          expect((got as RcsctlError).code, why).toBe('E_LOCKED');
          expect((got as Error).message, why).toContain(`(pid ${pid} on ${hostname()}`);
        }
      }
      rmSync(path, { force: true });
    } finally {
      other.kill();
    }
  });
});

/**
 * The child of the take-over race: says it is ready, waits for "go" on stdin,
 * tries the lock once, says how it went, and holds it until stdin closes.
 */
const RACER = `
const [lockUrl, dir, brand] = process.argv.slice(2);
const { acquireBrandLock } = await import(lockUrl);
let lock;
let input = '';
process.stdin.on('data', async (d) => {
  input += d;
  if (lock !== undefined || !input.includes('go')) return;
  lock = await acquireBrandLock(brand, { dir, timeoutMs: 0, baseUrl: 'http://127.0.0.1:1', command: 'apply' }).catch((e) => e);
  process.stdout.write(JSON.stringify(lock instanceof Error ? { code: lock.code } : { won: true }) + '\\n');
});
process.stdin.on('end', () => { if (lock !== undefined && !(lock instanceof Error)) lock.release(); });
process.stdout.write('ready\\n');
`;

interface Answer {
  won?: boolean;
  code?: string;
}

/** A line of a child's stdout, the `nth` one (0-based). */
function line(child: ChildProcess, nth: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      if (lines.length > nth + 1) {
        child.stdout?.off('data', onData);
        resolve(lines[nth] as string);
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`racer exited ${code} before its line ${nth}`)));
  });
}

/** Start `n` processes, let them try a stale lock of `brand` at one instant; their answers, once all have answered. */
async function race(n: number, brand: string): Promise<Answer[]> {
  const script = join(dir, 'racer.mjs');
  writeFileSync(script, RACER);
  const lockUrl = pathToFileURL(join(ROOT, 'dist', 'src', 'apply', 'lock.js')).href;
  const children = Array.from({ length: n }, () => spawn(process.execPath, [script, lockUrl, dir, brand], { stdio: ['pipe', 'pipe', 'inherit'] }));
  try {
    const answered = children.map((c) => line(c, 1));
    await Promise.all(children.map((c) => line(c, 0)));
    for (const c of children) c.stdin?.write('go\n');
    return (await Promise.all(answered)).map((l) => JSON.parse(l) as Answer);
  } finally {
    await Promise.all(children.map((c) => new Promise((r) => (c.on('exit', r), c.stdin?.end()))));
  }
}

describe('brand lock: take-over races', () => {
  it('lets exactly one of several processes take over one stale lock at once, unreadable or of a gone pid', async () => {
    const path = lockPath(dir, 'http://127.0.0.1:1', 'BR.race');
    for (let round = 0; round < 3; round++) {
      writeFileSync(path, round === 1 ? holderOf('BR.race', { pid: deadPid() }) : '');
      age(path, UNREADABLE_LOCK_TAKEOVER_MS + 1000);
      const answers = await race(3, 'BR.race');
      expect(answers.filter((a) => a.won === true), `round ${round}`).toHaveLength(1);
      expect(answers.filter((a) => a.code === 'E_LOCKED'), `round ${round}`).toHaveLength(2);
      expect(existsSync(path), `round ${round}: the winner released it`).toBe(false);
      expect(readdirSync(dir).filter((f) => f.startsWith('BR.race')), `round ${round}: no claim or temporary file left`).toEqual([]);
    }
  });
});

