// rcsctl apply end to end: the CLI in-process against the emulator over real
// HTTP. Each test starts its own emulator on 127.0.0.1:0.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
let dir: string;

beforeEach(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-apply-'));
  cpSync(EXAMPLE, join(dir, 'brand'), { recursive: true });
});
afterEach(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const manifest = (): string => join(dir, 'brand');
const brandYaml = (): string => join(dir, 'brand', 'brand.yaml');
const edit = (from: string, to: string): void => {
  const text = readFileSync(brandYaml(), 'utf8');
  if (!text.includes(from)) throw new Error(`example does not contain ${from}`);
  writeFileSync(brandYaml(), text.replace(from, to));
};

/** The names of every auto-reply of the demo brand in the emulator's store. */
function autoReplyNames(): string[] {
  return autoReplies().map((a) => a.autoReplyMsgName).sort();
}

function brand() {
  const b = emu.store.brands.get(BRAND);
  if (b === undefined) throw new Error('the seed has no demo brand');
  return b;
}

function autoReplies(): { autoReplyMsgName: string; autoReplyMsgId: string; body: Record<string, string> }[] {
  return [...brand().autoReplies.values()].map((a) => ({ autoReplyMsgName: a.autoReplyMsgName, autoReplyMsgId: a.autoReplyMsgId, body: a.body }));
}

async function applyAll(extra: string[] = []) {
  return cli(['apply', manifest(), '--yes', '--allow-review', ...extra], { emu });
}

async function planExit(): Promise<{ code: number; stdout: string }> {
  const r = await cli(['plan', manifest(), '--detailed-exitcode'], { emu });
  return { code: r.code, stdout: r.stdout };
}

describe('apply', () => {
  it('applies the example brand from nothing, and the next plan is empty', async () => {
    const r = await applyAll();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: the live service matches the manifests.');
    expect(r.stdout).toMatch(/BR\.demo000001: 16 done, 0 failed, 0 blocked, 0 held, 0 skipped\./);
    const next = await planExit();
    expect(next.stdout).toContain('No changes.');
    expect(next.code).toBe(0);
    expect(autoReplyNames()).toEqual(['Events', 'Location', 'Loyalty card', 'Opening hours', "Today's menu", 'Welcome']);
    // A second apply has nothing to do.
    const again = await applyAll();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to apply');
  });

  it('a menu the manifest declares empty is removed without --allow-delete: the manifest asks for it, it is no prune', async () => {
    expect((await applyAll()).code).toBe(0);
    edit(`    persistentMenu:
      - { type: reply, title: Opening hours, autoReply: hours }
      - { type: reply, title: "Today's menu", autoReply: menu }
      - { type: reply, title: Find us, autoReply: location }
      - type: action
        title: Call us
        actionType: dialerAction
        action: { dialerAction: { dialPhoneNumber: { phoneNumber: "0212345678" } } }
`, '    persistentMenu: []\n');
    const drift = await cli(['drift', manifest(), '--format', 'json'], { emu });
    const resources = (JSON.parse(drift.stdout) as { brands: { resources: { address: string; findings: { code: string }[] }[] }[] }).brands[0]?.resources ?? [];
    expect(resources.find((r) => r.address === 'persistentMenu.0212345678')?.findings.map((f) => f.code)).toEqual(['DRIFT_CHANGED']);
    const planned = await planExit();
    expect(planned.stdout).toContain('- persistentMenu.0212345678 "Coffee Co menu"  menu will be removed');
    const r = await cli(['apply', manifest(), '--yes'], { emu });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/persistentMenu\.0212345678: menu removed/);
    expect(brand().chatbots.get('0212345678')?.menu ?? []).toEqual([]);
    expect((await planExit()).code).toBe(0);
  });

  it('refuses to run without --yes when there is no terminal, and sends nothing', async () => {
    const r = await cli(['apply', manifest(), '--allow-review'], { emu });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to apply without confirmation');
    expect(autoReplyNames()).toEqual([]);
    const log = (await admin(emu, 'GET', 'requests')) as { requests: { method: string }[] };
    // It read the live state to show the plan, and changed nothing.
    expect(log.requests.length).toBeGreaterThan(0);
    expect(log.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('asks on a terminal: "yes" applies, anything else cancels', async () => {
    const ask = async (answer: string) => {
      const stdin = Object.assign(new PassThrough(), { isTTY: true });
      const out = new PassThrough();
      const err = new PassThrough();
      let errText = '';
      err.on('data', (c: Buffer) => (errText += c.toString()));
      out.resume();
      const pending = main(['apply', manifest(), '--allow-review'], { stdin, stdout: out, stderr: err, env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: 'emulator-master-token' }, cwd: dir });
      setTimeout(() => stdin.write(`${answer}\n`), 50);
      return { code: await pending, stderr: errText };
    };
    const no = await ask('y');
    expect(no.code).toBe(1);
    expect(no.stderr).toContain("Only 'yes' will be accepted");
    expect(no.stderr).toContain('apply cancelled; nothing was changed');
    expect(autoReplyNames()).toEqual([]);
    const yes = await ask('yes');
    expect(yes.code).toBe(0);
    expect(autoReplyNames()).toHaveLength(6);
  });

  it('holds review steps without --allow-review and exits 3', async () => {
    const r = await cli(['apply', manifest(), '--yes'], { emu });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/⏸ logo\.main: held: a new logo goes to operator review/);
    expect(r.stdout).toContain('1 held');
    expect([...brand().logos.values()]).toHaveLength(0);
    // Everything else converged: only the logo is left.
    const next = await cli(['plan', manifest()], { emu });
    expect(next.stdout).toContain('⚑ logo.main');
    expect(next.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete; 0 blocked, 1 needs review; 0 unmanaged.');
  });

  it('holds deletes without --allow-delete, runs them with it', async () => {
    expect((await applyAll()).code).toBe(0);
    // Drop "Events" from the manifest; prune: [autoReplies] makes it a delete.
    const text = readFileSync(brandYaml(), 'utf8');
    const start = text.indexOf('\n  events:');
    const end = text.indexOf('\n  ', text.indexOf('\n', start + 1) + 1);
    expect(start).toBeGreaterThan(0);
    const next = text.slice(end).search(/\n  [a-z]+:\n/);
    writeFileSync(brandYaml(), text.slice(0, start) + text.slice(end + next));
    const held = await applyAll();
    expect(held.code).toBe(3);
    expect(held.stdout).toMatch(/⏸ autoReply\.ARM\d+: held: deletes run only with --allow-delete/);
    expect(autoReplyNames()).toContain('Events');
    const done = await applyAll(['--allow-delete']);
    expect(done.code).toBe(0);
    expect(autoReplyNames()).not.toContain('Events');
  });

  it('blocks a 처리중 auto-reply, reports it and exits 3', async () => {
    expect((await applyAll()).code).toBe(0);
    const hours = autoReplies().find((a) => a.autoReplyMsgName === 'Opening hours');
    await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: BRAND, id: hours?.autoReplyMsgId, approvalResult: '처리중' });
    edit('title: Opening hours', 'title: Our opening hours');
    const r = await applyAll();
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/! autoReply\.hours: blocked \(처리중\)/);
    expect(autoReplies().find((a) => a.autoReplyMsgName === 'Opening hours')?.body.title).toBe('Opening hours');
  });

  it('runs the review flow: rename an approved room, approve, clean plan', async () => {
    expect((await applyAll()).code).toBe(0);
    edit('subTitle: Coffee Co\n', 'subTitle: Coffee Co Seoul\n');
    const plan = await cli(['plan', manifest()], { emu });
    expect(plan.stdout).toContain('⚑ chatbot.0212345678');
    expect(plan.stdout).toContain('needs review: renaming an approved room sends it back to operator review');
    const held = await cli(['apply', manifest(), '--yes'], { emu });
    expect(held.code).toBe(3);
    const r = await applyAll();
    expect(r.code).toBe(0);
    const room = brand().chatbots.get('0212345678');
    expect(room?.approvalResult).toBe('승인대기(수정)');
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: '0212345678', action: 'complete' });
    expect(brand().chatbots.get('0212345678')?.approvalResult).toBe('승인');
    expect((await planExit()).code).toBe(0);
  });
});

