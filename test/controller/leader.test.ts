// The leader lease in-process (leader.ts), against a real PostgreSQL
// (test/pg.ts): a replica that cannot reach the lock database does not know
// its place and is not ready (the error names the database without its
// password); a leader whose lease connection is cut stops leading at once
// (its passes are aborted) and the shard keeps exactly one leader.

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { LeadershipView } from '../../src/controller/leader.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { EXAMPLE } from '../e2e/helpers.js';
import { PG_PASSWORD, usePostgres } from '../pg.js';
import { openPgLockBackend } from '../../src/apply/pg-lock.js';
import { BRAND } from '../e2e/helpers.js';
import { brandStatus, get, startFor, useControllerSuite, waitFor } from './helpers.js';

const db = usePostgres();
let emu: RunningEmulator;
let client: RcsClient;
const suite = useControllerSuite('rcsctl-leader-', (e, c) => {
  emu = e;
  client = c;
});

const place = async (url: string): Promise<LeadershipView> => (await get(url, '/status')).body.leadership as LeadershipView;

describe('leader lease', () => {
  it('without a reachable lock database: the place is unknown, /readyz is 503, and /status names the database without its password', async () => {
    const down = db.url.replace(`:${db.port}/`, ':1/');
    const a = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockUrl: down, leasePollMs: 200 });
    suite.running.push(a.ctl);
    const p = await place(a.ctl.url);
    expect(p.state).toBe('unknown');
    expect(p.known).toBe(false);
    expect(p.error).toContain('cannot connect to the lock database postgres://rcsctl:(sensitive)@127.0.0.1:1/postgres');
    expect((await get(a.ctl.url, '/readyz')).status).toBe(503);
    expect(JSON.stringify((await get(a.ctl.url, '/status')).body)).not.toContain(PG_PASSWORD);
    expect(a.logs.join('\n')).not.toContain(PG_PASSWORD);
  });

  it('without a lock URL the replica leads alone (sole) and is ready', async () => {
    const a = await startFor(emu, client, [EXAMPLE]);
    suite.running.push(a.ctl);
    expect(await place(a.ctl.url)).toMatchObject({ state: 'sole', known: true });
    await waitFor('ready', async () => ((await get(a.ctl.url, '/readyz')).status === 200 ? true : undefined));
  });

  it('a leader whose lease connection is cut stops leading at once; the shard ends with exactly one leader', async () => {
    const a = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockUrl: db.url, leasePollMs: 200 });
    suite.running.push(a.ctl);
    await waitFor('a to lead', async () => ((await place(a.ctl.url)).state === 'leader' ? true : undefined));
    const b = await startFor(emu, client, [EXAMPLE], { mode: 'apply', lockUrl: db.url, leasePollMs: 200 });
    suite.running.push(b.ctl);
    expect(await place(b.ctl.url)).toMatchObject({ state: 'standby', known: true, leader: { pid: process.pid, url: `${a.ctl.url}/webhook` } });

    // Cut a's connection from the server side, as a failover or a partition would.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(`SELECT backend_pid AS pid FROM rcsctl_locks WHERE kind = 'leader'`);
      expect(rows).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await waitFor('a to stop leading', async () => (a.logs.some((l) => l.includes('"event":"leadership"') && l.includes('"from":"leader"')) ? true : undefined), 10_000);
    const [pa, pb] = await waitFor('one leader again', async () => {
      const both = await Promise.all([place(a.ctl.url), place(b.ctl.url)]);
      return both.filter((p) => p.state === 'leader').length === 1 && both.every((p) => p.known) ? both : undefined;
    }, 10_000);
    expect([pa.state, pb.state].sort()).toEqual(['leader', 'standby']);
  });

  it('the leader waits for a brand a CI apply holds in the lock database, naming it, and applies once it is free', async () => {
    const ci = await openPgLockBackend({ url: db.url, command: 'apply' });
    try {
      const held = await ci.acquire([BRAND], { timeoutMs: 0, baseUrl: emu.url, command: 'apply', ci: 'GitHub Actions' });
      const a = await startFor(emu, client, [EXAMPLE], { mode: 'apply', allowReview: true, lockUrl: db.url, leasePollMs: 200 });
      suite.running.push(a.ctl);
      const waiting = await waitFor('the brand to wait for the CI apply', async () => {
        const s = await brandStatus(a.ctl.url, BRAND);
        return s.pendingReasons[0]?.startsWith('waiting for the brand') === true ? s : undefined;
      });
      expect(waiting.pendingReasons[0]).toBe(`waiting for the brand's lock, held by rcsctl apply in GitHub Actions (pid ${process.pid} on ${(await import('node:os')).hostname()})`);
      expect(waiting.passes).toBe(0);
      held.forEach((l) => l.release());
      await ci.flush();
      await waitFor('a pass once the lock is free', async () => ((await brandStatus(a.ctl.url, BRAND)).passes > 0 ? true : undefined));
    } finally {
      await ci.close();
    }
  });
});
