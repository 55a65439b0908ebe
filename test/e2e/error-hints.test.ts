// Service errors people meet most come with what to do next, and never with a secret.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { cli, emulator, EXAMPLE, ROOT } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-hints-'));
  cpSync(EXAMPLE, dir, { recursive: true });
  const yaml = join(dir, 'brand.yaml');
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('  id: BR.demo000001\n', '  id: BR.demo000001\n  key: "${env:BRAND_KEY}"\n'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('error hints', () => {
  it('says what to do about an unknown token, once, without printing it', async () => {
    const r = await cli(['plan', dir], { emu, env: { RCSCTL_TOKEN: 'not-a-real-token-42', BRAND_KEY: 'BK.demo0000000001' } });
    expect(r.code).toBe(1);
    const times = (text: string): number => (r.stdout + r.stderr).split(text).length - 1;
    expect(times('401 61003 Invalid token')).toBe(1);
    expect(times('hint: the service did not accept the token (it does not know it, or none reached it): check RCSCTL_TOKEN')).toBe(1);
    // The text plan says it; with one brand there are no others to count.
    expect(r.stdout).toContain('401 61003 Invalid token');
    expect(r.stderr).toBe('');
    expect(r.stdout + r.stderr).not.toContain('not-a-real-token-42');
    // Where stdout is not for people (--format json), stderr says it, once.
    const json = await cli(['plan', dir, '--json'], { emu, env: { RCSCTL_TOKEN: 'not-a-real-token-42', BRAND_KEY: 'BK.demo0000000001' } });
    expect(json.stderr.split('401 61003 Invalid token')).toHaveLength(2);
    expect(json.stderr).not.toContain('brand failed');
  });

  it('says a brand that could not be planned once in apply too, and still ends on the failure', async () => {
    const r = await cli(['apply', dir, '--yes'], { emu, env: { RCSCTL_TOKEN: 'not-a-real-token-42', BRAND_KEY: 'BK.demo0000000001' } });
    expect(r.code).toBe(1);
    expect((r.stdout + r.stderr).split('401 61003 Invalid token')).toHaveLength(2);
    expect(r.stdout).toContain('401 61003 Invalid token');
    expect(r.stderr).not.toContain('Error: BR.demo000001');
    // The verdict still reads as a failure on both streams.
    expect(r.stdout).toContain('Apply failed for 1 of 1 brand');
    expect(r.stderr).toContain('Apply failed: 0 steps failed');
  });

  it('on 63001, checks the account\'s brand list: a mistyped id is named as such, with the close id', async () => {
    const typo = mkdtempSync(join(tmpdir(), 'rcsctl-hints-typo-'));
    try {
      cpSync(EXAMPLE, typo, { recursive: true });
      const yaml = join(typo, 'brand.yaml');
      writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('  id: BR.demo000001\n', '  id: BR.dem0000001\n'));
      const r = await cli(['plan', typo], { emu, env: { RCSCTL_PERSON_ID: 'master' } });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('403 63001 No Brand Permission');
      expect(r.stdout).toContain('hint: no such brand for this account: check the id (did you mean BR.demo000001?); account master sees no brand BR.dem0000001 (its brands: BR.demo000001)');
      expect(r.stdout).not.toContain('this account holds no brand role on the brand: ask the brand representative to grant one');
      // drift and apply read the same way.
      expect((await cli(['drift', typo], { emu, env: { RCSCTL_PERSON_ID: 'master' } })).stdout).toContain('no such brand for this account: check the id (did you mean BR.demo000001?)');
      expect((await cli(['apply', typo, '--yes'], { emu, env: { RCSCTL_PERSON_ID: 'master' } })).stdout).toContain('no such brand for this account: check the id (did you mean BR.demo000001?)');
      // Without the account's id the list cannot be read: the hint says how to let rcsctl check.
      const bare = await cli(['plan', typo], { emu });
      expect(bare.stdout).toContain('if the brand id may be mistyped, set RCSCTL_PERSON_ID to the account\'s id and rcsctl checks it against the account\'s brand list');
    } finally {
      rmSync(typo, { recursive: true, force: true });
    }
  });

  it('a 404 before anything was answered points at the base URL and its version path', async () => {
    // Its own emulator, outside the contract recorder: these requests go to routes the service does not have.
    const own = await startEmulator({ port: 0, seed: join(ROOT, 'examples', 'emulator-seed.yaml') });
    try {
      const base = `${own.url}/api/1.1`;
      const env = { RCSCTL_BASE_URL: base, RCSCTL_TOKEN: 'emulator-master-token', BRAND_KEY: 'BK.demo0000000001' };
      const r = await cli(['plan', dir], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('404 60404 Not Found');
      expect(r.stdout).toContain('hint: the service has no such route: check the base URL (--base-url or RCSCTL_BASE_URL) (it ends in /api/1.1, and rcsctl adds the version path itself: requests went to /api/1.1/');
      expect(r.stdout).toContain('give it without the version path, e.g. https://host, not https://host/api/1.1');
      // The token request is the first one when rcsctl fetches its own token.
      const token = await cli(['plan', dir], { env: { ...env, RCSCTL_TOKEN: undefined, RCSCTL_CLIENT_ID: 'emulator-agency', RCSCTL_CLIENT_SECRET: 'emulator-secret' } });
      expect(token.code).toBe(1);
      expect(token.stdout + token.stderr).toContain('requests went to /api/1.1/api/1.1/token)');
      expect(token.stdout + token.stderr).not.toContain('emulator-secret');
      // A 404 once the service has answered is about the resource, not the address: no such hint.
      const right = await cli(['plan', dir], { env: { ...env, RCSCTL_BASE_URL: own.url } });
      expect(right.stdout + right.stderr).not.toContain('no such route');
    } finally {
      await own.close();
    }
  });

  it('says where the brand key comes from when it is wrong', async () => {
    const r = await cli(['plan', dir], { emu, env: { RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.wrong000000000' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('64002 Invalid Brand Key');
    expect(r.stdout).toContain('hint: the brand key does not match the brand: check `brand.key` in the manifest');
    expect(r.stdout + r.stderr).not.toContain('BK.wrong000000000');
  });

  it('plans with the agency account when the key is right', async () => {
    const r = await cli(['plan', dir], { emu, env: { RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.demo0000000001' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 11 to create');
  });
});

describe('connection errors', () => {
  it('name the host and port that refused, through the CLI', async () => {
    const r = await cli(['plan', 'examples/brand'], { env: { RCSCTL_BASE_URL: 'http://127.0.0.1:9', RCSCTL_TOKEN: 'x' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed: connection refused at 127\.0\.0\.1:9 \(after \d+ attempts\)/);
  });
});
