// Ctrl-C mid-apply, on a real child process: the first SIGINT stops new steps,
// lets the request in flight finish, prints what was done, in flight and never
// started, and exits 130; a re-run converges. A second signal stops at once.
// The steps never started of a long run are counted in one line, not listed
// (--verbose lists them), and the run says it stopped early.
// The emulator's latency makes "mid-apply" certain.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, ROOT, TOKEN } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
let manifest: string;
let many: string;
const MANY = 200;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, latencyMs: 120 });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-interrupt-'));
  manifest = join(dir, 'brand');
  mkdirSync(manifest);
  const replies = (n: number): string => Array.from({ length: n }, (_, i) => `  r${i + 1}:\n    name: "Reply ${i + 1}"\n    messagebaseId: SCS00000\n    body: { description: "Reply number ${i + 1}" }\n`).join('');
  writeFileSync(join(manifest, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${replies(12)}`);
  many = join(dir, 'many');
  mkdirSync(many);
  writeFileSync(join(many, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${replies(MANY)}`);
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
});

interface Child {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI; send `signals` once the first step is reported done. */
function applyInterrupted(signals: NodeJS.Signals[], path = manifest, extra: string[] = []): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'rcsctl.js'), 'apply', path, '--yes', '--concurrency', '1', ...extra], {
      env: { PATH: process.env.PATH ?? '', RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_LOCK_DIR: join(dir, 'locks') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!sent && /✓ autoReply\.r\d+: created/.test(stdout)) {
        sent = true;
        for (const s of signals) child.kill(s);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const liveNames = (): string[] => [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName);

describe('interrupting apply', () => {
  it('the first SIGINT finishes what is in flight, says what happened, exits 130; a re-run converges', async () => {
    const run = await applyInterrupted(['SIGINT']);
    expect(run.stderr).toContain('SIGINT received: no new step will start');
    expect(run.stderr).toContain('Interrupted (SIGINT).');
    const counts = /BR\.demo000001: (\d+) done, (\d+) in flight, (\d+) never started \(--verbose lists them\)\./.exec(run.stderr);
    expect(counts).not.toBeNull();
    const [done, inFlight, never] = (counts ?? []).slice(1).map(Number) as [number, number, number];
    expect(done).toBeGreaterThanOrEqual(1);
    expect(inFlight).toBe(1);
    expect(never).toBeGreaterThanOrEqual(1);
    expect(done + inFlight + never).toBe(12);
    expect(run.stderr).toContain(`${never} never started (--verbose lists them).`);
    expect(run.stderr).toContain(`Apply stopped early (SIGINT): ${never} of 12 steps never started. Run apply again to finish`);
    expect(run.stdout).not.toContain('Apply complete');
    expect(run.code).toBe(130);
    // What was done and what was in flight landed; nothing else was sent.
    expect(liveNames()).toHaveLength(done + inFlight);

    const again = await cli(['apply', manifest, '--yes'], { emu, env: { RCSCTL_LOCK_DIR: join(dir, 'locks') } });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(liveNames().sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Reply ${i + 1}`).sort());
    // Nothing left to apply (the seed's rooms are live and undeclared: listed below the line, not steps).
    const plan = await cli(['plan', manifest], { emu });
    expect(plan.stdout).toMatch(/No changes(\.| to apply, but \d+ live resources? (is|are) not declared)/);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete');
  }, 30_000);

  it(`an apply of ${MANY} creates interrupted early says in one line what never started, and that it stopped early`, async () => {
    const run = await applyInterrupted(['SIGINT'], many);
    expect(run.code).toBe(130);
    const counts = /BR\.demo000001: (\d+) done, (\d+) in flight, (\d+) never started \(--verbose lists them\)\./.exec(run.stderr);
    expect(counts, run.stderr).not.toBeNull();
    const [done, inFlight, never] = (counts ?? []).slice(1).map(Number) as [number, number, number];
    expect(done + inFlight + never).toBe(MANY);
    expect(never).toBeGreaterThan(100);
    // No line per step never started, on either stream.
    expect(run.stdout + run.stderr).not.toMatch(/autoReply\.r\d+: not started/);
    expect(run.stderr).not.toContain('never started:');
    // stdout ends saying the run stopped early, never `200/200 steps finished`, then what the run cost (every apply's last stdout line; the verdict is stderr's).
    const [stoppedOut, costOut] = run.stdout.trimEnd().split('\n').filter((l) => l !== '').slice(-2);
    expect(stoppedOut).toBe(`… stopped early: ${done + inFlight}/${MANY} steps finished (${done + inFlight} done); ${never} never started: the run was interrupted (--verbose lists them)`);
    expect(costOut).toMatch(/^Requests: \d+ requests?, 0 answered 429\.$/);
    expect(run.stdout).not.toContain(`${MANY}/${MANY} steps finished`);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`Apply stopped early (SIGINT): ${never} of ${MANY} steps never started. Run apply again to finish: it plans from the live state and does only what is left.`);

    // --verbose lists every step never started, on stdout as they are given up and on stderr.
    await admin(emu, 'POST', 'reset');
    const verbose = await applyInterrupted(['SIGINT'], many, ['--verbose']);
    expect(verbose.code).toBe(130);
    const neverVerbose = Number(/(\d+) never started\./.exec(verbose.stderr)?.[1]);
    expect(verbose.stdout.match(/^- autoReply\.r\d+: not started: the run was interrupted$/gm)).toHaveLength(neverVerbose);
    const listed = verbose.stderr.split('never started:\n')[1]?.split('\n').filter((l) => /^ {4}autoReply\.r\d+ create$/.test(l));
    expect(listed).toHaveLength(neverVerbose);
    const [stoppedVerbose, costVerbose] = verbose.stdout.trimEnd().split('\n').filter((l) => l !== '').slice(-2);
    expect(stoppedVerbose).toMatch(/^… stopped early: \d+\/200 steps finished \(\d+ done\); \d+ never started: the run was interrupted$/);
    expect(costVerbose).toMatch(/^Requests: \d+ requests?, 0 answered 429\.$/);
  }, 30_000);

  it('a second signal stops at once, with exit 130; a re-run still converges', async () => {
    const run = await applyInterrupted(['SIGINT', 'SIGTERM']);
    // Two signals sent back to back may arrive in either order.
    expect(run.stderr).toMatch(/SIG(INT|TERM) received: no new step will start/);
    expect(run.stderr).toMatch(/SIG(INT|TERM) received again: stopping at once/);
    expect(run.stderr).not.toContain('Interrupted (');
    expect(run.code).toBe(130);
    // Its lock was left behind by a process that is gone: the next run takes it over.
    const again = await cli(['apply', manifest, '--yes'], { emu, env: { RCSCTL_LOCK_DIR: join(dir, 'locks') } });
    expect(again.code).toBe(0);
    expect(liveNames()).toHaveLength(12);
  }, 30_000);
});
