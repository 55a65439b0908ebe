// docs/getting-started.md has the user keep what rcsctl writes into the
// working directory out of git: its .gitignore block, run as written in a
// fresh repository, ignores the preview/ that `plan --preview` writes there.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, EXAMPLE, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-gitignore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('getting started: .gitignore', () => {
  it('ignores the preview/ that plan --preview writes into the working directory', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');
    const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes('.gitignore'));
    expect(block, 'a sh block of docs/getting-started.md writes .gitignore').toBeDefined();
    const env = { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q'], { cwd: dir, env });
    execFileSync('bash', ['-euo', 'pipefail', '-c', block as string], { cwd: dir, env });

    const run = await cli(['--sandbox', 'plan', EXAMPLE, '--preview'], { cwd: dir, env: {} });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('keep it out of git: add preview/ to .gitignore');
    expect(existsSync(join(dir, 'preview', 'index.html'))).toBe(true);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, env, encoding: 'utf8' });
    expect(status.split('\n').filter((l) => l.includes('preview/'))).toEqual([]);
    expect(status).toContain('.gitignore');
  });
});
