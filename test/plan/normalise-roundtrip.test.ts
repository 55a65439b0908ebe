// Property: whatever auto-reply a manifest describes, once its request is
// stored by the service (the emulator, over real HTTP) and read back, the
// normalised live object equals the normalised desired one. A difference here
// would show as drift in every plan after an apply. The same for room menus.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isServiceError, type RcsClient } from '../../src/api/index.js';
import type { Action, PersistentMenuRequestItem } from '../../src/api/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { autoReplyKind, toRequest } from '../../src/kinds/auto-reply/index.js';
import { chatbotKind } from '../../src/kinds/chatbot/index.js';
import { persistentMenuKind, type DesiredMenu } from '../../src/kinds/persistent-menu/index.js';
import type { DesiredAutoReply, DesiredMenuItem, DesiredSuggestion } from '../../src/kinds/index.js';
import { diffObjects } from '../../src/plan/diff.js';
import { contextFor, desiredAutoReply, desiredBrand, desiredChatbot, liveAutoReply, liveBrand } from '../kinds/helpers.js';

const BRAND = { id: 'BR.demo000001' };
const text = fc.string({ minLength: 0, maxLength: 12 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 12 });

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ displayText: nonEmpty, urlAction: fc.record({ openUrl: fc.record({ url: fc.webUrl() }) }) }),
  fc.record({ displayText: nonEmpty, dialerAction: fc.record({ dialPhoneNumber: fc.record({ phoneNumber: fc.stringMatching(/^0\d{9}$/) }) }) }),
) as fc.Arbitrary<Action>;

const suggestion = (targets: string[]): fc.Arbitrary<DesiredSuggestion> =>
  fc.oneof(
    action.map((a) => ({ action: a })),
    fc.record({ autoReplyMsgId: fc.constantFrom(...targets), displayText: nonEmpty }).map((r) => ({ reply: r })),
  );

const bodies = fc.oneof(
  fc.record({ messagebaseId: fc.constantFrom('SCS00000', 'SCL00000'), body: fc.record({ description: text }) }),
  fc.record({ messagebaseId: fc.constantFrom('SCwThM00', 'SCwThT00'), body: fc.record({ title: text, description: text }, { requiredKeys: ['description'] }) }),
  fc.record({
    messagebaseId: fc.constantFrom('CCwMhM0200', 'CCwMhM0600'),
    body: fc.record({ title1: text, description1: text, title2: text, description2: text }, { requiredKeys: ['description1'] }),
  }),
);

const autoReply = (targets: string[]): fc.Arbitrary<Omit<DesiredAutoReply, 'handle' | 'name' | 'source'>> =>
  fc.record(
    {
      base: bodies,
      copyAllowed: fc.boolean(),
      buttons: fc.array(fc.oneof(fc.constant({}), fc.record({ suggestions: fc.array(suggestion(targets), { maxLength: 2 }) })), { maxLength: 3 }),
      chipList: fc.array(suggestion(targets), { maxLength: 3 }),
    },
    { requiredKeys: ['base'] },
  ).map(({ base, ...rest }) => ({ ...base, ...rest }) as Omit<DesiredAutoReply, 'handle' | 'name' | 'source'>);

describe('auto-reply normalisation round trip through the service', () => {
  let emu: RunningEmulator;
  let client: RcsClient;
  const targets = ['ARM-T1', 'ARM-T2'];

  beforeAll(async () => {
    emu = await startEmulator({
      seed: {
        accounts: [{ userId: 'master', role: 'master', token: 'emulator-master-token', brands: [{ brandId: BRAND.id, role: 'representative' }] }],
        brands: [
          {
            brandId: BRAND.id,
            brandKey: 'BK.demo0000000001',
            autoReplies: targets.map((id) => ({ autoReplyMsgId: id, autoReplyMsgName: id, messagebaseId: 'SCS00000', body: { description: id } })),
          },
        ],
      },
      port: 0,
    });
    client = createClient({ baseUrl: emu.url, credentials: { token: 'emulator-master-token' }, concurrency: 4 });
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
  });

  it('stored and read back, a desired auto-reply shows no difference', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(autoReply(targets), async (fields) => {
        const d = desiredAutoReply(`h${n}`, { ...fields, name: `Auto-reply ${n++}` });
        const brand = desiredBrand({ autoReplies: [d] });
        const { autoReplyMsgId } = await client.autoReplies.create(BRAND, toRequest(d, contextFor(brand, liveBrand())));
        const detail = await client.autoReplies.get(BRAND, autoReplyMsgId);
        const ctx = contextFor(brand, liveBrand({ autoReplies: [detail] }));
        expect(diffObjects(autoReplyKind.diff.normaliseLive(detail, ctx), autoReplyKind.diff.normaliseDesired(d, ctx, detail))).toEqual([]);
      }),
      { numRuns: 80, seed: 20261121 },
    );
  });
});

