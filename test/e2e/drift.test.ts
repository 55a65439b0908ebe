// `rcsctl drift` end to end: the real CLI, the real client and the emulator
// over HTTP on 127.0.0.1. Each finding kind is produced through the client or
// the emulator's admin API (states, reviews, the clock), then checked in every
// format: JSON against the schema, text, Markdown and JUnit.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { DriftReport, FindingCode } from '../../src/report/types.js';
import { formatServiceTime } from '../../src/util/time.js';
import { admin, BRAND, cli, clientFor, converge, emulator, EXAMPLE, ROOT } from './helpers.js';
import { checkJunit } from '../report/xml-check.js';

const addFormats = formatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as object);
const DAY = 24 * 60 * 60 * 1000;
const ALL_CODES: FindingCode[] = [
  'DRIFT_CHANGED',
  'DRIFT_MISSING',
  'DRIFT_UNMANAGED',
  'DRIFT_PRUNE',
  'AUTO_REPLY_PROCESSING',
  'AUTO_REPLY_SAVED',
  'ROOM_REJECTED',
  'LOGO_REJECTED',
  'ROOM_REVIEW_PENDING',
  'LOGO_REVIEW_PENDING',
  'ROOM_REGISTRATION_PENDING',
  'LOGO_REGISTRATION_PENDING',
  'LOGO_NOT_APPROVED',
  'AGENCY_FILE_EXPIRING',
  'AGENCY_FILE_EXPIRED',
];
/** Codes seen in every format, over all tests. */
const seen = new Map<FindingCode, Set<string>>();

let emu: RunningEmulator;
let client: RcsClient;
let tmp: string;

beforeEach(async () => {
  emu = await emulator();
  client = clientFor(emu);
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-drift-'));
});
afterEach(async () => {
  await client.close();
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});
afterAll(() => {
  for (const code of ALL_CODES) expect([...(seen.get(code) ?? [])].sort(), code).toEqual(['json', 'junit', 'markdown', 'text']);
});

/** Run drift in every format; check each, and return the JSON report and exit code. */
async function driftAll(...extra: string[]): Promise<{ code: number; report: DriftReport; text: string; markdown: string; junit: string }> {
  const json = await cli(['drift', 'examples/brand', '--format', 'json', ...extra], { emu });
  expect(json.stderr).toBe('');
  const report = JSON.parse(json.stdout) as DriftReport;
  if (!validateReport(report)) throw new Error(ajv.errorsText(validateReport.errors));
  const text = await cli(['drift', 'examples/brand', ...extra], { emu });
  const markdown = await cli(['drift', 'examples/brand', '--format', 'markdown', ...extra], { emu });
  const junit = await cli(['drift', 'examples/brand', '--format', 'junit', ...extra], { emu });
  for (const r of [text, markdown, junit]) expect(r.code).toBe(json.code);

  const resources = report.brands.flatMap((b) => b.resources);
  // JUnit: well-formed, one testcase per resource, failures for error/warning findings.
  const cases = checkJunit(junit.stdout);
  expect(cases.map((c) => c.name).sort()).toEqual(resources.map((r) => r.address).sort());
  for (const r of resources) {
    const c = cases.find((x) => x.name === r.address)!;
    expect(c.failed, r.address).toBe(r.findings.some((f) => f.severity !== 'info'));
  }
  // Markdown: a table of the brands that drifted (a clean report says so in one line), and one <details> per resource with findings.
  if (report.clean) expect(markdown.stdout).toMatch(/No drift: all \d+ brands? match their manifests\./);
  else expect(markdown.stdout).toContain('| Brand | Status | Resources |');
  const withFindings = resources.filter((r) => r.findings.length > 0);
  expect(markdown.stdout.match(/<details><summary>(❌|⚠️|ℹ️) <code>/g)?.length ?? 0).toBe(withFindings.length);

  for (const r of resources) {
    for (const f of r.findings) {
      const add = (format: string) => seen.set(f.code, (seen.get(f.code) ?? new Set()).add(format));
      add('json');
      if (text.stdout.includes(`${f.severity} ${f.code}: ${f.message}`) && text.stdout.includes(f.action)) add('text');
      if (markdown.stdout.includes(`[\`${f.code}\`](${f.help})`) && markdown.stdout.includes(`<code>${r.address}</code>`)) add('markdown');
      const c = cases.find((x) => x.name === r.address)!;
      if (c.body.includes(`${f.severity} ${f.code}: `)) add('junit');
    }
  }
  return { code: json.code, report, text: text.stdout, markdown: markdown.stdout, junit: junit.stdout };
}

