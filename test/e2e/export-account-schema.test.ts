// `rcsctl export` reads no manifest, so it takes the brand profile's account
// as a flag (--account), and the manifest it writes points its `$schema` at
// something that still resolves once committed elsewhere: the rcsctl package
// installed in the repository it lands in, else the schema's published address
// (docs/decisions.md, "The exported manifest's $schema").

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-export-account-'));
// A brand page as the service keeps one: with its profile image (a page without one is left out of an export).
let withPage: RunningEmulator | undefined;
afterAll(async () => {
  await withPage?.close();
  rmSync(tmp, { recursive: true, force: true });
});
const pageEmulator = async (): Promise<RunningEmulator> => (withPage ??= await emulator(join(ROOT, 'test', 'plan-cases', '072-profile-reviewed-field', 'seed.yaml')));
// The kinds read as the run's RCSCTL_PERSON_ID (main's io.env), never the process's: none in either here.
beforeEach(() => {
  delete process.env.RCSCTL_PERSON_ID;
});

const schemaLine = (dir: string): string => readFileSync(join(dir, 'brand.yaml'), 'utf8').split('\n')[0] as string;

describe('rcsctl export --account', () => {
  it('reads and writes the brand profile as the account given, with no environment variable', async () => {
    const out = join(tmp, 'with-account');
    const run = await cli(['export', '--brand', BRAND, '--account', 'master', '--out', out], { emu: await pageEmulator() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(', 1 brand profile, 1 privilege\n');
    expect(parse(readFileSync(join(out, 'brand.yaml'), 'utf8')).brandProfile).toMatchObject({ account: 'master' });
  });

  it('without one, says how to give it: --account or RCSCTL_PERSON_ID, not a manifest field export never reads', async () => {
    const out = join(tmp, 'without');
    const run = await cli(['--sandbox', 'export', '--brand', BRAND, '--out', out], { env: {} });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('brand profile not read');
    expect(run.stdout).toContain('no account to read the brand page as: pass --account ID or set RCSCTL_PERSON_ID');
    expect(run.stdout).not.toContain('brandProfile.account');
    // RCSCTL_PERSON_ID from the run's environment does the same as --account.
    const fromEnv = await cli(['export', '--brand', BRAND, '--out', join(tmp, 'from-env')], { emu: await pageEmulator(), env: { RCSCTL_PERSON_ID: 'master' } });
    expect(fromEnv.stdout).toContain(', 1 brand profile, 1 privilege\n');
  });

  it('refuses --account when adopting one resource (the manifest names its account)', async () => {
    const run = await cli(['export', '--resource', 'autoReply.x', '--into', 'brand.yaml', '--account', 'master'], { env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--account are for a whole-brand export');
  });
});

describe('the exported $schema', () => {
  it('points into node_modules/rcsctl of the repository the manifest is written into, by that path', async () => {
    // A user's repository with rcsctl installed, linked as npm link does: the path must go through node_modules, not to the checkout.
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'node_modules'), { recursive: true });
    symlinkSync(ROOT, join(repo, 'node_modules', 'rcsctl'), 'dir');
    const out = join(repo, 'brands', 'coffee');
    const run = await cli(['--sandbox', 'export', '--brand', BRAND, '--out', out], { env: {} });
    expect(run.code, run.stderr).toBe(0);
    expect(schemaLine(out)).toBe('# yaml-language-server: $schema=../../node_modules/rcsctl/schemas/manifest.schema.json');
  });

  it('is the published schema address when no rcsctl is installed above it, never a path to where rcsctl runs from', async () => {
    const out = join(tmp, 'elsewhere', 'coffee');
    const run = await cli(['--sandbox', 'export', '--brand', BRAND, '--out', out], { env: {} });
    expect(run.code, run.stderr).toBe(0);
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'manifest.schema.json'), 'utf8')) as { $id: string };
    expect(schema.$id).toMatch(/^https:\/\//);
    expect(schemaLine(out)).toBe(`# yaml-language-server: $schema=${schema.$id}`);
  });
});
