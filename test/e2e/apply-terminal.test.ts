// On an interactive terminal apply shows a listr2 task list; the final frame
// still names every step and its outcome.

import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { stripAnsi } from '../../src/render/style.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulator, EXAMPLE, ROOT } from './helpers.js';

class FakeTerminal extends Writable {
  isTTY = true;
  columns = 160;
  rows = 60;
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

describe('apply on a terminal', () => {
  it('renders a task list whose last frame names each step and outcome', async () => {
    const stdout = new FakeTerminal();
    const stderr = new FakeTerminal();
    // No CI variable: this is a person at a terminal.
    const code = await main(['apply', EXAMPLE, '--yes'], { stdout, stderr, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token' }, cwd: ROOT });
    expect(code).toBe(3);
    expect(stdout.text).toContain('Applying to BR.demo000001:');
    // log-update redraws in place; the last frame starts after the last cursor-to-column-1.
    const text = stripAnsi(stdout.text.slice(stdout.text.lastIndexOf('\u001b[G')));
    expect(text).toMatch(/✔ autoReply\.hours: created \(ARM\d+\)/);
    expect(text).toMatch(/✔ persistentMenu\.0212345678: menu created/);
    expect(text).toMatch(/↓ logo\.main: held: a new logo goes to operator review/);
    expect(text).toContain('BR.demo000001: 15 done, 0 failed, 0 blocked, 1 held, 0 skipped.');
  });

  it('an interrupt mid-run shows the steps never started as skipped (↓), not failed (✖), and exits 130', async () => {
    const slow = await startEmulator({ port: 0, latencyMs: 60 });
    try {
      const stdout = new FakeTerminal();
      const stderr = new FakeTerminal();
      const interrupt = new AbortController();
      const watch = setInterval(() => {
        // Once the first auto-reply is stored, the run is well under way.
        if ((slow.store.brands.get('BR.demo000001')?.autoReplies.size ?? 0) > 0) interrupt.abort();
      }, 5);
      const code = await main(['apply', EXAMPLE, '--yes', '--concurrency', '1'], {
        stdout,
        stderr,
        env: { RCSCTL_BASE_URL: slow.url, RCSCTL_TOKEN: 'emulator-master-token' },
        cwd: ROOT,
        signal: interrupt.signal,
      });
      clearInterval(watch);
      expect(code).toBe(130);
      const text = stripAnsi(stdout.text.slice(stdout.text.lastIndexOf('\u001b[G')));
      expect(text).toMatch(/↓ autoReply\.\w+: not started: the run was interrupted/);
      expect(text).not.toContain('✖');
      // The summary counts them; --verbose lists them.
      const summary = stripAnsi(stderr.text);
      expect(summary).toMatch(/BR\.demo000001: \d+ done, \d+ in flight, \d+ never started \(--verbose lists them\)/);
      expect(summary).not.toContain('never started:');
      expect(summary).toMatch(/Apply stopped early \(interrupt\): \d+ of 16 steps never started\./);
    } finally {
      await slow.close();
    }
  });
});
