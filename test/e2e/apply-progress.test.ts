// How a long apply shows itself: on a terminal the task list keeps plan order
// (ar2 before ar10) and, on a long run, collapses finished steps into a counter
// line so the list stays bounded; without a terminal, counter lines come now
// and then, in the apply and in the reads, with no cursor controls.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { stripAnsi } from '../../src/render/style.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator, TOKEN } from './helpers.js';

class FakeTerminal extends Writable {
  isTTY = true;
  text = '';
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-apply-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A manifest of `n` auto-replies ar0 … ar(n-1), listed in a shuffled order. */
function manyAutoReplies(n: number): string {
  const handles = Array.from({ length: n }, (_, i) => `ar${i}`).sort();
  const path = join(dir, `many-${n}.yaml`);
  const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', `brand: { id: ${BRAND} }`, 'autoReplies:'];
  for (const h of handles) lines.push(`  ${h}: { name: "Reply ${h}", messagebaseId: SCS00000, body: { description: "Answer ${h}" } }`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** The last frame log-update drew (after its last cursor-to-column-1), without colours. */
function lastFrame(text: string): string {
  return stripAnsi(text.slice(text.lastIndexOf('\u001b[G')));
}

/** Every frame the task list drew, as lists of lines. */
function frames(text: string): string[][] {
  return text
    .split('\u001b[G')
    .slice(1)
    .map((f) => stripAnsi(f).split('\n').filter((l) => l.trim() !== ''));
}

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await emulator();
});
afterEach(async () => {
  await emu.close();
});

describe('apply on a terminal', () => {
  it('lists the steps in plan order: ar2 before ar10', async () => {
    const stdout = new FakeTerminal(160, 100);
    const code = await main(['apply', manyAutoReplies(12), '--yes'], { stdout, stderr: new FakeTerminal(160, 100), env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN }, cwd: dir });
    expect(code).toBe(0);
    const order = [...lastFrame(stdout.text).matchAll(/autoReply\.(ar\d+): created/g)].map((m) => m[1]);
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => `ar${i}`));
  });

  it('collapses finished steps into a counter line on a long run: the list stays bounded', async () => {
    const stdout = new FakeTerminal(120, 24);
    const code = await main(['apply', manyAutoReplies(60), '--yes', '--concurrency', '4'], { stdout, stderr: new FakeTerminal(120, 24), env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN }, cwd: dir });
    expect(code).toBe(0);
    const last = lastFrame(stdout.text);
    expect(last).toContain('60/60 steps finished (60 done)');
    expect(last).not.toMatch(/autoReply\.ar\d+: created/);
    // Every frame: the counter, at most 4 running steps (each with its output line), a few failures; never the 60 steps.
    const drawn = frames(stdout.text);
    expect(drawn.length).toBeGreaterThan(0);
    const big = drawn.find((f) => f.length > 1 + 2 * 4 + 5);
    expect(big, big?.join("\n")).toBeUndefined();
    expect(stdout.text).toContain('BR.demo000001: 60 done, 0 failed');
  });

  it('on a collapsed list with many failures, every failed step is named after the list', async () => {
    // Every other create, by the emulator's seeded draw, answers 400.
    await admin(emu, 'POST', 'faults', { seed: 7, rules: [{ kind: 'error', rate: 0.5, status: 400, method: 'POST', path: '/autoreplymsg' }] });
    const stdout = new FakeTerminal(120, 24);
    const code = await main(['apply', manyAutoReplies(30), '--yes', '--concurrency', '3'], { stdout, stderr: new FakeTerminal(120, 24), env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN }, cwd: dir });
    expect(code).toBe(1);
    const text = stripAnsi(stdout.text);
    const failed = Number(/BR\.demo000001: failed: (\d+) steps failed; \d+ done/.exec(text)?.[1]);
    expect(failed).toBeGreaterThan(3);
    const listed = text.slice(text.indexOf(`Failed steps (${failed}):`)).split('\n').filter((l) => /^✗ autoReply\.ar\d+: failed: create auto-reply/.test(l));
    expect(listed).toHaveLength(failed);
    // While it ran (every frame but the last, which runs on into the lines after the list), the list never
    // held more than the counter (2 lines), 3 running (2 each) and 3 failures (3 each, wrapped).
    const big = frames(stdout.text).slice(0, -1).find((f) => f.length > 2 + 2 * 3 + 3 * 3);
    expect(big, big?.join('\n')).toBeUndefined();
  });
});

describe('apply without a terminal', () => {
  it('prints counter lines now and then on a long run, and in the reads, with no cursor controls', async () => {
    const path = manyAutoReplies(120);
    const t0 = Date.now();
    const applied = await cli(['apply', path, '--yes'], { emu, cwd: dir });
    const elapsedMs = Date.now() - t0;
    expect(applied.code, applied.stderr).toBe(0);
    const counters = applied.stdout.split('\n').filter((l) => l.startsWith('… applied '));
    // One line per tenth of the run, and one more for each 10 s it took: the allowance grows with a slow machine.
    expect(counters.length).toBeGreaterThanOrEqual(10);
    expect(counters.length).toBeLessThanOrEqual(10 + Math.floor(elapsedMs / 10_000));
    expect(counters).toContain('… applied 12/120 steps finished (12 done)');
    expect(counters.at(-1)).toBe('… applied 120/120 steps finished (120 done)');
    // A step line for every step still.
    expect(applied.stdout.match(/^✓ autoReply\.ar\d+: created/gm)).toHaveLength(120);
    expect(applied.stdout + applied.stderr).not.toMatch(/\u001b/);

    // Reading 120 auto-replies' details: counter lines on stderr.
    const drift = await cli(['plan', path], { emu, cwd: dir });
    expect(drift.code, drift.stderr).toBe(0);
    const reads = drift.stderr.split('\n').filter((l) => l.startsWith(`Reading ${BRAND}: `));
    expect(reads.length).toBeGreaterThanOrEqual(10);
    expect(reads.at(-1)).toMatch(/^Reading BR\.demo000001: (\d+)\/\1$/);
    expect(drift.stderr).not.toMatch(/\u001b/);
  });

  it('a short run prints no counter lines', async () => {
    const applied = await cli(['apply', manyAutoReplies(5), '--yes'], { emu, cwd: dir });
    expect(applied.code).toBe(0);
    expect(applied.stdout).not.toContain('… applied');
    expect(applied.stderr).not.toContain('Reading');
  });
});
