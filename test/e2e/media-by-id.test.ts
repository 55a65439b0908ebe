// A body media that names a registered file by id (docs/manifest.md allows it)
// converges: apply verifies it, and the next plan is empty. Before the fix,
// the plan compared a file name with an id and showed the same change forever.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '045-media-named-by-file-id');
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterAll(() => emu.close());

it('applies a media file id, verifies it, and plans nothing afterwards', async () => {
  const manifest = join(CASE, 'manifest.yaml');
  const apply = await cli(['apply', manifest, '--yes'], { emu });
  expect(apply.stderr).toBe('');
  expect(apply.stdout).toContain('✓ autoReply.other: updated');
  expect(apply.stdout).not.toContain('not as planned');
  expect(apply.code).toBe(0);
  const stored = [...(emu.store.brands.get('BR.demo000001')?.autoReplies.values() ?? [])].find((a) => a.autoReplyMsgName === 'Beans');
  expect(stored?.body.media).toBe('ARF-BEANS');
  const again = await cli(['plan', manifest, '--detailed-exitcode'], { emu });
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
});

it('a media id the service does not know is planned as written, and the service refuses it naming the auto-reply', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rcsctl-media-id-'));
  try {
    const manifest = join(dir, 'brand.yaml');
    writeFileSync(
      manifest,
      ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand: { id: BR.demo000001 }', 'autoReplies:', '  other: { name: Beans, messagebaseId: SCwThM00, body: { title: Beans, description: "Fresh", media: ARF-NOPE } }', ''].join('\n'),
    );
    const plan = await cli(['plan', manifest], { emu });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('~ body.media: "beans-ba9876543210.png" → "ARF-NOPE"');
    const apply = await cli(['apply', manifest, '--yes'], { emu });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toMatch(/autoReply\.other: failed: .*Beans/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