describe('menu and room normalisation round trip through the service', () => {
  let emu: RunningEmulator;
  let client: RcsClient;
  const room = '0212345678';

  beforeAll(async () => {
    emu = await startEmulator({
      seed: {
        accounts: [{ userId: 'master', role: 'master', token: 'emulator-master-token', brands: [{ brandId: BRAND.id, role: 'representative' }] }],
        brands: [
          {
            brandId: BRAND.id,
            brandKey: 'BK.demo0000000001',
            chatbots: [{ chatbotId: room, subTitle: 'Coffee Co', rcsReply: '1' }],
            autoReplies: [{ autoReplyMsgId: 'ARM-T1', autoReplyMsgName: 'T1', messagebaseId: 'SCS00000', body: { description: 'T1' } }],
          },
        ],
      },
      port: 0,
    });
    client = createClient({ baseUrl: emu.url, credentials: { token: 'emulator-master-token' }, concurrency: 4 });
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
  });

  const item: fc.Arbitrary<DesiredMenuItem> = fc.oneof(
    fc.record({ type: fc.constant('reply' as const), title: nonEmpty, autoReply: fc.constant('t1') }),
    fc.record({ type: fc.constant('reply' as const), title: nonEmpty }),
    fc.record({ type: fc.constant('feed' as const), title: nonEmpty, feedId: nonEmpty }, { requiredKeys: ['type', 'title'] }),
    fc.record({
      type: fc.constant('action' as const),
      title: nonEmpty,
      actionType: fc.constant('dialerAction' as const),
      action: fc.record({ dialerAction: fc.record({ dialPhoneNumber: fc.record({ phoneNumber: fc.stringMatching(/^0\d{9}$/) }) }) }),
    }),
  );

  it('a menu replaced and read back shows no difference, in ordNo order', async () => {
    const t1 = desiredAutoReply('t1', { name: 'T1', body: { description: 'T1' } });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 5 }), async (items) => {
        const brand = desiredBrand({ autoReplies: [t1], chatbots: [desiredChatbot(room, { persistentMenu: items })] });
        const before = await client.chatbots.get(BRAND, room);
        const live0 = liveBrand({ autoReplies: [liveAutoReply('ARM-T1', { autoReplyMsgName: 'T1', body: { description: 'T1' } })], chatbots: [before] });
        const d = persistentMenuKind.desired(brand)[0] as DesiredMenu;
        const step = persistentMenuKind.diff.updateStep(d, before, contextFor(brand, live0), { id: 'x', kind: 'persistentMenu', address: 'a', name: 'n', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'p' });
        const menu = ((step as { request: { persistentMenu: { menu: PersistentMenuRequestItem[] } } }).request).persistentMenu.menu;
        try {
          if ((before.persistentMenu ?? []).length > 0) await client.menus.replace(BRAND, room, menu);
          else await client.menus.create(BRAND, room, menu);
        } catch (err) {
          if (!isServiceError(err, '64323')) throw err; // the same menu again: No changes
        }
        const after = await client.chatbots.get(BRAND, room);
        const ctx = contextFor(brand, liveBrand({ autoReplies: live0.autoReplies, chatbots: [after] }));
        expect(diffObjects(persistentMenuKind.diff.normaliseLive(after, ctx), persistentMenuKind.diff.normaliseDesired(d, ctx, after))).toEqual([]);
        // The room itself is untouched by a menu change, and unmanaged fields stay unmanaged.
        expect(diffObjects(chatbotKind.diff.normaliseLive(after, ctx), chatbotKind.diff.normaliseDesired(desiredChatbot(room), ctx, after))).toEqual([]);
      }),
      { numRuns: 40, seed: 20261121 },
    );
  });
});
