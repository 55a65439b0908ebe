// docs/getting-started.md, "Your own brand, in the sandbox": its commands run
// exactly as written, in a fresh directory, through the built CLI, with
// credentials for another service in the environment (which the sandbox must
// ignore, and say so).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-getting-started-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first ```sh block after `heading` in docs/getting-started.md. */
function shBlockAfter(heading: string): string {
  const doc = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');
  const at = doc.indexOf(heading);
  expect(at).toBeGreaterThan(-1);
  const m = /```sh\n([\s\S]*?)```/.exec(doc.slice(at));
  if (m === null) throw new Error(`no sh block after ${heading}`);
  return m[1] as string;
}

describe('getting started: your own brand', () => {
  it('runs as written, and the sandbox plans and applies a brand it was never seeded with', () => {
    const block = shBlockAfter('## 5. Your own brand, in the sandbox');
    const script = join(dir, 'steps.sh');
    // `rcsctl` is the built CLI of this checkout, as `npm install` makes it.
    writeFileSync(script, `set -euo pipefail\nrcsctl() { node ${JSON.stringify(join(ROOT, 'bin', 'rcsctl.js'))} "$@"; }\n${block}`);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      NO_COLOR: '1',
      RCSCTL_TOKEN: 'real-service-token-must-not-be-used',
      RCSCTL_BASE_URL: 'https://rcs.example.invalid',
    };
    const out = execFileSync('bash', [script], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('BR.mybrand001: valid (0 auto-reply files, 1 auto-reply,');
    expect(out).toContain('Plan: 1 to create, 0 to update, 0 to delete');
    expect(out).toMatch(/✓ autoReply\.hello: created/);
    expect(out).toContain('the live service matches');
  });

  it('names the ignored settings on stderr, never their values', () => {
    const bin = join(ROOT, 'bin', 'rcsctl.js');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', RCSCTL_TOKEN: 'tok-SECRET-123', RCSCTL_BASE_URL: 'https://rcs.example.invalid' };
    const res = execFileSync('bash', ['-c', `node ${JSON.stringify(bin)} --sandbox plan my-brand 2>&1`], { cwd: dir, env, encoding: 'utf8' });
    expect(res).toContain('note: --sandbox ignores RCSCTL_TOKEN, RCSCTL_BASE_URL');
    expect(res).not.toContain('tok-SECRET-123');
    expect(res).not.toContain('rcs.example.invalid');
  });
});
