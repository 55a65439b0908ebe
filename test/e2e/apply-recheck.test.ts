// What the create re-check costs through the CLI, over real HTTP: an apply of
// 100 creates at concurrency 8 reads the auto-reply list a constant number of
// times (the plan's read, the re-check's, verification's), not once per batch
// of creates (docs/concurrency.md, Across machines: detection), and
// verification reads no detail of what it created.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-recheck-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A manifest of `count` new auto-replies for the example brand. */
function manifest(count: number): string {
  const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${BRAND}`, 'autoReplies:'];
  for (let i = 0; i < count; i++) lines.push(`  bulk${i}:`, `    name: "Bulk ${String(i).padStart(3, '0')}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Bulk auto-reply ${i}"`);
  const path = join(dir, 'bulk.yaml');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('apply: the create re-check through the CLI', () => {
  it('creates 100 auto-replies at concurrency 8 with a constant number of list reads, not one per batch', async () => {
    const path = manifest(100);
    // The detail reads of a plan alone: verification adds none (the list vouches for fresh creates).
    await admin(emu, 'DELETE', 'requests');
    expect((await cli(['plan', '--no-cache', path], { emu })).code).toBe(0);
    const planned = ((await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] }).requests;
    await admin(emu, 'DELETE', 'requests');
    const run = await cli(['apply', '--yes', '--no-cache', '--concurrency', '8', path], { emu });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('100 done, 0 failed');
    const log = ((await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] }).requests;
    const creates = log.filter((r) => r.method === 'POST' && /\/autoreplymsg$/.test(r.path)).length;
    const lists = log.filter((r) => r.method === 'GET' && /\/autoreplymsg$/.test(r.path)).length;
    expect(creates).toBe(100);
    const details = (l: { method: string; path: string }[]) => l.filter((r) => r.method === 'GET' && /\/autoreplymsg\/ARM/.test(r.path)).length;
    expect(details(log)).toBe(details(planned));
    // The plan's read, the re-check's first read, verification's; one more when the
    // run outlasts half the re-check window (a read started in the background).
    // Re-checking per batch of 8 read it 13 times more.
    expect(lists).toBeGreaterThanOrEqual(3);
    expect(lists).toBeLessThanOrEqual(4);
  });
});
