// A brand that uses every suggestion type and postback data: it validates,
// applies, plans empty, exports with the user's postback data kept (and the
// service's fill-in dropped), and the export plans empty too. Every request and
// answer of the run is checked against the service contract when the emulator
// closes (test/contract-recorder.ts).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT } from './helpers.js';

const MANIFEST = join(ROOT, 'test', 'fixtures', 'every-suggestion');
let emu: RunningEmulator;
let out: string;
beforeEach(async () => {
  emu = await emulator();
  out = mkdtempSync(join(tmpdir(), 'rcsctl-every-'));
});
afterEach(async () => {
  await emu.close();
  rmSync(out, { recursive: true, force: true });
});

describe('every suggestion type, with postback data', () => {
  it('validates, applies, plans empty, and round-trips through export', async () => {
    expect((await cli(['validate', MANIFEST, '--strict'])).code).toBe(0);
    const apply = await cli(['apply', MANIFEST, '--yes'], { emu });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const plan = await cli(['plan', MANIFEST, '--detailed-exitcode'], { emu });
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);

    // Stored as sent: the user's data kept, empty data left for the service to fill.
    const brand = emu.store.brands.get(BRAND);
    const everything = [...(brand?.autoReplies.values() ?? [])].find((a) => a.autoReplyMsgName === 'Every button');
    const kinds = [...(everything?.buttons?.[0]?.suggestions ?? []), ...(everything?.chipList ?? [])].map((s) => (s.reply !== undefined ? (s.reply.autoReplyMsgId !== undefined ? 'link' : 'chatbot') : Object.keys(s.action ?? {}).find((k) => k.endsWith('Action'))));
    expect(kinds).toEqual(['urlAction', 'localBrowserAction', 'mapAction', 'mapAction', 'calendarAction', 'clipboardAction', 'composeAction', 'composeAction', 'dialerAction', 'link', 'chatbot']);
    const filled = everything?.filledChipList?.map((s) => (s.action ?? s.reply)?.postback?.data);
    expect(filled?.[1]).toBe('chip=coupon');
    expect(filled?.[0]).toMatch(/^postbackId=PB\d+;;$/);
    expect(filled?.[6]).toBe('chatbot=agent');

    const exported = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(exported.code).toBe(0);
    const yaml = readFileSync(join(out, 'brand.yaml'), 'utf8');
    for (const data of ['button=site', 'chip=coupon', 'chatbot=agent']) expect(yaml).toContain(data);
    expect(yaml).not.toContain('postbackId=');
    for (const type of ['localBrowserAction', 'requestLocationPush', 'createCalendarEvent', 'copyToClipboard', 'composeRecordingMessage']) expect(yaml).toContain(type);
    const again = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
  });

  it('a room menu keeps its narrower rule: lint names dialerAction as the only action', async () => {
    const r = await cli(['validate', join(ROOT, 'test', 'fixtures', 'manifests', '204-menu-actiontype.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('a room menu action may only be dialerAction');
  });
});
