// Which manifest revision a pass worked from, read off the checkout as it
// lies on disk: rcsctl has no git client and runs no git. Two places say it:
//
// - git-sync (v4) publishes each commit as a folder named by the commit and
//   points a symlink at it (`/git/current -> .worktrees/<commit>`): a link on
//   the way to the manifests whose target's name is a commit is the revision.
// - any other checkout (a `git pull` on a VM, CI's clone) has a `.git` folder
//   (or a `.git` file naming one, for a worktree) above the manifests; its
//   `HEAD` is a commit, or `ref: refs/heads/main`, which a file under the git
//   folder (or the shared one, for a worktree) or a line of `packed-refs` names.
//
// Anything else (no checkout, an unborn branch, an unreadable file) is no
// revision, never an error: the history then says none.

import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';

/** A commit the manifests were read at, and what said so. */
export interface Revision {
  /** The full commit id (40 hex digits; 64 for a SHA-256 repository). */
  commit: string;
  /** `git-sync`: a link's target folder is named by it; `git`: the checkout's HEAD. */
  source: 'git-sync' | 'git';
  /** The branch HEAD names (`refs/heads/main`), when it names one. */
  ref?: string;
}

const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** How many symbolic refs are followed before giving up (git's own limit is 5). */
const MAX_REF_DEPTH = 5;

/** The revision of the checkout that holds `path` (absolute, or relative to `cwd`); undefined when none can be read. */
export function readRevision(path: string, cwd: string): Revision | undefined {
  const given = isAbsolute(path) ? path : resolve(cwd, path);
  return linkRevision(given) ?? gitRevision(given);
}

/** The first symlink on the way to `given` whose target folder is named by a commit (git-sync). */
function linkRevision(given: string): Revision | undefined {
  const { root } = parse(given);
  let at = root;
  for (const part of given.slice(root.length).split(sep).filter((p) => p !== '')) {
    at = join(at, part);
    let target: string;
    try {
      if (!lstatSync(at).isSymbolicLink()) continue;
      target = readlinkSync(at);
    } catch {
      return undefined;
    }
    const name = basename(target.replace(/[\\/]+$/, ''));
    if (COMMIT.test(name)) return { commit: name, source: 'git-sync' };
    // Further links are looked at where this one leads.
    at = resolve(dirname(at), target);
  }
  return undefined;
}

/** HEAD of the nearest `.git` above `given` (followed through links), resolved to a commit. */
function gitRevision(given: string): Revision | undefined {
  let dir: string;
  try {
    const real = realpathSync(given);
    dir = statSync(real).isDirectory() ? real : dirname(real);
  } catch {
    return undefined;
  }
  for (;;) {
    const gitDir = gitDirAt(dir);
    if (gitDir !== undefined) return headOf(gitDir);
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The git folder a `.git` in `dir` names: the folder itself, or the one a `.git` file's `gitdir:` line names. */
function gitDirAt(dir: string): string | undefined {
  const dotGit = join(dir, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
    return line === undefined ? undefined : resolve(dir, line);
  } catch {
    return undefined;
  }
}

/** HEAD of `gitDir` as a commit: detached, or through its ref (loose or packed, in the worktree's folder or the shared one). */
function headOf(gitDir: string): Revision | undefined {
  const common = commonDir(gitDir);
  let text = readText(join(gitDir, 'HEAD'));
  let ref: string | undefined;
  for (let depth = 0; text !== undefined && depth <= MAX_REF_DEPTH; depth++) {
    if (COMMIT.test(text)) return { commit: text, source: 'git', ...(ref !== undefined ? { ref } : {}) };
    const named = /^ref:\s*(refs\/\S+)$/.exec(text)?.[1];
    if (named === undefined || named.split('/').some((p) => p === '..' || p === '.')) return undefined;
    ref ??= named;
    text = readText(join(gitDir, named)) ?? readText(join(common, named)) ?? packedRef(common, named);
  }
  return undefined;
}

/** The shared git folder of a worktree (its `commondir` file), or the folder itself. */
function commonDir(gitDir: string): string {
  const named = readText(join(gitDir, 'commondir'));
  return named === undefined ? gitDir : resolve(gitDir, named);
}

/** The commit `packed-refs` gives `ref`. */
function packedRef(common: string, ref: string): string | undefined {
  const packed = readText(join(common, 'packed-refs'));
  if (packed === undefined) return undefined;
  for (const line of packed.split('\n')) {
    const [commit, name] = line.trim().split(/\s+/);
    if (name === ref && commit !== undefined && COMMIT.test(commit)) return commit;
  }
  return undefined;
}

/** A small file's trimmed text; undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
