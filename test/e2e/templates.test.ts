// Templates end to end, through the CLI against the emulator over HTTP: apply
// a text and an image template, approve them through the admin API, and the
// plan is empty; a rejected modification shows in drift with its reason; a
// review waiting for days is a warning; export writes the templates and their
// images back, and a plan of the export is empty.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '061-templates-from-nothing');
const SEED = join(CASE, 'seed.yaml');
const TEXT_ID = `U${BRAND}-hours01`;
const IMAGE_ID = `U${BRAND}-autumn01`;

let emu: RunningEmulator | undefined;
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-templates-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');

async function review(id: string, action: string, reason?: string): Promise<void> {
  await admin(emu as RunningEmulator, 'POST', 'review', { kind: 'template', brandId: BRAND, id, action, ...(reason !== undefined ? { reason } : {}) });
}

describe('templates end to end', () => {
  it('validate counts the templates with every other kind (it once said "0 auto-replies, 0 files, ..." and left them out)', async () => {
    const text = await cli(['validate', manifest()]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`${BRAND}: valid (0 auto-reply files, 0 auto-replies, 0 logos, 2 templates, 0 layouts, 0 rooms, 0 persistent menus, 0 bidirectional rooms, 0 agency files, 0 brand profiles, 0 privileges)\n`);
    const json = JSON.parse((await cli(['validate', manifest(), '--format', 'json'])).stdout);
    expect(json.brands[0].counts).toEqual({ file: 0, autoReply: 0, logo: 0, template: 2, layout: 0, chatbot: 0, persistentMenu: 0, bidirectionalRoom: 0, agencyFile: 0, brandProfile: 0, privilege: 0 });
  });

  it('apply sends both templates to review; after approval the plan is empty and drift is clean', async () => {
    emu = await emulator(SEED);
    const held = await cli(['apply', manifest(), '--yes'], { emu });
    expect(held.code, held.stdout + held.stderr).toBe(3);
    expect(held.stdout).toContain('held: a new template goes to operator review');

    const applied = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const store = emu.store.brands.get(BRAND);
    expect([...(store?.templates.values() ?? [])].map((t) => [t.messagebaseId, t.approvalResult]).sort()).toEqual([
      [IMAGE_ID, '승인대기'],
      [TEXT_ID, '승인대기'],
    ]);
    // The image went through the template file endpoint under its content-addressed name.
    expect([...(store?.templateFiles.values() ?? [])].map((f) => f.fileName)).toEqual(['autumn-19998fbe8b09.png']);

    const waiting = await cli(['drift', manifest()], { emu });
    expect(waiting.stdout).toContain('TEMPLATE_REVIEW_PENDING');

    for (const id of [TEXT_ID, IMAGE_ID]) await review(id, 'complete');
    const plan = await cli(['plan', manifest(), '--detailed-exitcode'], { emu });
    expect(plan.stdout).toContain('No changes. The live brand matches the manifests.');
    expect(plan.code).toBe(0);
    const drift = await cli(['drift', manifest()], { emu });
    expect(drift.code, drift.stdout).toBe(0);
  });

  it('a rejected modification is drift with the reviewer\'s reason; a fresh wait is information', async () => {
    emu = await emulator(SEED);
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    await review(TEXT_ID, 'complete');
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('close at {{close}} today.', 'close at {{close}} every day.'));
    const modified = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(modified.stdout).toContain('승인 → 승인대기(수정)');
    await review(TEXT_ID, 'reject', 'Name the days you open');

    const drift = await cli(['drift', manifest(), '--format', 'json'], { emu });
    expect(drift.code).toBe(2);
    const findings = JSON.parse(drift.stdout).brands[0].resources.flatMap((r: { findings: unknown[] }) => r.findings);
    expect(findings).toContainEqual(expect.objectContaining({ code: 'TEMPLATE_REJECTED', severity: 'error', address: 'template.hours', state: '반려(수정)', approvalReason: 'Name the days you open' }));
    // The image template waits for review since the apply: information, not drift.
    expect(findings).toContainEqual(expect.objectContaining({ code: 'TEMPLATE_REVIEW_PENDING', severity: 'info', address: 'template.autumn', ageDays: 0 }));
  });

  it('a review waiting longer than --review-warning days is a warning', async () => {
    const seed = parse(readFileSync(SEED, 'utf8'));
    seed.brands[0].templates = [
      { custTmpltId: 'autumn01', tmpltName: 'Autumn sale', messagebaseformId: 'ITHI001V', body: [{ param: 'description', value: 'Old' }], approvalResult: '검수시작', updateDate: '2026-01-05T09:00:00.000+09' },
    ];
    emu = await emulator(seed);
    const drift = JSON.parse((await cli(['drift', manifest(), '--format', 'json', '--review-warning', '3'], { emu })).stdout);
    const pending = drift.brands[0].resources.flatMap((r: { findings: { code: string }[] }) => r.findings).find((f: { code: string }) => f.code === 'TEMPLATE_REVIEW_PENDING');
    expect(pending).toMatchObject({ severity: 'warning', address: 'template.autumn', state: '검수시작', since: '2026-01-05T09:00:00.000+09' });
    expect(pending.message).toMatch(/^template "Autumn sale" \(UBR\.demo000001-autumn01\) has been waiting for review \(검수시작\) for \d+ days$/);
  });

  it('export writes the templates and their images back, and a plan of the export is empty', async () => {
    emu = await emulator(SEED);
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    const out = join(tmp, 'exported');
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(exp.code, exp.stderr).toBe(0);
    // The summary counts every kind the registry exports, templates included (it once left them out);
    // the brand page needs an account to be read, and the summary says it was not, rather than "0 brand profiles".
    expect(exp.stdout).toContain(`Exported ${BRAND}: 0 auto-reply files, 0 auto-replies, 0 logos, 2 templates, layout not read, 0 rooms, 0 bidirectional rooms, brand profile not read, privilege not read\n`);
    expect(exp.stdout).toContain('  note: the brand profile was not read, so it is not exported: no account to read the brand page as');
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8'));
    expect(Object.keys(written.templates).sort()).toEqual(['autumn01', 'hours01']);
    expect(written.templates.autumn01.body).toContainEqual({ param: 'media', value: { path: 'images/templates/autumn.png' } });
    expect(readFileSync(join(out, 'images', 'templates', 'autumn.png'))).toEqual(readFileSync(join(CASE, 'images', 'autumn.png')));
    expect(written.templates.hours01.formattedString.RCSMessage.openrichcardMessage.layout.children[0].children[2].text).toBe('We open at {{open}} and close at {{close}} today.');
    const plan = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(plan.stdout + plan.stderr).toContain('No changes. The live brand matches the manifests.');
    expect(plan.code).toBe(0);
  });
});
