// The controller's pages in a real browser (headless Chromium through
// playwright-core, test/chromium.ts, as the preview's browser test), against a
// controller in-process and the emulator over real HTTP. The page at `/`
// counts brands per state, sorts and filters by state, brand, owner and age,
// and redraws from /status without reloading when a brand changes; a brand's
// page shows its pending plan with fields before and after, the findings with
// a rejected review's operator reason (escaped: it is markup), the history,
// and the preview drawn by `rcsctl plan --preview`'s code in a frame. Nothing
// is fetched from anywhere but the controller, and the policy refuses nothing
// the pages do (a refused script would leave them static).
//
// UPDATE_SCREENSHOTS=1 writes docs/img/controller-page.png and
// docs/img/controller-brand.png (shown in docs/controller.md).

import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningController } from '../../src/controller/index.js';
import { renderBrandPage } from '../../src/controller/brand-page.js';
import { renderStatusPage } from '../../src/controller/status-page.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { controllerViews } from '../../src/render/controller-views.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { VERSION } from '../../src/version.js';
import { launchChromium } from '../chromium.js';
import { admin, BRAND, EXAMPLE, ROOT, TOKEN } from '../e2e/helpers.js';
import { get, pointWebhook, startFor, useControllerSuite, waitFor, waitIdle, waitState } from './helpers.js';

// The page.evaluate callbacks run in the browser; the test build has no DOM types.
declare const document: any, window: any;

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'img') : undefined;
const SECOND = 'BR.second0001';
const EVENTS_ROOM = '0298765432';
const REVISION = '9fceb02d0ae598e95dc970b74767f19372d61af8';
/** The operator's reason for the rejection: markup, which the page must show as text. */
const REASON = '<img src=x onerror=alert(1)> Logo too small';

let emu: RunningEmulator;
let client: RcsClient;
const { tmp } = useControllerSuite('rcsctl-controller-page-', (e, c) => {
  emu = e;
  client = c;
}, () => withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: SECOND }], TOKEN).seed);

let context: BrowserContext | undefined;
let ctl: RunningController;
const requested: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  // The example brand with its owners; a second brand of another team.
  const example = join(tmp, 'example');
  cpSync(EXAMPLE, example, { recursive: true });
  const yaml = readFileSync(join(example, 'brand.yaml'), 'utf8');
  writeFileSync(join(example, 'brand.yaml'), yaml.replace('  id: BR.demo000001\n', '  id: BR.demo000001\n  owners: ["@coffee/ops"]\n'));
  // A checkout: the history names its revision.
  mkdirSync(join(example, '.git'));
  writeFileSync(join(example, '.git', 'HEAD'), `${REVISION}\n`);
  mkdirSync(join(tmp, 'second'));
  writeFileSync(join(tmp, 'second', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${SECOND}\n  owners: ["@tea/platform"]\n`);
  ({ ctl } = await startFor(emu, client, [example, join(tmp, 'second')], { views: controllerViews(VERSION, ROOT) }));
  // One controller for the whole file (the suite closes the ones in `running` after each test).
  await waitIdle(ctl.url);
  context = await launchChromium(tmp, { loopback: true });
  context.on('request', (r) => requested.push(r.url()));
}, 120_000);

afterAll(async () => {
  await context?.close();
  await ctl?.close();
});

/** A page of the controller, its console errors (a refused script or style says so there) collected. */
async function open(path: string): Promise<Page> {
  if (context === undefined) throw new Error('the browser did not start (see the beforeAll error)');
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`a dialog opened: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(`${ctl.url}${path}`);
  return page;
}

/** The brand ids of the rows shown, in order. */
async function rows(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('#brands tbody tr')].map((tr) => tr.dataset.brand));
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS === undefined) return;
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, name), await page.screenshot({ fullPage: true }));
}

