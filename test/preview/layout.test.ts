// A layout as a handset shows it, drawn by the layout kind on the preview's
// open interface: its own section of the brand page (counted in the header),
// the card its components make (a title, a text, an image, a table of its rows
// with its alignment and bold column, a button in its colour), and, on
// `plan --preview`, the live card beside the proposed one with the changed
// component outlined.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'node-html-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT } from '../e2e/helpers.js';

const CASES = join(ROOT, 'test', 'plan-cases');
const AGENCY = { RCSCTL_TOKEN: 'emulator-agency-token', BRAND_KEY: 'BK.demo0000000001', NO_COLOR: '1' };

let tmp: string;
let emu: RunningEmulator | undefined;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-layout-preview-'));
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? htmlFiles(p) : name.endsWith('.html') ? [p] : [];
  });
}

describe('a layout on a handset', () => {
  it('has a section of its own, each layout drawn as the card its components make', async () => {
    const out = join(tmp, 'site');
    const r = await cli(['preview', join(CASES, '110-layout-from-nothing', 'manifest.yaml'), '-o', out], { env: AGENCY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 layouts');
    const page = parse(readFileSync(join(out, BRAND, 'index.html'), 'utf8'), { blockTextElements: { script: true, style: true } });
    expect(page.querySelectorAll('main > section h2').map((h) => h.text)).toContain('Layouts');
    expect(page.querySelector('header.top p')?.text).toContain('2 layouts');
    expect(page.querySelector('style')?.text).toContain('.lo-table{');

    const receipt = page.querySelector('#layout-receipt');
    expect(receipt?.getAttribute('data-address')).toBe('layout.receipt');
    expect(receipt?.querySelector('.meta')?.text).toMatch(/^layout\.receipt · LMS · .*manifest\.yaml:\d+$/);
    expect(receipt?.querySelectorAll('.lo-part').map((p) => p.getAttribute('data-component'))).toEqual(['CP_TITLE_01', 'CP_TEXT_01', 'CP_TABLE_01', 'CP_BUTTON_01']);
    expect(receipt?.querySelector('.lo-title')?.text).toBe('Title');
    const table = receipt?.querySelector('.lo-table');
    expect(table?.querySelectorAll('tr').length).toBe(10);
    // The right column bold and aligned right, the left as the component's own (normal, left).
    expect(table?.querySelector('tr')?.innerHTML).toBe('<td style="text-align:left">Item 1</td><td style="text-align:right" class="lo-bold">Value</td>');
    expect(receipt?.querySelector('.lo-btn')?.getAttribute('style')).toBe('border-color:#3B2A1A;color:#3B2A1A');

    const notice = page.querySelector('#layout-notice');
    expect(notice?.querySelector('.lo-media')?.getAttribute('aria-label')).toBe('CP_IMAGE_01');
    expect(page.querySelector('nav.toc a[href="#layout-notice"]')?.text).toBe('Notice with image');
  });

  it('plan --preview draws the live card beside the proposed one, the changed table outlined', async () => {
    const dir = join(CASES, '111-layout-changed');
    emu = await emulator(join(dir, 'seed.yaml'));
    const site = join(tmp, 'changes');
    const r = await cli(['plan', join(dir, 'manifest.yaml'), `--preview=${site}`], { emu, env: { RCSCTL_BASE_URL: emu.url, ...AGENCY } });
    expect(r.code, r.stderr).toBe(0);
    const pages = htmlFiles(site).map((p) => readFileSync(p, 'utf8')).filter((t) => t.includes('layout.receipt'));
    expect(pages.length).toBe(1);
    const page = parse(pages[0] as string, { blockTextElements: { script: true, style: true } });
    const before = page.querySelector('.side.before');
    const after = page.querySelector('.side.after');
    expect(before?.querySelectorAll('.lo-table tr').length).toBe(5);
    expect(after?.querySelectorAll('.lo-table tr').length).toBe(10);
    expect(before?.querySelectorAll('[data-changed="true"]').map((p) => p.getAttribute('data-path'))).toEqual(['bodyComposition[1]']);
    expect(after?.querySelectorAll('[data-changed="true"]').map((p) => p.getAttribute('data-path'))).toEqual(['bodyComposition[1]', 'bodyComposition[2]', 'footerComposition[0]']);
    expect(after?.querySelectorAll('.lo-part').map((p) => p.getAttribute('data-component'))).toEqual(['CP_TITLE_01', 'CP_TEXT_01', 'CP_TABLE_01', 'CP_TEXT_01', 'CP_BUTTON_01']);
    expect(page.querySelector('header.top p')?.text).toContain('layout');
  });
});
