// The service's common messagebase list (read when the manifests declare
// auto-replies, to check their messagebaseId) goes out with the brand's lists,
// not a round trip after the templates were read: with the live cache filled,
// a plan's reads are then one round of lists. Proven by the order of the
// emulator's request log, as test/e2e/read-overlap.test.ts does: no clock.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { admin, cli, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '062-template-change-on-approved-needs-review');

let emu: RunningEmulator;
let dir: string;
let manifest: string;
beforeAll(async () => {
  emu = await startEmulator({ seed: join(CASE, 'seed.yaml'), port: 0, latencyMs: 20 });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-common-early-'));
  manifest = join(dir, 'manifest.yaml');
  const autoReply = 'autoReplies:\n  hello:\n    name: Hello\n    messagebaseId: SCS00000\n    body: { description: "Hello" }\n';
  writeFileSync(manifest, `${readFileSync(join(CASE, 'manifest.yaml'), 'utf8')}${autoReply}`);
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the common messagebase list', () => {
  it('is asked for before any template detail, with the lists', async () => {
    await admin(emu, 'DELETE', 'requests');
    const run = await cli(['plan', manifest], { emu });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const log = ((await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] }).requests.filter((r) => r.method === 'GET').map((r) => r.path);
    const common = log.indexOf('/api/1.1/messagebase/common');
    const templateList = log.findIndex((p) => /^\/api\/1\.1\/brand\/[^/]+\/messagebase$/.test(p));
    const firstDetail = log.findIndex((p) => /^\/api\/1\.1\/brand\/[^/]+\/messagebase\/[^/]+$/.test(p));
    expect(templateList).toBeGreaterThanOrEqual(0);
    expect(firstDetail).toBeGreaterThan(templateList);
    expect(common).toBeGreaterThanOrEqual(0);
    expect(common).toBeLessThan(firstDetail);
  });
});