describe('the page at /, in Chromium', () => {
  it('counts per state; sorts and filters by state, brand, owner and age; redraws from /status without reloading', async () => {
    const page = await open('/');
    // The policy runs the page's own script by its hash: no inline script else, nothing from elsewhere.
    const policy = String((await request(`${ctl.url}/`)).headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'; connect-src 'self'/);
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    // The script drew the table from /status (the server's drawing has no "Updated" line).
    await page.waitForFunction(() => document.getElementById('updated').textContent.startsWith('Updated'));
    const status = (await get(ctl.url, '/status')).body as { brands: { brandId: string; state: string }[] };
    const counts = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#counts button')].map((b) => [b.dataset.state, Number(b.querySelector('b').textContent)])));
    const expected: Record<string, number> = {};
    for (const b of status.brands) expected[b.state] = (expected[b.state] ?? 0) + 1;
    expect(counts).toEqual(expected);
    // Owners are declared, so the column and its filter are there.
    expect(await page.evaluate(() => [...document.querySelectorAll('#brands thead th')].map((th) => th.textContent))).toEqual(['Brand', 'Owners', 'State', 'In state for', 'Last pass', 'Pending', 'Last error', 'Retry']);
    expect(await page.isVisible('#owner')).toBe(true);

    // Sort by brand, then the other way.
    await page.click('th button[data-sort=brand]');
    expect(await rows(page)).toEqual([BRAND, SECOND]);
    await page.click('th button[data-sort=brand]');
    expect(await rows(page)).toEqual([SECOND, BRAND]);
    expect(await page.getAttribute('th:has(button[data-sort=brand])', 'aria-sort')).toBe('descending');
    // Filters: by owner, by brand, by state (the count chip and the select), by age.
    await page.fill('#owner', 'coffee');
    expect(await rows(page)).toEqual([BRAND]);
    await page.fill('#owner', '');
    await page.fill('#brand', 'second');
    expect(await rows(page)).toEqual([SECOND]);
    await page.fill('#brand', '');
    const secondState = status.brands.find((b) => b.brandId === SECOND)!.state;
    await page.click(`#counts button[data-state="${secondState}"]`);
    expect(await rows(page)).toEqual(status.brands.filter((b) => b.state === secondState).map((b) => b.brandId).sort().reverse());
    expect(await page.inputValue('#state')).toBe(secondState);
    await page.selectOption('#state', '');
    await page.selectOption('#age', '604800');
    expect(await rows(page)).toEqual([]);
    expect(await page.textContent('#shown')).toBe('0 of 2 brands shown');
    await page.selectOption('#age', '0');
    // The view is kept in the address, so a reload or a shared link keeps it.
    expect(new URL(page.url()).hash).toBe('#sort=brand&dir=-1');

    // A console change: the row turns drifted without a reload (the marker set on this document survives).
    await page.evaluate(() => (window.marker = 'same document'));
    const before = await waitState(ctl.url, BRAND, ['waiting-review', 'drifted', 'in-sync']);
    await pointWebhook(emu, ctl.url);
    await consoleEdit('Closed for renovation');
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: EVENTS_ROOM, action: 'reject', reason: REASON });
    await waitState(ctl.url, BRAND, ['drifted'], before.passes);
    await page.waitForFunction((id) => document.querySelector(`#brands tr[data-brand="${id}"] td.state`)?.textContent === 'drifted', BRAND, { timeout: 15_000 });
    expect(await page.evaluate(() => window.marker)).toBe('same document');
    const pending = await page.textContent(`#brands tr[data-brand="${BRAND}"]`);
    expect(pending).toContain('autoReply.hours update');
    expect(pending).toContain('@coffee/ops');
    await shot(page, 'controller-page.png');
    await page.close();
  });

  it("a brand's page: the pending plan with before and after, the findings with the operator's reason, the history, the preview", async () => {
    await waitFor('the rejection to be seen', async () => ((await get(ctl.url, `/status/${BRAND}`)).body.findings.some((f: { approvalReason?: string }) => f.approvalReason === REASON) ? true : undefined));
    const page = await open(`/brands/${BRAND}`);
    expect(await page.textContent('h1 #state')).toBe('drifted');
    // The plan as `rcsctl plan` draws it: the field before and after.
    const plan = await page.textContent('#plan');
    expect(plan).toContain('autoReply.hours');
    expect(plan).toMatch(/~ body\.description: "Closed for renovation" → "Mon-Fri 7:00-20:00, Sat-Sun 9:00-18:00\. Closed on public holidays\."/);
    // The operator's reason, shown as the text it is (no element made of it, no alert).
    const findings = await page.textContent('#findings');
    expect(findings).toContain(`Reason given: ${REASON}`);
    expect(await page.evaluate(() => document.querySelectorAll('#findings img').length)).toBe(0);
    // The history: newest first, the notification that made the last pass.
    const history = await page.evaluate(() => [...document.querySelectorAll('#history tbody tr')].map((tr) => tr.textContent));
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history.join('\n')).toMatch(/notification (autoreplymsg modified|chatbot)/);
    expect(await page.getAttribute('#history tbody tr:first-child code', 'title')).toBe(REVISION);
    // The preview: plan --preview's before/after of the pending change, drawn in the frame.
    const frame = page.frameLocator('#preview');
    await expect.poll(async () => frame.locator('section.change').count(), { timeout: 10_000 }).toBe(1);
    expect(await frame.locator('section.change h2').textContent()).toContain('Opening hours');
    expect(await frame.locator('article.handset').count()).toBe(2);
    await page.waitForTimeout(300);
    await shot(page, 'controller-brand.png');
    // It refreshes in place too.
    await page.evaluate(() => (window.marker = 'kept'));
    await page.waitForFunction(() => document.getElementById('updated').textContent.startsWith('Updated'), undefined, { timeout: 15_000 });
    expect(await page.evaluate(() => window.marker)).toBe('kept');
    await page.close();
  });

  it('loads nothing from anywhere but the controller, and the policy refuses nothing the pages do', async () => {
    const page = await open(`/brands/${SECOND}/preview`);
    expect(await page.locator('header.top h1').count()).toBe(1);
    await page.close();
    expect(requested.length).toBeGreaterThan(5);
    expect(requested.filter((u) => !u.startsWith(`${ctl.url}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the page at /, drawn alone', () => {
  it('leaves the owners column and filter out when no brand declares owners; escapes every value', () => {
    const brand = { brandId: 'BR.a', state: 'failed' as const, pendingReasons: ['<script>x</script>'], passes: 1, lastError: { code: 'E_X', message: '<b>bad</b>', at: '2026-01-01T00:00:00.000Z' } };
    const status = { mode: 'observe' as const, ready: true, startedAt: '2026-01-01T00:00:00.000Z', queueDepth: 0, service: { state: 'ok' as const, since: '2026-01-01T00:00:00.000Z' }, brands: [brand] };
    const without = renderStatusPage(status);
    expect(without).not.toContain('>Owners<');
    expect(without).toContain('<label id="owner-filter" hidden>');
    expect(without).not.toContain('<script>x</script>');
    expect(without).not.toContain('<b>bad</b>');
    const withOwners = renderStatusPage({ ...status, brands: [{ ...brand, owners: ['@a/b'] }] });
    expect(withOwners).toContain('>Owners<');
    expect(withOwners).toContain('<td>@a/b</td>');
    expect(withOwners).toContain('<label id="owner-filter">');
  });
});

describe('the brand page, drawn alone', () => {
  it("escapes every value and lists an apply's steps with the fields before and after", () => {
    const html = renderBrandPage({
      declared: true,
      view: {
        brandId: 'BR.x',
        state: 'drifted',
        pendingReasons: ['<b>reason</b>'],
        passes: 1,
        history: [
          {
            startedAt: '2026-01-01T00:00:00.000Z',
            durationMs: 12,
            mode: 'apply',
            triggers: [{ kind: 'notification', type: '<i>x</i>' }],
            outcome: 'in-sync',
            planned: 1,
            revision: { commit: 'a'.repeat(40), source: 'git-sync' },
            steps: [{ address: 'autoReply.hours', op: 'update', result: 'done', message: 'updated', changes: [{ path: 'body.description', type: 'change', before: '</pre><script>', after: 'Open' }] }],
          },
        ],
      },
    });
    expect(html).not.toContain('<b>reason</b>');
    expect(html).not.toContain('<i>x</i>');
    expect(html).not.toContain('</pre><script>');
    expect(html).toContain('~ body.description: &#34;&#60;/pre&#62;&#60;script&#62;&#34; → &#34;Open&#34;');
    expect(html).toContain(`<code title="${'a'.repeat(40)}">aaaaaaaaaaaa</code>`);
    expect(html).toContain('No preview: this controller was started without the preview renderers.');
  });
});

async function consoleEdit(description: string): Promise<void> {
  for await (const item of client.autoReplies.list({ id: BRAND })) {
    if (item.autoReplyMsgName !== 'Opening hours') continue;
    const hours = await client.autoReplies.get({ id: BRAND }, item.autoReplyMsgId);
    const { buttons, chipList } = hours as typeof hours & { buttons?: never; chipList?: never };
    await client.autoReplies.update({ id: BRAND }, item.autoReplyMsgId, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description }, ...(buttons !== undefined ? { buttons } : {}), ...(chipList !== undefined ? { chipList } : {}) });
  }
}
