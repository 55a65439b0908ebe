// Summaries count the brands that failed (issue 25 §2): with four brands of
// which one may not be read (403) and one has a broken manifest, the last
// stdout line of drift, plan and apply, and the summary of every other format
// (JSON, Markdown, JUnit), say that 2 of 4 brands failed, even when the others
// are clean. An apply that interference detection caught (another process
// created an auto-reply while it ran) fails its brand's line too, instead of
// reading `N done, 0 failed`.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { loadSeed, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import type { PlanFile } from '../../src/plan/types.js';
import type { DriftReport } from '../../src/report/types.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import type { ApplyResult } from '../../src/cli/apply-result.js';
import { admin, cli, TOKEN } from './helpers.js';

const OK = ['BR.okay000001', 'BR.okay000002'];
const FORBIDDEN = 'BR.forbid0001';
const BROKEN = 'BR.broken0001';
const SLOW = 'BR.slow000001';

let dir: string;
let emu: RunningEmulator;
const brandYaml = (id: string, replies = 1): string =>
  `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${Array.from({ length: replies }, (_, i) => `  r${i}: { name: Reply ${i}, messagebaseId: SCS00000, body: { description: "Hello ${i} from ${id}" } }\n`).join('')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-failed-summaries-'));
  for (const id of [...OK, FORBIDDEN]) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), brandYaml(id));
  }
  mkdirSync(join(dir, 'brands', BROKEN));
  writeFileSync(join(dir, 'brands', BROKEN, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BROKEN} }\nautoReply:\n  hours: { name: x }\n`);
  mkdirSync(join(dir, 'slow'));
  writeFileSync(join(dir, 'slow', 'brand.yaml'), brandYaml(SLOW, 3));
  // The forbidden brand is not the account's: reading it is refused (403).
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), [...OK, SLOW].map((brandId) => ({ brandId })), TOKEN);
  emu = await startEmulator({ port: 0, seed });
  // The readable brands are applied first: they are clean, and only the failed brands are left to report.
  expect((await run('apply', 'brands', '--brand', OK[0] as string, '--brand', OK[1] as string, '--yes')).code).toBe(0);
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => cli(argv, { emu, cwd: dir, env: { RCSCTL_LOCK_DIR: join(dir, 'locks') } });
const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

