// --sandbox and `rcsctl emulator --brands-from`: the brands the manifests
// declare are seeded with a master account, the manifest's brand key is the
// sandbox brand's key, and a 403 in the sandbox explains the seed.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifest(brand: string, extra = ''): string {
  return [
    'apiVersion: rcsctl/v1',
    'kind: Brand',
    `brand: { id: ${brand}${extra} }`,
    'autoReplies:',
    '  hello: { name: Hello, messagebaseId: SCS00000, body: { description: "Hi" } }',
    '',
  ].join('\n');
}

describe('--sandbox with brands the seed does not know', () => {
  it('plans and applies two new brands in one run, one of them with a brand key from the environment', async () => {
    writeFileSync(join(dir, 'a.yaml'), manifest('BR.sandboxA01'));
    writeFileSync(join(dir, 'b.yaml'), manifest('BR.sandboxB01', ', key: "${env:B_KEY}"'));
    const env = { B_KEY: 'BK.b-key-from-env1' };
    const plan = await cli(['--sandbox', 'plan', 'a.yaml', 'b.yaml'], { cwd: dir, env });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    // The two brands make the same step: shown once, for both (issue 37).
    expect(plan.stdout).toContain('The same change in 2 brands:\n  BR.sandboxA01\n  BR.sandboxB01\n');
    expect(plan.stdout).toContain('Plan, in each of the 2 brands: 1 to create');
    expect(plan.stdout).toContain('Total for 2 brands: 2 to create');
    const apply = await cli(['--sandbox', 'apply', 'a.yaml', 'b.yaml', '--yes'], { cwd: dir, env });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('the live service matches');
  });

  it('explains the seed when the sandbox refuses a brand (403 63001)', async () => {
    // A seed that knows the brand but gives the master account no role on it.
    writeFileSync(
      join(dir, 'seed.yaml'),
      [
        'accounts:',
        '  - { userId: boss, role: master, token: boss-token, brands: [] }',
        'brands:',
        '  - { brandId: BR.sandboxC01, brandKey: BK.c0000000000001 }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'c.yaml'), manifest('BR.sandboxC01'));
    const run = await cli(['--sandbox', '--seed', 'seed.yaml', 'plan', 'c.yaml'], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    // The text plan says the failed brand's error and hint, once, on stdout.
    expect(run.stdout).toContain('63001');
    expect(run.stdout).toContain('hint: the sandbox knows the brands of its seed');
    // Outside the sandbox the same code keeps the service hint.
    expect(run.stdout + run.stderr).not.toContain('ask the brand representative');
  });
});

describe('rcsctl emulator --brands-from', () => {
  it('seeds the brands the manifests declare and says which, with the master token', async () => {
    writeFileSync(join(dir, 'd.yaml'), manifest('BR.sandboxD01'));
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        out += chunk.toString();
        cb();
      },
    });
    const ac = new AbortController();
    const run = main(['emulator', '--brands-from', 'd.yaml'], { stdout: sink, stderr: new Writable({ write: (_c, _e, cb) => cb() }), env: {}, cwd: dir, signal: ac.signal });
    for (let i = 0; i < 200 && !out.includes('seeded'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /^listening on (\S+)$/m.exec(out)?.[1];
    expect(out).toContain('seeded from the manifests: BR.sandboxD01; master account token: emulator-master-token');
    const plan = await cli(['plan', 'd.yaml'], { cwd: dir, env: { RCSCTL_BASE_URL: url, RCSCTL_TOKEN: 'emulator-master-token' } });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 1 to create');
    ac.abort();
    expect(await run).toBe(0);
  });
});
