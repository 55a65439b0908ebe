// The manifest revision read off a checkout without running git: a `.git`
// folder's HEAD (detached, a loose ref, a packed ref), a worktree's `.git`
// file, and git-sync's link whose target folder is named by the commit. Where
// git is installed, the answer is checked against `git rev-parse HEAD` of a
// real repository (a test tool only: rcsctl runs no git).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRevision } from '../../src/controller/revision.js';

const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-revision-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const A = 'a'.repeat(40);
const B = '0123456789abcdef0123456789abcdef01234567';

/** A checkout under `name`: `.git` files as given, and `brands/brand.yaml`. */
function checkout(name: string, git: Record<string, string>): string {
  const root = join(tmp, name);
  for (const [file, text] of Object.entries(git)) {
    mkdirSync(join(root, '.git', file, '..'), { recursive: true });
    writeFileSync(join(root, '.git', file), text);
  }
  mkdirSync(join(root, 'brands'), { recursive: true });
  writeFileSync(join(root, 'brands', 'brand.yaml'), 'brand: {}\n');
  return root;
}

describe('the revision of a checkout', () => {
  it('a detached HEAD is the commit', () => {
    const root = checkout('detached', { HEAD: `${A}\n` });
    expect(readRevision(join(root, 'brands'), tmp)).toEqual({ commit: A, source: 'git' });
    // A file path, and a path relative to the working folder, lead to the same checkout.
    expect(readRevision('detached/brands/brand.yaml', tmp)).toEqual({ commit: A, source: 'git' });
  });

  it('HEAD naming a branch: the loose ref, else the packed one', () => {
    const loose = checkout('loose', { HEAD: 'ref: refs/heads/main\n', 'refs/heads/main': `${B}\n`, 'packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${A} refs/heads/main\n` });
    expect(readRevision(join(loose, 'brands'), tmp)).toEqual({ commit: B, source: 'git', ref: 'refs/heads/main' });
    const packed = checkout('packed', { HEAD: 'ref: refs/heads/release\n', 'packed-refs': `# pack-refs with: peeled\n${B} refs/heads/main\n${A} refs/heads/release\n^${B}\n` });
    expect(readRevision(join(packed, 'brands'), tmp)).toEqual({ commit: A, source: 'git', ref: 'refs/heads/release' });
  });

  it("a worktree's .git file: its own HEAD, the branch in the shared folder", () => {
    const main = checkout('shared', { HEAD: 'ref: refs/heads/main\n', 'refs/heads/wt': `${B}\n`, 'worktrees/wt/HEAD': 'ref: refs/heads/wt\n', 'worktrees/wt/commondir': '../..\n' });
    const wt = join(tmp, 'wt');
    mkdirSync(join(wt, 'brands'), { recursive: true });
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    expect(readRevision(join(wt, 'brands'), tmp)).toEqual({ commit: B, source: 'git', ref: 'refs/heads/wt' });
  });

  it("git-sync's link: the name of the folder it leads to", () => {
    const root = join(tmp, 'git-sync');
    const worktree = join(root, '.worktrees', B);
    mkdirSync(join(worktree, 'brands'), { recursive: true });
    symlinkSync(worktree, join(root, 'current'));
    expect(readRevision(join(root, 'current', 'brands'), tmp)).toEqual({ commit: B, source: 'git-sync' });
    // A relative link, as git-sync writes it.
    symlinkSync(join('.worktrees', B), join(root, 'relative'));
    expect(readRevision(join(root, 'relative', 'brands'), tmp)).toEqual({ commit: B, source: 'git-sync' });
  });

  it('no checkout, an unborn branch, a ref that leaves the git folder: no revision', () => {
    const plain = join(tmp, 'plain');
    mkdirSync(plain, { recursive: true });
    // tmpdir() is in no checkout; a folder of its own is in none either.
    expect(readRevision(plain, tmp)).toBeUndefined();
    expect(readRevision(join(checkout('unborn', { HEAD: 'ref: refs/heads/main\n' }), 'brands'), tmp)).toBeUndefined();
    expect(readRevision(join(checkout('escape', { HEAD: 'ref: refs/../../HEAD\n' }), 'brands'), tmp)).toBeUndefined();
    expect(readRevision(join(tmp, 'missing'), tmp)).toBeUndefined();
  });

  it('agrees with git rev-parse HEAD on a real repository (loose, then packed refs)', (ctx) => {
    const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } }).trim();
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      if (process.env.CI !== undefined) throw new Error('git is not installed: CI must have it for this test');
      console.warn('SKIPPED: git is not installed; the real-repository revision test did not run');
      ctx.skip();
    }
    const repo = join(tmp, 'real');
    mkdirSync(join(repo, 'brands'), { recursive: true });
    writeFileSync(join(repo, 'brands', 'brand.yaml'), 'brand: {}\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    expect(readRevision(join(repo, 'brands'), tmp)).toEqual({ commit: git(repo, 'rev-parse', 'HEAD'), source: 'git', ref: 'refs/heads/main' });
    writeFileSync(join(repo, 'brands', 'brand.yaml'), 'brand: { id: x }\n');
    git(repo, 'commit', '-q', '-am', 'second');
    git(repo, 'pack-refs', '--all');
    expect(readRevision(join(repo, 'brands'), tmp)).toEqual({ commit: git(repo, 'rev-parse', 'HEAD'), source: 'git', ref: 'refs/heads/main' });
    git(repo, 'worktree', 'add', '-q', join(tmp, 'real-wt'), '-b', 'other');
    expect(readRevision(join(tmp, 'real-wt', 'brands'), tmp)).toEqual({ commit: git(join(tmp, 'real-wt'), 'rev-parse', 'HEAD'), source: 'git', ref: 'refs/heads/other' });
  });
});