describe('2 of 4 brands failed, the other 2 clean', () => {
  it('drift: the last line of text and of --output counts the failed brands; JSON, Markdown and JUnit too', async () => {
    const text = await run('drift', 'brands');
    expect(text.code).toBe(1);
    expect(lastLine(text.stdout)).toBe('Drift check failed for 2 of 4 brands; in the others: 0 changed, 0 missing, 0 unmanaged; 0 errors, 0 warnings, 0 info (2 resources, 2 in sync).');

    const out = await run('drift', 'brands', '--format', 'json', '-o', 'drift.json');
    expect(out.code).toBe(1);
    expect(out.stdout.split('\n')[0]).toMatch(/^Drift check failed for 2 of 4 brands; /);
    const report = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')) as DriftReport;
    expect(report.summary).toMatchObject({ brands: 4, failedBrands: 2, resources: 2, inSync: 2 });

    const md = await run('drift', 'brands', '--format', 'markdown');
    expect(md.stdout.split('\n')[0]).toBe('## rcsctl drift: 2 of 4 brands failed');
    expect(md.stdout).toContain('**Drift check failed for 2 of 4 brands; in the others: 0 changed, 0 missing, 0 unmanaged; 0 errors, 0 warnings, 0 info (2 resources, 2 in sync).**');
    // The one table lists the failed brands only; the others are counted in one line.
    expect(md.stdout.match(/^\| `BR\.\w+` \(brands\/[\w.]+\) \| ❌ failed \|/gm)).toHaveLength(2);
    expect(md.stdout).toContain('\n2 other brands clean.\n');

    const junit = await run('drift', 'brands', '--format', 'junit');
    expect(junit.stdout).toMatch(/<testsuites name="rcsctl drift" tests="\d+" failures="0" errors="2"/);

    // A merge of the shards' reports says the same.
    for (const s of ['1/2', '2/2']) await run('drift', 'brands', '--shard', s, '--json', '-o', `drift-${s[0]}.json`);
    const merged = await run('report', 'merge', 'drift-1.json', 'drift-2.json');
    expect(merged.code).toBe(1);
    expect(lastLine(merged.stdout)).toMatch(/^Drift check failed for 2 of 4 brands; /);
  });

  it('plan: the text ends on the failed brands, the saved-plan line says so; Markdown and JSON count them', async () => {
    const text = await run('plan', 'brands');
    expect(text.code).toBe(1);
    expect(lastLine(text.stdout)).toBe('Plan failed for 2 of 4 brands (nothing can be applied for them); the others: 0 to create, 0 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged.');
    const saved = await run('plan', 'brands', '--out', 'plan.json');
    expect(lastLine(saved.stdout)).toBe("Saved the plan to plan.json. Nothing can be applied for the 2 brands that failed (above); apply the others' steps with: rcsctl apply --plan plan.json");

    // A merge of the shards' plans, written to a file, says it on stdout.
    for (const s of ['1/2', '2/2']) await run('plan', 'brands', '--shard', s, '--json', '-o', `plan-${s[0]}.json`);
    const merged = await run('report', 'merge', 'plan-1.json', 'plan-2.json', '-o', 'merged.md', '--format', 'markdown');
    expect(merged.code).toBe(1);
    expect(merged.stdout.split('\n')[0]).toBe('Plan failed for 2 of 4 brands (nothing can be applied for them); the others: 0 to create, 0 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged. (4 brands from 2 reports)');

    const md = await run('plan', 'brands', '--format', 'markdown');
    expect(md.stdout.split('\n')[0]).toBe('## rcsctl plan: 2 of 4 brands failed');
    expect(md.stdout).toContain('**Plan failed for 2 of 4 brands (nothing can be applied for them); the others: 0 to create, 0 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged.**');
    expect(md.stdout.match(/^\| `BR\.\w+` \(brands\/[\w.]+\) \| – \|/gm)).toHaveLength(2);
    expect(md.stdout).toContain('\n2 other brands unchanged.\n');

    // The HTML preview's index lists the failed brands as failed, not as "0 changes".
    const preview = await run('plan', 'brands', '--preview', 'preview');
    expect(preview.code).toBe(1);
    const index = readFileSync(join(dir, 'preview', 'index.html'), 'utf8');
    expect(index).toContain(`${FORBIDDEN}</a>: failed: E_API (read); nothing can be applied for this brand`);
    expect(index).toContain(`${BROKEN}</a>: failed: E_MANIFEST (manifest); nothing can be applied for this brand`);

    const json = JSON.parse((await run('plan', 'brands', '--json')).stdout) as PlanFile & { summary: Record<string, number> };
    expect(json.summary).toEqual({ brands: 4, failedBrands: 2, create: 0, update: 0, delete: 0, blocked: 0, review: 0, unmanaged: 0 });
  });

  it('apply: stdout ends on the failed brands; the JSON document counts them and lists each with its error', async () => {
    const text = await run('apply', 'brands', '--yes');
    expect(text.code).toBe(1);
    expect(lastLine(text.stdout)).toBe('Apply failed for 2 of 4 brands; no step ran.');
    const json = await run('apply', 'brands', '--yes', '--json');
    const doc = JSON.parse(json.stdout) as ApplyResult;
    expect(doc.outcome).toBe('failed');
    expect(doc.summary).toMatchObject({ failedBrands: 2 });
    expect(doc.brands.filter((b) => b.error !== undefined).map((b) => [b.brandId, b.error?.code]).sort()).toEqual([
      [BROKEN, 'E_MANIFEST'],
      [FORBIDDEN, 'E_API'],
    ]);
  });
});

describe('an apply caught by interference detection', () => {
  it('fails its brand line and the last line, never "N done, 0 failed"', async () => {
    // Each create answers late: another process creates an auto-reply after this apply read the brand.
    await admin(emu, 'POST', 'faults', { seed: 1, rules: [{ kind: 'latency', rate: 1, ms: 300, method: 'POST', path: '/autoreplymsg' }] });
    await admin(emu, 'DELETE', 'requests');
    const applying = run('apply', 'slow', '--yes', '--concurrency', '1');
    for (let i = 0; i < 500; i++) {
      const { requests } = (await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
      if (requests.some((r) => r.method === 'POST' && r.path.includes('autoreplymsg'))) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const other = createClient({ baseUrl: emu.url, credentials: { token: TOKEN } });
    await other.autoReplies.create({ id: SLOW }, { autoReplyMsgName: 'Someone else', messagebaseId: 'SCS00000', body: { description: 'Not ours' } });
    const r = await applying;
    await admin(emu, 'DELETE', 'faults');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('was created by someone else during this run');
    expect(r.stdout).not.toMatch(/\d+ done, 0 failed/);
    expect(r.stdout).toContain(`${SLOW}: failed: 1 resource not as planned; 3 done.`);
    expect(lastLine(r.stdout)).toBe('Apply failed for 1 of 1 brand; steps: 3 done.');
  });
});
