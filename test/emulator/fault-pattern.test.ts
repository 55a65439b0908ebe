// A fault rule's path pattern cannot stall the emulator: it is matched by an
// RE2-class engine (time linear in the path), so ^/(a+)+$ against a long run
// of a's answers at once instead of backtracking for minutes. The emulator
// runs in a child process here, so that on an engine that does backtrack the
// stall hits the child (and its time limit), never this test runner.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ROOT } from '../e2e/helpers.js';
import { admin, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

/** Starts an emulator, posts the rule, sends one request on `path`, prints its status. */
const CHILD = `
const { startEmulator } = await import(${JSON.stringify(join(ROOT, 'dist/src/emulator/index.js'))});
const emu = await startEmulator({ port: 0, host: '127.0.0.1' });
const post = (p, body) => fetch(emu.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const set = await post('/_emulator/faults', { seed: 1, rules: [{ kind: 'error', rate: 1, status: 503, path: '^/(a+)+$' }] });
if (set.status !== 200) throw new Error('faults refused: ' + set.status + ' ' + await set.text());
const r = await fetch(emu.url + '/' + 'a'.repeat(64) + '!', { headers: { authorization: 'Bearer x' } });
console.log('answered ' + r.status);
await emu.close();
`;

describe('fault rule patterns', () => {
  it('a pattern with nested quantifiers answers at once on a path that would make a backtracking engine run for ever', async () => {
    // The time limit only catches a hang (2^64 steps), it measures nothing: a linear match takes microseconds.
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD], { cwd: ROOT, timeout: 60_000 }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => ({ code: err.killed === true ? 'killed' : err.code, stdout: err.stdout, stderr: err.stderr }),
    );
    expect(run.code, run.stderr).toBe(0);
    // The rule does not match (the path ends in !): the request reaches routing, which does not know it.
    expect(run.stdout).toMatch(/^answered 4\d\d$/m);
  }, 90_000);

  it('refuses what RE2 does not have (backreferences, lookaround) with 400 naming the rule', async () => {
    for (const path of ['^/(a)\\1$', '^/(?=chatbot)', '(?<!x)/logo']) {
      const a = await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1 }, { kind: 'error', rate: 1, path }] });
      expect(a.status, path).toBe(400);
      expect(a.body.error.message, path).toMatch(/rules\[1\]: path is not a valid RE2 regular expression/);
    }
    const ok = await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'error', rate: 1, path: '^/api/1\\.1/brand/[^/]+/chatbot$' }] });
    expect(ok.status).toBe(200);
  });
});
