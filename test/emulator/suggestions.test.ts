// The emulator refuses a malformed button or chip itself, with the public
// document's codes: 64358 `Invalid buttons format [field]` and 64359 `Invalid
// chipList format [field]`, on auto-reply create and update and on a message
// send. It accepts every well-formed form, postback left out included (the
// service fills it in). test/e2e/malformed-actions.test.ts shows that rcsctl's
// own checks refuse the same faults before anything is sent.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { suggestionFault } from '../../src/emulator/suggestions.js';
import { packageRoot } from '../../src/util/paths.js';
import { BRAND, call, errorOf, start } from './helpers.js';
import { BASE_MESSAGE, MESSAGING_SEED, sendMessage } from './messaging-helpers.js';

const AR = `/api/1.1/brand/${BRAND}/autoreplymsg`;
const url = { openUrl: { url: 'https://example.com/' } };

/** Every suggestion of the every-suggestion fixture, as its manifest writes it (reply links by id here). */
function fixtureSuggestions(): unknown[] {
  const doc = parse(readFileSync(join(packageRoot(), 'test', 'fixtures', 'every-suggestion', 'brand.yaml'), 'utf8')) as { autoReplies: Record<string, { buttons?: { suggestions?: unknown[] }[]; chipList?: unknown[] }> };
  return Object.values(doc.autoReplies).flatMap((a) => [...(a.buttons ?? []).flatMap((g) => g.suggestions ?? []), ...(a.chipList ?? [])]).map((s) => {
    const reply = (s as { reply?: Record<string, unknown> }).reply;
    if (reply?.autoReply === undefined) return s;
    const { autoReply: _handle, ...rest } = reply;
    return { reply: { ...rest, autoReplyMsgId: 'ARM000000000001' } };
  });
}

describe('suggestionFault', () => {
  it('accepts every action type and reply in every form, with or without a postback', () => {
    const all = fixtureSuggestions();
    expect(all.length).toBeGreaterThan(10);
    for (const s of all) expect(suggestionFault(s, 'chipList[0]'), JSON.stringify(s)).toBeUndefined();
    expect(suggestionFault({ action: { displayText: 'Write', composeAction: { composeTextMessage: { phoneNumber: '0212345678', text: '' } } } }, 'c')).toBeUndefined();
    expect(suggestionFault({ reply: { displayText: 'Agent', postback: { data: 'chatbot=agent' } } }, 'c')).toBeUndefined();
  });

  it.each([
    ['not an object', 'x', 'c'],
    ['neither action nor reply', {}, 'c'],
    ['both action and reply', { action: { displayText: 'Go', urlAction: url }, reply: { displayText: 'Go' } }, 'c'],
    ['no displayText', { action: { urlAction: url } }, 'c.action.displayText'],
    ['displayText over 25', { action: { displayText: 'x'.repeat(26), urlAction: url } }, 'c.action.displayText'],
    ['postback data over 2048', { reply: { displayText: 'Go', postback: { data: 'z'.repeat(2049) } } }, 'c.reply.postback.data'],
    ['a postback that is not {data}', { action: { displayText: 'Go', urlAction: url, postback: 'x' } }, 'c.action.postback'],
    ['no action type', { action: { displayText: 'Go' } }, 'c.action'],
    ['two action types', { action: { displayText: 'Go', urlAction: url, dialerAction: { dialPhoneNumber: { phoneNumber: '02' } } } }, 'c.action'],
    ['an unknown action type', { action: { displayText: 'Go', teleportAction: {} } }, 'c.action.teleportAction'],
    ['a url that is not http(s)', { action: { displayText: 'Go', urlAction: { openUrl: { url: 'ftp://example.com' } } } }, 'c.action.urlAction.openUrl.url'],
    ['a latitude out of range', { action: { displayText: 'Map', mapAction: { showLocation: { location: { latitude: 91, longitude: 0 } } } } }, 'c.action.mapAction.showLocation.location.latitude'],
    ['both map forms', { action: { displayText: 'Map', mapAction: { showLocation: { location: { latitude: 1, longitude: 1 } }, requestLocationPush: {} } } }, 'c.action.mapAction.requestLocationPush'],
    ['a recording of another type', { action: { displayText: 'Rec', composeAction: { composeRecordingMessage: { phoneNumber: '02', type: 'IMAGE' } } } }, 'c.action.composeAction.composeRecordingMessage.type'],
    ['a dial number with letters', { action: { displayText: 'Call', dialerAction: { dialPhoneNumber: { phoneNumber: 'call me' } } } }, 'c.action.dialerAction.dialPhoneNumber.phoneNumber'],
    ['an empty clipboard text', { action: { displayText: 'Copy', clipboardAction: { copyToClipboard: { text: '' } } } }, 'c.action.clipboardAction.copyToClipboard.text'],
    ['a field a reply does not have', { reply: { displayText: 'Go', urlAction: url } }, 'c.reply.urlAction'],
  ])('refuses %s, naming the field', (_name, raw, field) => {
    expect(suggestionFault(raw, 'c')).toBe(field);
  });
});

describe('over HTTP', () => {
  const simple = { autoReplyMsgName: 'Malformed', messagebaseId: 'SCS00000', body: { description: 'x' } };

  it('auto-reply create and update: 64358 for a button, 64359 for a chip; nothing is stored', async () => {
    const emu: RunningEmulator = await start();
    try {
      const badButton = { ...simple, buttons: [{ suggestions: [{ action: { displayText: 'Go', urlAction: { openUrl: {} } } }] }] };
      expect(errorOf(await call(emu, 'POST', AR, { json: badButton }))).toEqual({ status: 400, code: '64358', message: 'Invalid buttons format [buttons[0].suggestions[0].action.urlAction.openUrl.url]' });
      expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].some((a) => a.autoReplyMsgName === 'Malformed')).toBe(false);

      const created = await call(emu, 'POST', AR, { json: { ...simple, chipList: [{ action: { displayText: 'Go', urlAction: url } }] } });
      expect(created.status).toBe(200);
      const id = created.body.result[0].autoReplyMsgId as string;
      const badChip = { ...simple, chipList: [{ action: { displayText: 'Go', urlAction: url } }, { action: { displayText: 'Go', urlAction: url, clipboardAction: { copyToClipboard: { text: 'x' } } } }] };
      expect(errorOf(await call(emu, 'PUT', `${AR}/${id}`, { json: badChip }))).toEqual({ status: 400, code: '64359', message: 'Invalid chipList format [chipList[1].action]' });
    } finally {
      await emu.close();
    }
  });

  it('message send: the same checks, with the agency interface\'s 4xxxx codes, before any permission check', async () => {
    const emu: RunningEmulator = await start(MESSAGING_SEED);
    try {
      const chip = await sendMessage(emu, { ...BASE_MESSAGE, agencyKey: 'wrong', chipList: [{ action: { displayText: 'x'.repeat(26), urlAction: url } }] });
      expect([chip.status, chip.body]).toEqual([400, { code: '41007', message: 'Invalid chipList format [chipList[0].action.displayText]' }]);
      const button = await sendMessage(emu, { ...BASE_MESSAGE, buttons: [{}, { suggestions: [{ action: { displayText: 'Call', dialerAction: {} } }] }] });
      expect([button.status, button.body]).toEqual([400, { code: '41006', message: 'Invalid buttons format [buttons[1].suggestions[0].action.dialerAction.dialPhoneNumber]' }]);
    } finally {
      await emu.close();
    }
  });
});
