// The controller under git-sync v4: each commit is a new folder, the link
// swapped to it by rename, the old folder deleted. The watcher must follow the
// link after every swap, and the periodic resync must re-read the files even
// when no event comes.

import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { watchPaths } from '../../src/controller/manifests.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, startFor, waitFor, waitState, useControllerSuite } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-git-sync-', (e, c) => {
  emu = e;
  client = c;
});
const original = readFileSync(join(EXAMPLE, 'brand.yaml'), 'utf8');
const changed = original.replace('Closed on public holidays.', 'Open on public holidays.');
const broken = original.replace('autoReplies:', 'autoReplies: [\n');

/** A git-sync root under `name` whose `current` link leads to a worktree holding `brandYaml`. */
function gitSyncRoot(name: string, brandYaml: string): { current: string; publish(brandYaml: string): void } {
  const root = join(tmp, name);
  let n = 0;
  let live = '';
  const publish = (text: string): void => {
    // As git-sync v4 does: a new worktree, the link replaced atomically (a temp link renamed over it), the old worktree deleted.
    const next = join(root, '.worktrees', `commit${++n}`);
    mkdirSync(next, { recursive: true });
    cpSync(EXAMPLE, next, { recursive: true });
    writeFileSync(join(next, 'brand.yaml'), text);
    const temp = join(root, `.current-${n}`);
    symlinkSync(next, temp);
    renameSync(temp, join(root, 'current'));
    if (live !== '') rmSync(live, { recursive: true, force: true });
    live = next;
  };
  publish(brandYaml);
  return { current: join(root, 'current'), publish };
}

describe('rcsctl controller under git-sync', () => {
  it('the file watcher reports every swap of the link, not only the first', async () => {
    const repo = gitSyncRoot('watch', original);
    const calls: string[][] = [];
    const errors: Error[] = [];
    const watch = watchPaths([repo.current], tmp, 50, (files) => calls.push(files), (err) => errors.push(err));
    try {
      for (const [i, text] of [changed, broken, original].entries()) {
        repo.publish(text);
        await waitFor(`a callback for swap ${i + 1}`, async () => (calls.length >= i + 1 ? true : undefined), 5_000);
      }
    } finally {
      watch.close();
    }
    expect(errors).toEqual([]);
  });

  it('picks up each of three commits through the watch alone (resync every hour)', async () => {
    const repo = gitSyncRoot('controller', original);
    const { ctl } = await startFor(emu, client, [repo.current]);
    running.push(ctl);
    const first = await waitState(ctl.url, BRAND, ['waiting-review']);

    repo.publish(changed);
    const drifted = await waitState(ctl.url, BRAND, ['drifted'], first.passes);
    expect(drifted.pendingReasons).toContain('autoReply.hours update');

    repo.publish(broken);
    const failed = await waitFor('the broken commit to fail the brand', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'failed' ? s : undefined;
    });
    expect(failed.lastError).toMatchObject({ code: 'E_MANIFEST' });

    repo.publish(original);
    await waitFor('the third commit to bring the brand back', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'waiting-review' ? s : undefined;
    });
  });

  it('a periodic resync re-reads the manifests even when no file event arrives', async () => {
    const repo = gitSyncRoot('resync', original);
    // A debounce of an hour: the watch never fires within the test, only the resync can see the commit.
    const { ctl } = await startFor(emu, client, [repo.current], { intervalMs: 300, watchDebounceMs: 3_600_000 });
    running.push(ctl);
    await waitState(ctl.url, BRAND, ['waiting-review']);
    repo.publish(changed);
    const drifted = await waitFor('a resync to read the new commit', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'drifted' ? s : undefined;
    });
    expect(drifted.pendingReasons).toContain('autoReply.hours update');
  });
});