describe('apply --plan', () => {
  it('applies a saved plan, deletes and review steps included, without the flags', async () => {
    const out = join(dir, 'plan.json');
    const p = await cli(['plan', manifest(), '--out', out], { emu });
    expect(p.code).toBe(0);
    const saved = readFileSync(out, 'utf8');
    expect(saved).not.toContain('emulator-master-token');
    const r = await cli(['apply', '--plan', out], { emu });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect([...brand().logos.values()]).toHaveLength(1);
    expect((await planExit()).code).toBe(0);
  });

  it('takes the brand key of a saved plan from RCSCTL_BRAND_KEY_<brandId>, never from the plan file', async () => {
    edit('  id: BR.demo000001\n', '  id: BR.demo000001\n  key: "${env:BRAND_KEY}"\n');
    const agency = { RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.demo0000000001' };
    const out = join(dir, 'plan.json');
    expect((await cli(['plan', manifest(), '--out', out], { emu, env: agency })).code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain('BK.demo0000000001');
    const without = await cli(['apply', '--plan', out], { emu, env: { RCSCTL_TOKEN: 'emulator-agency-token' } });
    expect(without.code).toBe(1);
    // The plan block on stdout says it, with its hint, once (stderr only counts the failed brand).
    expect(without.stdout).toContain('64001');
    expect(without.stdout).toContain('hint: agency accounts must send the brand key');
    expect((without.stdout + without.stderr).split('64001')).toHaveLength(2);
    const withKey = await cli(['apply', '--plan', out], { emu, env: { RCSCTL_TOKEN: 'emulator-agency-token', RCSCTL_BRAND_KEY_BR_demo000001: 'BK.demo0000000001' } });
    expect(withKey.stderr).toBe('');
    expect(withKey.code).toBe(0);
    expect(autoReplyNames()).toHaveLength(6);
  });

  it('refuses a stale plan, naming the resource and how it changed', async () => {
    expect((await applyAll()).code).toBe(0);
    edit('title: Opening hours', 'title: Our opening hours');
    const out = join(dir, 'plan.json');
    expect((await cli(['plan', manifest(), '--out', out], { emu })).code).toBe(0);
    const hours = autoReplies().find((a) => a.autoReplyMsgName === 'Opening hours');
    await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: BRAND, id: hours?.autoReplyMsgId, approvalResult: '처리중' });
    const r = await cli(['apply', '--plan', out], { emu });
    expect(r.code).toBe(1);
    // The brand fails alone, in its section of the report (issue 35): the plan's other brands would be applied.
    expect(r.stdout).toContain('error[E_PLAN_STALE] the saved plan is stale for this brand');
    expect(r.stdout).toContain('autoReply.hours: state 등록완료 → 처리중');
    expect(autoReplies().find((a) => a.autoReplyMsgName === 'Opening hours')?.body.title).toBe('Opening hours');
  });

  it('refuses a plan that would create what now exists (applied twice)', async () => {
    const out = join(dir, 'plan.json');
    expect((await cli(['plan', manifest(), '--out', out], { emu })).code).toBe(0);
    expect((await cli(['apply', '--plan', out], { emu })).code).toBe(0);
    const again = await cli(['apply', '--plan', out], { emu });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/autoReply\.hours: now exists \(ARM\d+\)/);
    expect(autoReplyNames()).toHaveLength(6);
  });

  it('refuses a plan of another version, another service or another brand', async () => {
    const out = join(dir, 'plan.json');
    expect((await cli(['plan', manifest(), '--out', out], { emu })).code).toBe(0);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;

    // Version 1 (a menu's steps were `menu-replace`) and 2 (a brand profile's step recorded no account to re-read it as) are refused, as is one from a later rcsctl.
    writeFileSync(join(dir, 'v1.json'), JSON.stringify({ ...plan, version: 1 }));
    const v = await cli(['apply', '--plan', join(dir, 'v1.json')], { emu });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('has format version 1; this rcsctl reads version 3 only');
    writeFileSync(join(dir, 'v2.json'), JSON.stringify({ ...plan, version: 2 }));
    expect((await cli(['apply', '--plan', join(dir, 'v2.json')], { emu })).stderr).toContain('has format version 2; this rcsctl reads version 3 only. Make a new plan.');
    writeFileSync(join(dir, 'v4.json'), JSON.stringify({ ...plan, version: 4 }));
    expect((await cli(['apply', '--plan', join(dir, 'v4.json')], { emu })).stderr).toContain('has format version 4; this rcsctl reads version 3 only');

    writeFileSync(join(dir, 'other.json'), JSON.stringify({ ...plan, baseUrl: 'https://rcs.example.com' }));
    const o = await cli(['apply', '--plan', join(dir, 'other.json')], { emu });
    expect(o.code).toBe(1);
    expect(o.stderr).toContain('was made for https://rcs.example.com');

    const b = await cli(['apply', '--plan', out, '--brand', 'BR.other000001'], { emu });
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('holds no plan for brand BR.other000001');
    expect(autoReplyNames()).toEqual([]);
  });
});
