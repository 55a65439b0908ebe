// A malformed button or chip is refused three times over, and rcsctl's own check
// comes first: `validate` names the field before anything is sent (and `apply`
// sends nothing), the contract names it on the wire, and the emulator refuses
// it with the public document's code: 64358 for a button, 64359 for a chip.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { contractOf } from '../contract-recorder.js';
import { BRAND, cli, emulator, TOKEN } from './helpers.js';

const url = { openUrl: { url: 'https://example.com/' } };
const call = { dialPhoneNumber: { phoneNumber: '0212345678' } };

/** name, where it sits, the suggestion as a manifest writes it, the lint code, the field the emulator names. */
const CASES: [string, 'buttons' | 'chipList', Record<string, unknown>, string, string][] = [
  ['display text over 25 characters', 'chipList', { action: { displayText: 'x'.repeat(26), urlAction: url } }, 'RCS205', 'chipList[0].action.displayText'],
  ['an action that names no action type', 'buttons', { action: { displayText: 'Go' } }, 'RCS211', 'buttons[0].suggestions[0].action'],
  ['two action types in one action', 'buttons', { action: { displayText: 'Go', urlAction: url, dialerAction: call } }, 'RCS211', 'buttons[0].suggestions[0].action'],
  ['a url that is not one', 'chipList', { action: { displayText: 'Go', urlAction: { openUrl: { url: 'not a url' } } } }, 'RCS207', 'chipList[0].action.urlAction.openUrl.url'],
  ['a calendar event without its end', 'chipList', { action: { displayText: 'Event', calendarAction: { createCalendarEvent: { startTime: '2026-12-24T10:00:00.000Z', title: 'Tasting' } } } }, 'RCS202', 'chipList[0].action.calendarAction.createCalendarEvent.endTime'],
  ['a compose text over 100 characters', 'buttons', { action: { displayText: 'Write', composeAction: { composeTextMessage: { phoneNumber: '0212345678', text: 'y'.repeat(101) } } } }, 'RCS205', 'buttons[0].suggestions[0].action.composeAction.composeTextMessage.text'],
  ['a field the action type does not have', 'chipList', { action: { displayText: 'Call', dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678', extension: '12' } } } }, 'RCS201', 'chipList[0].action.dialerAction.dialPhoneNumber.extension'],
  ['postback data over 2048 characters', 'chipList', { action: { displayText: 'Go', urlAction: url, postback: { data: 'z'.repeat(2049) } } }, 'RCS205', 'chipList[0].action.postback.data'],
  ['an action and a reply in one chip', 'chipList', { action: { displayText: 'Go', urlAction: url }, reply: { displayText: 'Go' } }, 'RCS212', 'chipList[0]'],
];

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-malformed-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The suggestion as the client would send it: every part with a postback. */
function onTheWire(s: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = { postback: { data: '' }, ...(v as object) };
  return out;
}

describe('a malformed button or chip', () => {
  it.each(CASES)('%s: validate names it, apply sends nothing, and the emulator refuses it', async (name, where, suggestion, lintCode, field) => {
    const placed = where === 'buttons' ? { buttons: [{ suggestions: [suggestion] }] } : { chipList: [suggestion] };
    const manifest = { apiVersion: 'rcsctl/v1', kind: 'Brand', brand: { id: BRAND }, autoReplies: { bad: { name: `Bad: ${name}`, messagebaseId: 'SCS00000', body: { description: 'x' }, ...placed } } };
    const file = join(dir, `${lintCode}-${where}.yaml`);
    writeFileSync(file, stringify(manifest));

    const validate = await cli(['validate', file]);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain(lintCode);
    const apply = await cli(['apply', file, '--yes'], { emu });
    expect(apply.code).toBe(1);
    expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].some((a) => a.autoReplyMsgName.startsWith('Bad:'))).toBe(false);

    // Sent anyway, by a client that skips the checks.
    const wire = where === 'buttons' ? { buttons: [{ suggestions: [onTheWire(suggestion)] }] } : { chipList: [onTheWire(suggestion)] };
    const res = await request(`${emu.url}/api/1.1/brand/${BRAND}/autoreplymsg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ autoReplyMsgName: `Bad: ${name}`, messagebaseId: 'SCS00000', body: { description: 'x' }, ...wire }),
    });
    const answer = (await res.body.json()) as { error: { code: string; message: string } };
    expect(res.statusCode).toBe(400);
    const code = where === 'buttons' ? '64358' : '64359';
    expect(answer.error).toEqual({ code, message: `Invalid ${where} format [${field}]` });
    const violations = await contractOf(emu).clear();
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.operation === 'autoReply.create' && v.side === 'request')).toBe(true);
  });
});
