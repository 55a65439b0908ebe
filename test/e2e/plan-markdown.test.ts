// `rcsctl plan --format markdown`: a pull-request comment's worth of plan.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { PlanFile } from '../../src/plan/types.js';
import { cli, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-plan-md-'));
  cpSync(EXAMPLE, dir, { recursive: true });
  const yaml = join(dir, 'brand.yaml');
  // A name that would break a table and the page if it were not escaped.
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('name: Events\n', 'name: "Events | <b>tastings</b>"\n'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('plan --format markdown', () => {
  it('has a summary table, a row per step, escaped names and the field changes in a diff', async () => {
    const r = await cli(['plan', dir, '--format', 'markdown'], { emu });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).toContain(`| \`BR.demo000001\` (${dir}) | 11 | 5 | 0 | 0 | 1 | 0 | 0 |`);
    expect(md).toContain('**Plan: 11 to create, 5 to update, 0 to delete; 0 blocked, 1 needs review; 0 unmanaged.**');
    const rows = md.split('\n').filter((l) => /^\| [+~\-!⚑] \| `/.test(l));
    // The counts match what is listed: every row is counted once.
    expect(rows).toHaveLength(11 + 5);
    expect(md).toContain('| ⚑ | `logo.main` | "Coffee Co logo" | will be created | needs review: a new logo goes to operator review');
    expect(md).toContain('"Events \\| &lt;b&gt;tastings&lt;/b&gt;"');
    // Outside code fences (where GitHub renders HTML) the markup is escaped; inside them it is literal text.
    expect(md.replace(/```diff\n[\s\S]*?```/g, '')).not.toContain('<b>');
    expect(md).toContain('+ name: "Events | <b>tastings</b>"');
    expect(md).toMatch(/<details><summary>Field changes<\/summary>\n\n```diff\n/);
    expect(md).toContain(`<details><summary><code>BR.demo000001</code> (${dir}): 11 to create, 5 to update, 1 needs review</summary>`);
    expect(md).toContain('+ chipList[0].reply.autoReplyMsgId: (known after apply: autoReply.location)');
  });

  it('matches the JSON plan, and --json is --format json', async () => {
    const a = await cli(['plan', dir, '--json'], { emu });
    const b = await cli(['plan', dir, '--format', 'json'], { emu });
    const strip = (t: string) => ({ ...(JSON.parse(t) as PlanFile), createdAt: '' });
    expect(strip(a.stdout)).toEqual(strip(b.stdout));
  });

  it('stays within the size budget, saying what it left out', async () => {
    const r = await cli(['plan', dir, '--json'], { emu });
    const file = JSON.parse(r.stdout) as PlanFile;
    const md = renderPlanMarkdown(file.brands, { rcsctlVersion: 'test', maxBytes: 2000, fullReport: 'rcsctl-reports', ...(file.requests !== undefined ? { requests: file.requests } : {}) });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(2000);
    // The table still names the brand; its details are left out whole, never cut inside.
    expect(md).toContain(`| \`BR.demo000001\` (${dir}) | 11 | 5 | 0 | 0 | 1 | 0 | 0 |`);
    expect(md).not.toContain('<details>');
    expect(md).toContain('**Left out to keep this comment within 2000 bytes:** the plan details of 1 brand (in part or whole). The full report: `rcsctl-reports`.');
    const whole = await cli(['plan', dir, '--format', 'markdown', '--max-bytes', '2000', '--full-report-url', 'rcsctl-reports'], { emu });
    expect(whole.stdout).toBe(md.replace('rcsctl test', `rcsctl ${file.rcsctlVersion}`));
    const bad = await cli(['plan', dir, '--format', 'markdown', '--max-bytes', '100'], { emu });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--max-bytes must be a whole number of bytes, at least 2000, not "100"');
  });

  it('refuses an unknown format before connecting', async () => {
    const r = await cli(['plan', dir, '--format', 'html'], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format must be one of text, json, markdown, not "html"');
  });
});
