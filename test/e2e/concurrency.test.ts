// Two applies of one brand at once: on one machine the per-brand lock lets
// only one run; across machines (two lock directories here) detection makes
// sure they never both report success. Whatever they leave, the documented
// path (apply --dedupe --allow-delete, then apply) repairs it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, type CliRun } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  // Latency makes the two runs overlap for certain.
  emu = await startEmulator({ port: 0, latencyMs: 15 });
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-concurrency-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
});

/** A manifest directory with auto-replies named `<prefix>1..n`. */
function manifests(name: string, prefix: string, n: number, prune = false): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  const replies = Array.from({ length: n }, (_, i) => `  ${prefix}${i + 1}:\n    name: "${prefix} ${i + 1}"\n    messagebaseId: SCS00000\n    body: { description: "Reply ${prefix} ${i + 1}" }\n`).join('');
  writeFileSync(join(d, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\n${prune ? 'prune: [autoReplies]\n' : ''}autoReplies:\n${replies}`);
  return d;
}

const lockDir = (name: string): string => join(dir, `locks-${name}`);
const apply = (path: string, locks: string, extra: string[] = []): Promise<CliRun> =>
  cli(['apply', path, '--yes', ...extra], { emu, env: { RCSCTL_LOCK_DIR: locks } });

function names(): string[] {
  return [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].map((a) => a.autoReplyMsgName).sort();
}

describe('one machine: the per-brand lock', () => {
  it('lets one of two applies run; the other is refused naming the holder, and sends nothing', async () => {
    const m = manifests('same-lock', 'Same', 6);
    const [a, b] = await Promise.all([apply(m, lockDir('shared')), apply(m, lockDir('shared'))]);
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([0, 1]);
    const loser = a.code === 1 ? a : b;
    expect(loser.stderr).toContain(`brand ${BRAND} is locked by rcsctl apply (pid ${process.pid} on `);
    expect(loser.stderr).toContain('nothing was sent');
    expect(loser.stderr).toContain('--lock-timeout');
    expect(names()).toEqual(['Same 1', 'Same 2', 'Same 3', 'Same 4', 'Same 5', 'Same 6']);
  });

  it('takes one lock for every spelling of the base URL (trailing slash, upper case, doubled slash): the second is refused (issue 35)', async () => {
    const m = manifests('spelled', 'Spelled', 6);
    const spelled = (url: string): Promise<CliRun> => cli(['apply', m, '--yes'], { emu, env: { RCSCTL_LOCK_DIR: lockDir('spelled'), RCSCTL_BASE_URL: url } });
    const port = new URL(emu.url).port;
    for (const other of [`http://127.0.0.1:${port}/`, `HTTP://127.0.0.1:${port}//`]) {
      await admin(emu, 'POST', 'reset');
      const [a, b] = await Promise.all([spelled(emu.url), spelled(other)]);
      expect([a.code, b.code].sort()).toEqual([0, 1]);
      expect((a.code === 1 ? a : b).stderr).toContain(`brand ${BRAND} is locked by rcsctl apply`);
      expect(names()).toEqual(['Spelled 1', 'Spelled 2', 'Spelled 3', 'Spelled 4', 'Spelled 5', 'Spelled 6']);
    }
  });

  it('with --lock-timeout the second waits for the first and then finds nothing to do', async () => {
    const m = manifests('same-wait', 'Wait', 4);
    const [a, b] = await Promise.all([apply(m, lockDir('wait'), ['--lock-timeout', '30s']), apply(m, lockDir('wait'), ['--lock-timeout', '30s'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect([a.stdout, b.stdout].filter((s) => s.includes('Nothing to apply')).length).toBe(1);
    expect(names()).toEqual(['Wait 1', 'Wait 2', 'Wait 3', 'Wait 4']);
  });
});

describe('two machines (no shared lock): never both a success, and repairable', () => {
  it('same manifests: not both succeed; dedupe then apply converges', async () => {
    const m = manifests('same', 'Twin', 8);
    const [a, b] = await Promise.all([apply(m, lockDir('m1')), apply(m, lockDir('m2'))]);
    expect(a.code === 0 && b.code === 0).toBe(false);
    const failed = [a, b].filter((r) => r.code !== 0);
    for (const r of failed) expect(r.stderr).toMatch(/created by someone else during this run|now exists .*made since the plan by someone else|are named/);

    const repair = await apply(m, lockDir('m1'), ['--dedupe', '--allow-delete']);
    expect(repair.stderr).toBe('');
    expect(repair.code).toBe(0);
    expect(names()).toEqual(Array.from({ length: 8 }, (_, i) => `Twin ${i + 1}`).sort());
    const plan = await cli(['plan', m, '--detailed-exitcode'], { emu });
    // Nothing left to apply (the seed's rooms are live and undeclared: listed below the line, not steps).
    expect(plan.stdout).toMatch(/No changes(\.| to apply, but \d+ live resources? (is|are) not declared)/);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete');
    expect(plan.code).toBe(0);
  });

  it('different manifests: not both succeed; each is named as changed by someone else', async () => {
    const a = manifests('left', 'Left', 5);
    const b = manifests('right', 'Right', 5);
    const [ra, rb] = await Promise.all([apply(a, lockDir('m1')), apply(b, lockDir('m2'))]);
    expect(ra.code === 0 && rb.code === 0).toBe(false);
    const failed = [ra, rb].find((r) => r.code !== 0);
    expect(failed?.stderr).toMatch(/(Left|Right) \d" \(ARM\w+\) was created by someone else during this run/);
    // Both manifests hold: applying each again is clean.
    expect((await apply(a, lockDir('m1'))).code).toBe(0);
    expect((await apply(b, lockDir('m1'))).code).toBe(0);
  });

  it('prune: not both succeed, and the last apply of the manifests you want converges', async () => {
    const keep = manifests('prune-keep', 'Keep', 4, true);
    const other = manifests('prune-other', 'Other', 4, true);
    const [ra, rb] = await Promise.all([apply(keep, lockDir('m1'), ['--allow-delete']), apply(other, lockDir('m2'), ['--allow-delete'])]);
    expect(ra.code === 0 && rb.code === 0).toBe(false);
    const again = await apply(keep, lockDir('m1'), ['--allow-delete', '--dedupe']);
    expect(again.code).toBe(0);
    expect(names()).toEqual(['Keep 1', 'Keep 2', 'Keep 3', 'Keep 4']);
  });
});

describe('plan shows live duplicates with the remedy', () => {
  it('names the duplicates and --dedupe; without --allow-delete dedupe is held and nothing changes', async () => {
    const m = manifests('dups', 'Dup', 2);
    expect((await apply(m, lockDir('d'))).code).toBe(0);
    // A second copy of "Dup 1", as a run on another machine would make.
    const b = emu.store.brands.get(BRAND);
    const original = [...(b?.autoReplies.values() ?? [])].find((x) => x.autoReplyMsgName === 'Dup 1');
    if (b === undefined || original === undefined) throw new Error('no Dup 1');
    b.autoReplies.set('ARM999999999999', { ...structuredClone(original), autoReplyMsgId: 'ARM999999999999', registerDate: '2099-01-01T00:00:00.000+09' });

    const plan = await cli(['plan', m], { emu });
    expect(plan.stdout).toContain('2 live auto-replies are named "Dup 1"');
    expect(plan.stdout).toContain('rcsctl apply --dedupe --allow-delete');
    const held = await apply(m, lockDir('d'), ['--dedupe']);
    expect(held.code).toBe(3);
    expect(held.stdout).toContain('- autoReply "Dup 1" ARM999999999999: delete (a copy of ARM');
    expect(held.stdout).toMatch(/= autoReply "Dup 1" ARM\w+: kept: the oldest/);
    expect(names()).toEqual(['Dup 1', 'Dup 1', 'Dup 2']);
    const fixed = await apply(m, lockDir('d'), ['--dedupe', '--allow-delete']);
    expect(fixed.code).toBe(0);
    expect(names()).toEqual(['Dup 1', 'Dup 2']);
    expect(b.autoReplies.has('ARM999999999999')).toBe(false);
  });

  it('of copies that differ, the one closest to the manifest is kept even when younger; the apply converges', async () => {
    const m = manifests('dups2', 'Diff', 1);
    expect((await apply(m, lockDir('d'))).code).toBe(0);
    const b = emu.store.brands.get(BRAND);
    const original = [...(b?.autoReplies.values() ?? [])][0];
    if (b === undefined || original === undefined) throw new Error('no auto-reply');
    const copy = structuredClone(original);
    b.autoReplies.set('ARM999999999998', { ...copy, autoReplyMsgId: 'ARM999999999998', registerDate: '2000-01-01T00:00:00.000+09', body: { ...copy.body, description: 'edited by hand' } });
    const r = await apply(m, lockDir('d'), ['--dedupe', '--allow-delete']);
    expect(r.stdout).toContain(`= autoReply "Diff 1" ${original.autoReplyMsgId}: kept: closest to the manifest (0 differences; ARM999999999998: 1)`);
    expect(r.stdout).toContain(`- autoReply "Diff 1" ARM999999999998: delete (a copy of ${original.autoReplyMsgId})`);
    expect(r.code).toBe(0);
    expect([...b.autoReplies.keys()]).toEqual([original.autoReplyMsgId]);
  });
});