function findings(report: DriftReport): string[] {
  return report.brands.flatMap((b) => b.resources.flatMap((r) => r.findings.map((f) => `${r.address} ${f.code} ${f.severity}`))).sort();
}

function finding(report: DriftReport, address: string, code: FindingCode) {
  const f = report.brands.flatMap((b) => b.resources).find((r) => r.address === address)?.findings.find((x) => x.code === code);
  if (f === undefined) throw new Error(`no ${code} on ${address}: ${findings(report).join('; ')}`);
  return f;
}

async function ids(): Promise<{ autoReply: Map<string, string>; logo: Map<string, string> }> {
  const autoReply = new Map<string, string>();
  for await (const a of client.autoReplies.list({ id: BRAND })) autoReply.set(a.autoReplyMsgName, a.autoReplyMsgId);
  const logo = new Map<string, string>();
  for await (const l of client.logos.list({ id: BRAND })) logo.set(l.name, l.fileId);
  return { autoReply, logo };
}

const setClock = (at: Date) => admin(emu, 'POST', 'clock', { now: formatServiceTime(at) });
const state = (kind: string, id: string, approvalResult: string, approvalReason?: string) =>
  admin(emu, 'POST', 'state', { kind, brandId: BRAND, id, approvalResult, ...(approvalReason !== undefined ? { approvalReason } : {}) });
const review = (kind: string, id: string, action: string, reason?: string) => admin(emu, 'POST', 'review', { kind, brandId: BRAND, id, action, ...(reason ? { reason } : {}) });

