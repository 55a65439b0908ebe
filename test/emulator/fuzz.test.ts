import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, call, form, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e));

const JSON_ROUTES: [string, string][] = [
  ['POST', `/api/1.1/brand/${BRAND}/autoreplymsg`],
  ['POST', `/api/1.1/brand/${BRAND}/bidirectional/chatbot/0212345678/persistentmenu`],
  ['PUT', `/api/1.1/brand/${BRAND}/bidirectional/chatbot/0212345678/persistentmenu`],
  ['PUT', `/api/1.1/brand/${BRAND}/bidirectional/chatbot/0212345678/persistentmenu/pause`],
  ['POST', '/api/1.1/token'],
];

function expectEnvelope(a: { status: number; body: any }): void {
  expect([200, 400, 401]).toContain(a.status);
  if (a.status !== 200) expect(a.body?.error?.code ?? a.body?.code).toMatch(/^\d{5}$/);
}

describe('fuzzing: random bodies never crash the emulator or get a 5xx', () => {
  it('random JSON values on every JSON route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...JSON_ROUTES), fc.jsonValue({ maxDepth: 4 }), async ([method, path], value) => {
        expectEnvelope(await call(emu, method, path, { json: value }));
      }),
      { numRuns: 150, seed: 20261121 },
    );
  });

  it('random objects shaped like the real requests', async () => {
    const field = fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.anything(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 3 }));
    const autoReply = fc.record({ autoReplyMsgName: field, messagebaseId: fc.oneof(fc.constantFrom('SCS00000', 'SCwThM00', 'CCwMhM0200'), field), body: fc.oneof(fc.dictionary(fc.constantFrom('title', 'description', 'media', 'media1'), field), field), buttons: field, chipList: fc.oneof(fc.array(fc.record({ action: field, reply: fc.record({ autoReplyMsgId: field }) }), { maxLength: 3 }), field) }, { requiredKeys: [] });
    const menu = fc.record({ persistentMenu: fc.record({ menu: fc.oneof(fc.array(fc.record({ type: fc.oneof(fc.constantFrom('reply', 'feed', 'action', 'menu'), field), title: field, ordNo: field, autoReplyMsgId: field, actionType: field, action: field }, { requiredKeys: [] }), { maxLength: 7 }), field) }, { requiredKeys: [] }) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(autoReply, menu, async (ar, m) => {
        expectEnvelope(await call(emu, 'POST', `/api/1.1/brand/${BRAND}/autoreplymsg`, { json: ar }));
        expectEnvelope(await call(emu, 'PUT', `/api/1.1/brand/${BRAND}/bidirectional/chatbot/0212345678/persistentmenu`, { json: m }));
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('random multipart chatbot parts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v))), fc.string({ maxLength: 12 }), async (text, name) => {
        await admin(emu, 'POST', 'reset');
        const a = await call(emu, 'PUT', `/api/1.1/brand/${BRAND}/chatbot/0212345678`, { form: form({ chatbot: text }, { subNumCertificate: { name: `${name}.pdf`, bytes: Buffer.from(text) } }) });
        expectEnvelope(a);
        const b = await call(emu, 'POST', `/api/1.1/brand/${BRAND}/chatbot`, { form: form({ chatbots: text }, { subNumCertificate: { name: `${name}.png`, bytes: Buffer.from('x') } }) });
        expectEnvelope(b);
      }),
      { numRuns: 100, seed: 99 },
    );
    expect((await admin(emu, 'GET', 'store')).status).toBe(200);
  });
});
