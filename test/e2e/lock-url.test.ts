// `rcsctl apply --lock-url postgres://…`: the brand locks live in a shared
// PostgreSQL (a real one, test/pg.ts), so applies from two machines (two lock
// directories here) never both run, whatever spelling of the base URL each
// uses; the loser is refused with E_LOCKED naming the holder, before it sends
// anything; the URL's password is never printed.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { PG_PASSWORD, usePostgres } from '../pg.js';
import { admin, BRAND, cli, type CliRun } from './helpers.js';

const db = usePostgres();
let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  // Latency makes the two runs overlap for certain.
  emu = await startEmulator({ port: 0, latencyMs: 15 });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-lock-url-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
});

function manifests(name: string, prefix: string, n: number): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  const replies = Array.from({ length: n }, (_, i) => `  ${prefix}${i + 1}:\n    name: "${prefix} ${i + 1}"\n    messagebaseId: SCS00000\n    body: { description: "Reply ${prefix} ${i + 1}" }\n`).join('');
  writeFileSync(join(d, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${replies}`);
  return d;
}

const names = (): string[] => [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName).sort();

/** An apply as from its own machine: its own lock directory, the shared lock URL (flag or environment). */
function applyFrom(machine: string, m: string, opts: { baseUrl?: string; flag?: boolean; env?: Record<string, string> } = {}): Promise<CliRun> {
  const viaFlag = opts.flag !== false;
  return cli(['apply', m, '--yes', ...(viaFlag ? ['--lock-url', db.url] : [])], {
    emu,
    env: { RCSCTL_LOCK_DIR: join(dir, `locks-${machine}`), ...(viaFlag ? {} : { RCSCTL_LOCK_URL: db.url }), ...(opts.baseUrl !== undefined ? { RCSCTL_BASE_URL: opts.baseUrl } : {}), ...(opts.env ?? {}) },
  });
}

describe('apply --lock-url: one writer per brand across machines', () => {
  it('lets one of two applies from two machines run; the other is refused naming the holder (host, pid, CI) and sends nothing', async () => {
    const m = manifests('two-machines', 'Pg', 6);
    const [a, b] = await Promise.all([applyFrom('m1', m, { env: { GITHUB_ACTIONS: 'true' } }), applyFrom('m2', m, { flag: false, env: { GITHUB_ACTIONS: 'true' } })]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    const loser = a.code === 1 ? a : b;
    expect(loser.stderr).toContain(`brand ${BRAND} is locked by rcsctl apply in GitHub Actions (pid ${process.pid} on ${hostname()}`);
    expect(loser.stderr).toContain('nothing was sent');
    expect(loser.stderr).toContain('PostgreSQL advisory lock in postgres://rcsctl:(sensitive)@127.0.0.1:');
    expect(names()).toEqual(['Pg 1', 'Pg 2', 'Pg 3', 'Pg 4', 'Pg 5', 'Pg 6']);
    for (const r of [a, b]) expect(r.stdout + r.stderr).not.toContain(PG_PASSWORD);
  });

  it('never lets two applies spelled differently (trailing slash, upper case) both run', async () => {
    const m = manifests('spelled', 'Sp', 6);
    const port = new URL(emu.url).port;
    for (const other of [`http://127.0.0.1:${port}/`, `HTTP://127.0.0.1:${port}//`]) {
      await admin(emu, 'POST', 'reset');
      const [a, b] = await Promise.all([applyFrom('s1', m), applyFrom('s2', m, { baseUrl: other })]);
      expect([a.code, b.code].sort()).toEqual([0, 1]);
      expect(names()).toEqual(['Sp 1', 'Sp 2', 'Sp 3', 'Sp 4', 'Sp 5', 'Sp 6']);
    }
  });

  it('with --lock-timeout the second waits for the first, then finds nothing to do', async () => {
    const m = manifests('wait', 'W', 4);
    const [a, b] = await Promise.all([
      cli(['apply', m, '--yes', '--lock-url', db.url, '--lock-timeout', '30s'], { emu, env: { RCSCTL_LOCK_DIR: join(dir, 'w1') } }),
      cli(['apply', m, '--yes', '--lock-url', db.url, '--lock-timeout', '30s'], { emu, env: { RCSCTL_LOCK_DIR: join(dir, 'w2') } }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect([a.stdout, b.stdout].filter((s) => s.includes('Nothing to apply')).length).toBe(1);
  });

  it('refuses a lock URL that is not postgres://, and names an unreachable database without its password, before sending anything', async () => {
    const m = manifests('bad-url', 'B', 1);
    const bad = await cli(['apply', m, '--yes', '--lock-url', 'mysql://u:pw-Secret-99@127.0.0.1/db'], { emu });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--lock-url must be a postgres:// URL');
    expect(bad.stderr).not.toContain('pw-Secret-99');
    const down = await cli(['apply', m, '--yes'], { emu, env: { RCSCTL_LOCK_URL: db.url.replace(`:${db.port}/`, ':1/') } });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot connect to the lock database postgres://rcsctl:(sensitive)@127.0.0.1:1/postgres');
    expect(down.stderr).not.toContain(PG_PASSWORD);
    expect(names()).toEqual([]);
  });
});