describe('rcsctl drift against the emulator', () => {
  it('before anything is applied: everything declared is missing (exit 2)', async () => {
    const { code, report } = await driftAll();
    expect(code).toBe(2);
    expect(report.clean).toBe(false);
    expect(finding(report, 'autoReply.hours', 'DRIFT_MISSING').severity).toBe('warning');
    expect(finding(report, 'logo.main', 'DRIFT_MISSING').gate).toMatchObject({ type: 'review' });
    expect(report.brands[0]?.notes[0]).toMatch(/cannot list agency files/);
  });

  it('right after converging: clean, exit 0; the seeded room and new logo under review are info only', async () => {
    await converge(client, EXAMPLE);
    const { code, report, text, markdown } = await driftAll();
    expect(findings(report)).toEqual(['chatbot.0298765432 ROOM_REVIEW_PENDING info', 'logo.main LOGO_REVIEW_PENDING info']);
    expect(code).toBe(0);
    expect(report.clean).toBe(true);
    expect(report.summary.inSync).toBe(report.summary.resources);
    expect(text).toMatch(/^No drift: 0 changed, 0 missing, 0 unmanaged; 0 errors, 0 warnings, 2 info/m);
    expect(markdown).toMatch(/## rcsctl drift: no drift/);
  });

  it('field changes, deletions and unmanaged resources: DRIFT_CHANGED, DRIFT_MISSING, DRIFT_PRUNE, DRIFT_UNMANAGED', async () => {
    await converge(client, EXAMPLE);
    const { autoReply } = await ids();
    const hoursId = autoReply.get('Opening hours')!;
    const hours = await client.autoReplies.get({ id: BRAND }, hoursId);
    await client.autoReplies.update({ id: BRAND }, hoursId, {
      autoReplyMsgName: hours.autoReplyMsgName,
      messagebaseId: hours.messagebaseId,
      body: { ...hours.body, description: 'Closed for renovation' },
      ...(hours.buttons ? { buttons: hours.buttons } : {}),
      ...(hours.chipList ? { chipList: hours.chipList } : {}),
    });
    await client.autoReplies.delete({ id: BRAND }, autoReply.get('Events')!);
    await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Old promo', messagebaseId: 'SCS00000', body: { description: 'Half price!' } });
    const png = readFileSync(join(EXAMPLE, 'images', 'logo.png'));
    const old = await client.logos.create({ id: BRAND }, { name: 'Old logo', file: { fileName: 'old.png', bytes: png, contentType: 'image/png' } });

    const { code, report, text, markdown, junit } = await driftAll();
    expect(code).toBe(2);
    const changed = finding(report, 'autoReply.hours', 'DRIFT_CHANGED');
    expect(changed.changes).toEqual([{ path: 'body.description', type: 'change', before: 'Closed for renovation', after: 'Mon-Fri 7:00-20:00, Sat-Sun 9:00-18:00. Closed on public holidays.' }]);
    expect(finding(report, 'autoReply.events', 'DRIFT_MISSING').severity).toBe('warning');
    const promo = report.brands[0]!.resources.find((r) => r.name === 'Old promo')!;
    expect(promo.findings.map((f) => f.code)).toEqual(['DRIFT_PRUNE']);
    // Advice names both ways out: nothing assumes the live side is the one that changed.
    expect(changed.action).toMatch(/either may be the side that changed: run rcsctl apply to make live match the manifest, or change the manifest to match live/);
    expect(changed.action).not.toMatch(/live change is unwanted|restore/);
    expect(finding(report, 'autoReply.events', 'DRIFT_MISSING').action).toMatch(/^Run rcsctl apply to create it, or, if it was deleted live on purpose, remove it from the manifests\./);
    expect(finding(report, `logo.${old.fileId}`, 'DRIFT_UNMANAGED').action).toBe(`Adopt it into a manifest with rcsctl export --resource logo.${old.fileId} --into <manifest file>, or add logos to \`prune:\` so rcsctl apply --allow-delete removes it.`);
    expect(promo.findings[0]!.action).toMatch(/^Run rcsctl apply --allow-delete to delete it, or keep it by adopting it into a manifest \(rcsctl export --resource autoReply\.ARM\d+ --into <manifest file>\)/);
    // Help links are absolute (package.json homepage), so they open from a CI log or a PR comment.
    expect(changed.help).toBe('https://github.com/rcsctl/rcsctl/blob/main/docs/troubleshooting.md#drift_changed');
    expect(text).toContain('see https://github.com/rcsctl/rcsctl/blob/main/docs/troubleshooting.md#drift_changed');
    expect(report.summary).toMatchObject({ changed: 1, missing: 1, unmanaged: 2 });
    expect(text).toContain('~ body.description: "Closed for renovation" → "Mon-Fri');
    // A change is a -/+ pair that GitHub colours, not `!`.
    expect(markdown).toMatch(/^- body\.description: "Closed for renovation"\n\+ body\.description: "Mon-Fri/m);
    expect(markdown).not.toMatch(/^! /m);
    expect(junit).toContain('type="DRIFT_CHANGED"');
  });

  it('auto-replies stuck in 처리중 or only saved (저장)', async () => {
    await converge(client, EXAMPLE);
    const { autoReply } = await ids();
    await state('autoReply', autoReply.get('Opening hours')!, '처리중');
    await state('autoReply', autoReply.get('Location')!, '저장');
    const { code, report } = await driftAll();
    expect(code).toBe(2);
    expect(finding(report, 'autoReply.hours', 'AUTO_REPLY_PROCESSING')).toMatchObject({ severity: 'error', state: '처리중' });
    expect(finding(report, 'autoReply.location', 'AUTO_REPLY_SAVED')).toMatchObject({ severity: 'warning', state: '저장' });
  });

  it('rooms and logos rejected (반려) with the reviewer\'s reason, and waiting for review with their age', async () => {
    // Register the logo 20 days ago.
    await setClock(new Date(Date.now() - 20 * DAY));
    await converge(client, EXAMPLE);
    await setClock(new Date());
    await state('chatbot', '0212345678', '반려', 'The name does not match the certificate');

    let run = await driftAll();
    expect(run.code).toBe(2);
    expect(finding(run.report, 'chatbot.0212345678', 'ROOM_REJECTED')).toMatchObject({
      severity: 'error',
      state: '반려',
      approvalReason: 'The name does not match the certificate',
    });
    expect(run.text).toContain('"The name does not match the certificate"');
    const waiting = finding(run.report, 'logo.main', 'LOGO_REVIEW_PENDING');
    expect(waiting).toMatchObject({ severity: 'warning', state: '승인대기' });
    expect(waiting.ageDays).toBeGreaterThanOrEqual(19);
    expect(waiting.ageDays).toBeLessThanOrEqual(20);
    expect(finding(run.report, 'chatbot.0298765432', 'ROOM_REVIEW_PENDING')).toMatchObject({ severity: 'info', state: '검수시작', ageDays: 0 });

    // A higher threshold makes the 20-day wait info again.
    run = await driftAll('--review-warning', '30');
    expect(finding(run.report, 'logo.main', 'LOGO_REVIEW_PENDING').severity).toBe('info');

    const { logo } = await ids();
    await review('logo', logo.get('Coffee Co logo')!, 'reject', 'Image too dark');
    run = await driftAll();
    expect(finding(run.report, 'logo.main', 'LOGO_REJECTED')).toMatchObject({ severity: 'error', approvalReason: 'Image too dark' });
  });

  it('review complete, carrier registration pending (검수완료); a declared logo neither approved nor under review', async () => {
    await converge(client, EXAMPLE);
    const { logo } = await ids();
    const logoId = logo.get('Coffee Co logo')!;
    await review('logo', logoId, 'approve');
    await review('chatbot', '0298765432', 'approve');
    let run = await driftAll();
    expect(run.code).toBe(0);
    expect(finding(run.report, 'logo.main', 'LOGO_REGISTRATION_PENDING')).toMatchObject({ severity: 'info', state: '검수완료' });
    expect(finding(run.report, 'chatbot.0298765432', 'ROOM_REGISTRATION_PENDING')).toMatchObject({ severity: 'info', state: '검수완료' });

    await state('logo', logoId, '저장');
    run = await driftAll();
    expect(run.code).toBe(2);
    expect(finding(run.report, 'logo.main', 'LOGO_NOT_APPROVED')).toMatchObject({ severity: 'warning', state: '저장' });

    await review('logo', logoId, 'complete').catch(() => undefined);
    await state('logo', logoId, '승인');
    await review('chatbot', '0298765432', 'complete');
    run = await driftAll();
    expect(findings(run.report)).toEqual([]);
  });

  it('agency files near the end of their sendable window (D+365), with --expiry-warning', async () => {
    // Registered 350 days ago: 15 days of sending left.
    await setClock(new Date(Date.now() - 350 * DAY));
    await converge(client, EXAMPLE);
    await setClock(new Date());
    let run = await driftAll();
    expect(run.code).toBe(2);
    const f = finding(run.report, 'agencyFile.BR.demo000001.spring', 'AGENCY_FILE_EXPIRING');
    expect(f.severity).toBe('warning');
    expect(f.daysLeft).toBeGreaterThanOrEqual(13);
    expect(f.daysLeft).toBeLessThanOrEqual(15);
    run = await driftAll('--expiry-warning', '10');
    expect(run.report.brands[0]!.resources.find((r) => r.kind === 'agencyFile')!.findings).toEqual([]);
  });

  it('agency files past the end of their sendable window', async () => {
    await setClock(new Date(Date.now() - 400 * DAY));
    await converge(client, EXAMPLE);
    await setClock(new Date());
    const { code, report } = await driftAll();
    expect(code).toBe(2);
    const f = finding(report, 'agencyFile.BR.demo000001.spring', 'AGENCY_FILE_EXPIRED');
    expect(f).toMatchObject({ severity: 'error', state: 'expired' });
    expect(f.daysLeft).toBeLessThan(0);
  });

  it('a brand that cannot be compared (two live auto-replies with one name) exits 1, still reported in every format', async () => {
    await converge(client, EXAMPLE);
    await client.autoReplies.create({ id: BRAND }, { autoReplyMsgName: 'Welcome', messagebaseId: 'SCS00000', body: { description: 'A copy' } });
    const json = await cli(['drift', 'examples/brand', '--format', 'json'], { emu });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DriftReport;
    expect(validateReport(report)).toBe(true);
    expect(report.clean).toBe(false);
    expect(report.brands[0]?.problems.map((p) => p.code)).toEqual(['E_PLAN_DUPLICATE_NAME']);
    const junit = await cli(['drift', 'examples/brand', '--format', 'junit'], { emu });
    expect(junit.code).toBe(1);
    const plan = checkJunit(junit.stdout).find((c) => c.name === 'plan');
    expect(plan?.errored).toBe(true);
    expect(plan?.body).toContain('E_PLAN_DUPLICATE_NAME');
    const text = await cli(['drift', 'examples/brand'], { emu });
    expect(text.stdout).toContain('error[E_PLAN_DUPLICATE_NAME]');
  });

  it('a declared room that cannot be created as written is still reported missing, with the reason', async () => {
    const manifest = join(tmp, 'brand.yaml');
    writeFileSync(manifest, 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\nchatbots:\n  "0211112222": { subTitle: New room }\n');
    const r = await cli(['drift', manifest, '--format', 'json'], { emu });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as DriftReport;
    expect(validateReport(report)).toBe(true);
    expect(finding(report, 'chatbot.0211112222', 'DRIFT_MISSING').message).toContain('needs `subTitle` and `certificate');
    expect(finding(report, 'chatbot.0212345678', 'DRIFT_UNMANAGED').action).toContain('add chatbots to `prune:`');
  });

  it('--brand checks only that brand, and names the brands found when it is not declared', async () => {
    const r = await cli(['drift', 'examples/brand', '--brand', 'BR.nothere0001'], { emu });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no manifest declares brand BR.nothere0001 (found: BR.demo000001)');
  });

  it('--output writes the report to a file and prints the summary line', async () => {
    await converge(client, EXAMPLE);
    const out = join(tmp, 'reports', 'drift.xml');
    const r = await cli(['drift', 'examples/brand', '--format', 'junit', '--output', out], { emu });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No drift: .*\nRequests: \d+ requests, 0 answered 429\.\nWrote the junit report to .*drift\.xml\.\n$/);
    expect(checkJunit(readFileSync(out, 'utf8')).length).toBeGreaterThan(10);
  });

  it('--docs-url points every help link at another copy of the docs, in every format; a relative one is refused', async () => {
    const { report, text, markdown, junit } = await driftAll('--docs-url', 'https://docs.example.org/rcsctl');
    const all = report.brands.flatMap((b) => b.resources.flatMap((r) => r.findings));
    expect(all.length).toBeGreaterThan(3);
    for (const f of all) expect(f.help).toBe(`https://docs.example.org/rcsctl/troubleshooting.md#${f.code.toLowerCase()}`);
    expect(text).toContain('see https://docs.example.org/rcsctl/troubleshooting.md#drift_missing');
    expect(markdown).toContain('(https://docs.example.org/rcsctl/troubleshooting.md#drift_missing)');
    expect(junit).toContain('see https://docs.example.org/rcsctl/troubleshooting.md#drift_missing');
    expect(text).not.toContain('github.com/rcsctl');
    const bad = await cli(['drift', 'examples/brand', '--docs-url', 'docs/'], { emu });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--docs-url must be an absolute http(s) URL of the docs folder, not "docs/"');
  });

  it('usage errors exit 1 and name the flag', async () => {
    const r = await cli(['drift', 'examples/brand', '--format', 'html'], { emu });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format must be one of text, json, markdown, junit, not "html"');
    const d = await cli(['drift', 'examples/brand', '--expiry-warning', 'soon'], { emu });
    expect(d.code).toBe(1);
    expect(d.stderr).toContain('--expiry-warning must be a whole number of days');
  });

  it('the access token never appears in any format', async () => {
    await converge(client, EXAMPLE);
    for (const format of ['text', 'json', 'markdown', 'junit']) {
      const r = await cli(['drift', 'examples/brand', '--format', format], { emu });
      expect(r.stdout + r.stderr).not.toContain('emulator-master-token');
    }
  });
});

describe('rcsctl drift --sandbox', () => {
  it('works with no credentials and no address, the flag before or after the command', async () => {
    for (const argv of [
      ['--sandbox', 'drift', 'examples/brand', '--format', 'json'],
      ['drift', '--sandbox', 'examples/brand', '--format', 'json'],
    ]) {
      const r = await cli(argv, { env: {} });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout) as DriftReport;
      expect(validateReport(report)).toBe(true);
      expect(finding(report, 'autoReply.welcome', 'DRIFT_MISSING').severity).toBe('warning');
    }
  });
});
