// A service error against one brand (403, 401, 5xx) names the manifest file and
// line that declare the brand, in plan, drift and apply, in text and JSON:
// `brands/acme/brand.yaml:4: list logos of BR.acme000001 failed: 403 63001 …`.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-brand-error-'));
let emu: RunningEmulator;

/** A brand document whose `brand:` is on line 4 of `brands/<name>/brand.yaml`. */
function brand(name: string, brandId: string): void {
  mkdirSync(join(dir, 'brands', name), { recursive: true });
  writeFileSync(
    join(dir, 'brands', name, 'brand.yaml'),
    `# ${name}\napiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${brandId} }\nautoReplies:\n  a: { name: A ${name}, messagebaseId: SCS00000, body: { description: x } }\n`,
  );
}

beforeAll(async () => {
  emu = await emulator();
  // The example seed knows BR.demo000001 only: BR.acme000001 answers 403 63001.
  brand('acme', 'BR.acme000001');
  brand('demo', BRAND);
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const ACME_403 = 'brands/acme/brand.yaml:4: list logos of BR.acme000001 failed: 403 63001 No Brand Permission';

describe('a refused brand names its manifest line', () => {
  it('plan: text and JSON', async () => {
    const text = await cli(['plan', 'brands'], { emu, cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`error[E_API] ${ACME_403}`);
    // The other brand is planned in full.
    expect(text.stdout).toContain('autoReply.a "A demo"  will be created');
    const json = await cli(['plan', 'brands', '--json'], { emu, cwd: dir });
    const acme = (JSON.parse(json.stdout) as { brands: { brandId: string; error?: Record<string, unknown> }[] }).brands.find((b) => b.brandId === 'BR.acme000001');
    expect(acme?.error).toMatchObject({ code: 'E_API', httpStatus: 403, serviceCode: '63001', file: 'brands/acme/brand.yaml', line: 4, message: ACME_403 });
  });

  it('drift: text and JSON', async () => {
    const text = await cli(['drift', 'brands'], { emu, cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(ACME_403);
    const json = await cli(['drift', 'brands', '--format', 'json'], { emu, cwd: dir });
    expect(json.stdout).toContain(`"file": "brands/acme/brand.yaml"`);
    expect(json.stdout).toContain(`"line": 4`);
  });

  it('apply: the refused brand names its line, the other is applied', async () => {
    const r = await cli(['apply', 'brands', '--yes'], { emu, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(ACME_403);
    expect(r.stdout).toMatch(/✓ autoReply\.a: created/);
  });

  it('apply of a saved plan names it too: the plan file keeps where the brand is declared', async () => {
    // A plan with a step to apply: an auto-reply the brand does not have yet.
    brand('later', BRAND);
    const saved = join(dir, 'later-plan.json');
    expect((await cli(['plan', 'brands/later', '-o', saved], { emu, cwd: dir })).code).toBe(0);
    const file = JSON.parse(readFileSync(saved, 'utf8')) as { brands: { declaredAt?: unknown; steps: unknown[] }[] };
    expect(file.brands[0]?.steps).toHaveLength(1);
    expect(file.brands[0]?.declaredAt).toEqual({ file: 'brands/later/brand.yaml', line: 4 });
    // The account is refused when apply re-reads the brand.
    const r = await cli(['apply', '--plan', saved], { emu, cwd: dir, env: { RCSCTL_TOKEN: 'not-a-token' } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/brands\/later\/brand\.yaml:4: .* failed: 401 61003 Invalid token/);
  });

  it('a 5xx and a 401 name it too', async () => {
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'error', rate: 1, status: 500, method: 'GET', path: `/brand/${BRAND.replace('.', '\\.')}/logo` }] });
    try {
      const r = await cli(['plan', 'brands/demo'], { emu, cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/brands\/demo\/brand\.yaml:4: .*BR\.demo000001.* failed: 500 69999 Internal error/);
    } finally {
      await admin(emu, 'DELETE', 'faults');
    }
    const bad = await cli(['plan', 'brands/demo'], { emu, cwd: dir, env: { RCSCTL_TOKEN: 'not-a-token' } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/brands\/demo\/brand\.yaml:4: .* failed: 401 61003 Invalid token/);
  });
});
