// One image in the repository, used by three brands from their own folders
// (`path: ../../common/footer.png`): validate passes, apply uploads it once per
// brand (uploads are content-addressed per brand), and a second plan is empty.
// A path or symlink out of the repository is refused; --root names the bound.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, EXAMPLE } from './helpers.js';

const top = mkdtempSync(join(tmpdir(), 'rcsctl-shared-'));
const repo = join(top, 'repo');
const BRANDS = ['BR.share00001', 'BR.share00002', 'BR.share00003'];

function brandDoc(id: string, path: string): string {
  return [
    'apiVersion: rcsctl/v1',
    'kind: Brand',
    `brand: { id: ${id} }`,
    'files:',
    `  footer: { path: ${path} }`,
    'autoReplies:',
    '  hours: { name: Hours, messagebaseId: SCwThM00, body: { title: Hours, description: "9-18", media: { file: footer } } }',
    '',
  ].join('\n');
}

let emu: RunningEmulator;
beforeAll(async () => {
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'common'));
  copyFileSync(join(EXAMPLE, 'images', 'hero.png'), join(repo, 'common', 'footer.png'));
  BRANDS.forEach((id, i) => {
    mkdirSync(join(repo, 'brands', `b${i + 1}`), { recursive: true });
    writeFileSync(join(repo, 'brands', `b${i + 1}`, 'brand.yaml'), brandDoc(id, '../../common/footer.png'));
  });
  const seed = join(top, 'seed.yaml');
  writeFileSync(
    seed,
    [
      'accounts:',
      '  - userId: master',
      '    role: master',
      '    token: emulator-master-token',
      '    brands:',
      ...BRANDS.map((id) => `      - { brandId: ${id}, role: representative }`),
      'brands:',
      ...BRANDS.map((id, i) => `  - { brandId: ${id}, brandKey: BK.share000000${i + 1} }`),
      '',
    ].join('\n'),
  );
  emu = await emulator(seed);
});
afterAll(async () => {
  await emu?.close();
  rmSync(top, { recursive: true, force: true });
});

describe('a shared image inside the repository', () => {
  it('validates, uploads once per brand in the sandbox, and plans nothing after apply', async () => {
    const validate = await cli(['validate', 'repo/brands'], { cwd: top });
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);

    const sandbox = await cli(['--sandbox', 'apply', 'repo/brands', '--yes'], { cwd: top, env: {} });
    expect(sandbox.code).toBe(0);
    const uploads = sandbox.stdout.match(/✓ file\.footer-[0-9a-f]{12}\.png: uploaded/g) ?? [];
    expect(uploads).toHaveLength(3);

    const apply = await cli(['apply', 'repo/brands', '--yes'], { cwd: top, emu });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout.match(/: uploaded/g)).toHaveLength(3);
    const again = await cli(['plan', 'repo/brands', '--detailed-exitcode'], { cwd: top, emu });
    expect(again.stdout.match(/No changes/g)).toHaveLength(3);
    expect(again.code).toBe(0);
  });

  it('refuses a path out of the repository and a symlink inside it that leads out', async () => {
    copyFileSync(join(EXAMPLE, 'images', 'hero.png'), join(top, 'outside.png'));
    symlinkSync(join(top, 'outside.png'), join(repo, 'common', 'escape.png'));
    const bad = join(repo, 'bad');
    mkdirSync(join(bad, 'up'), { recursive: true });
    mkdirSync(join(bad, 'link'), { recursive: true });
    writeFileSync(join(bad, 'up', 'brand.yaml'), brandDoc('BR.share00004', '../../../outside.png'));
    writeFileSync(join(bad, 'link', 'brand.yaml'), brandDoc('BR.share00005', '../../common/escape.png'));
    const run = await cli(['validate', 'repo/bad'], { cwd: top });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/repo\/bad\/link\/brand\.yaml:5:19.*RCS302/);
    expect(run.stdout + run.stderr).toMatch(/repo\/bad\/up\/brand\.yaml:5:19.*RCS301/);
    rmSync(bad, { recursive: true, force: true });
  });

  it('takes --root and RCSCTL_ROOT as the bound: narrower than the repository, or a folder with no .git', async () => {
    const narrow = await cli(['--root', 'repo/brands', 'validate', 'repo/brands'], { cwd: top });
    expect(narrow.code).toBe(1);
    expect(narrow.stdout + narrow.stderr).toContain('RCS301');
    const byEnv = await cli(['validate', 'repo/brands'], { cwd: top, env: { RCSCTL_ROOT: join(repo, 'brands') } });
    expect(byEnv.code).toBe(1);
    expect(byEnv.stdout + byEnv.stderr).toContain('RCS301');
    // Without .git, the manifest's folder is the bound, unless --root names a wider one.
    rmSync(join(repo, '.git'), { recursive: true });
    try {
      expect((await cli(['validate', 'repo/brands'], { cwd: top })).code).toBe(1);
      const wide = await cli(['--root', 'repo', 'validate', 'repo/brands'], { cwd: top });
      expect(wide.stdout + wide.stderr).not.toContain('RCS30');
      expect(wide.code).toBe(0);
    } finally {
      mkdirSync(join(repo, '.git'));
    }
  });
});
