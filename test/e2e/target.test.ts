// --target on plan, apply and drift: only the targeted resources and what they
// depend on, with Terraform's warning; apply --target changes nothing else;
// an address that names nothing is refused with the closest one.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-target-'));
beforeAll(async () => {
  emu = await emulator();
  mkdirSync(join(dir, 'images'));
  copyFileSync(join(EXAMPLE, 'images', 'hero.png'), join(dir, 'images', 'hero.png'));
  writeFileSync(
    join(dir, 'brand.yaml'),
    [
      'apiVersion: rcsctl/v1',
      'kind: Brand',
      'brand: { id: BR.demo000001 }',
      'files:',
      '  hero: { path: images/hero.png }',
      'autoReplies:',
      '  plain: { name: Plain, messagebaseId: SCS00000, body: { description: "Just text" } }',
      '  card: { name: Card, messagebaseId: SCwThM00, body: { title: Card, description: "With a picture", media: { file: hero } } }',
      '  other: { name: Other, messagebaseId: SCS00000, body: { description: "Not targeted" } }',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--target', () => {
  it('plan: the target and its image upload, nothing else, with the warning', async () => {
    const r = await cli(['plan', dir, '--target', 'autoReply.card'], { emu });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: resource targeting is in effect.');
    expect(r.stdout).toMatch(/\+ file\.hero-[0-9a-f]{12}\.png/);
    expect(r.stdout).toContain('+ autoReply.card "Card"');
    expect(r.stdout).not.toContain('autoReply.plain');
    expect(r.stdout).not.toContain('autoReply.other');
    expect(r.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete');
  });

  it('apply: changes only the targets; a plan afterwards shows the rest', async () => {
    const r = await cli(['apply', dir, '--target', 'autoReply.card', '--target', 'autoReply.plain', '--yes'], { emu });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: resource targeting is in effect.');
    const names = [...(emu.store.brands.get('BR.demo000001')?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName).sort();
    expect(names).toEqual(['Card', 'Plain']);
    const rest = await cli(['plan', dir], { emu });
    expect(rest.stdout).toContain('+ autoReply.other "Other"');
    expect(rest.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete');
  });

  it('drift: reports only the targeted resources', async () => {
    const r = await cli(['drift', dir, '--target', 'autoReply.other', '--format', 'json'], { emu });
    const report = JSON.parse(r.stdout) as { brands: { resources: { address: string }[] }[] };
    expect(report.brands[0]?.resources.map((x) => x.address)).toEqual(['autoReply.other']);
    expect(r.code).toBe(2);
    const all = await cli(['drift', dir, '--target', 'autoReply.*', '--format', 'json'], { emu });
    expect((JSON.parse(all.stdout) as typeof report).brands[0]?.resources.map((x) => x.address).sort()).toEqual(['autoReply.card', 'autoReply.other', 'autoReply.plain']);
  });

  it('refuses an address that names nothing, and --target with a saved plan', async () => {
    const r = await cli(['plan', dir, '--target', 'autoReply.crad'], { emu });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--target autoReply.crad names no resource of the manifests or the live brand (did you mean autoReply.card?)');
    const saved = await cli(['apply', '--plan', join(dir, 'x.json'), '--target', 'autoReply.card'], { emu });
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('--target works on manifests, not with --plan');
  });
});
