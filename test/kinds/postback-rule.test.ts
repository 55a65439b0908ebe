// One rule, one place: which postback data is the service's (src/spec/postback.ts).
// Export writes a live auto-reply's suggestions back as a manifest, and the kind
// compares that manifest with the same live auto-reply: for any postback data
// (the user's, empty, the service's fill-in, or something that only looks like
// it), the two must agree, or export followed by plan is not empty.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoReplyKind } from '../../src/kinds/auto-reply/index.js';
import { autoReplyExporter } from '../../src/kinds/auto-reply/export.js';
import type { DesiredAutoReply, DesiredSuggestion } from '../../src/kinds/index.js';
import type { ExportContext } from '../../src/kinds/resource-kind.js';
import { diffObjects } from '../../src/plan/diff.js';
import { isServicePostback, servicePostback, SERVICE_POSTBACK } from '../../src/spec/postback.js';
import { contextFor, desiredAutoReply, desiredBrand, liveAutoReply, liveBrand } from './helpers.js';

const exportContext: ExportContext = { handle: () => undefined, image: (f) => f, note: () => undefined };
const url = { openUrl: { url: 'https://e.x' } };

/** Postback data of every sort the service can answer with. */
const data = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^[A-Za-z0-9]{0,12}$/).map(servicePostback),
  // Near misses: user data that only looks like the fill-in.
  fc.constantFrom('postbackId=PB1;', 'postbackId=PB1;;x', 'xpostbackId=PB1;;', 'postbackId=a;b;;', 'postbackid=PB1;;'),
);

describe('which postback data is the service\'s', () => {
  it('the service\'s fill-in is postbackId=<id>;;, and only that (with empty data) is not the user\'s', () => {
    expect(isServicePostback(servicePostback('PB000000000001'))).toBe(true);
    expect(isServicePostback('')).toBe(true);
    expect(isServicePostback(undefined)).toBe(true);
    for (const mine of ['button=site', 'postbackId=PB1;', 'xpostbackId=PB1;;', 'postbackId=a;b;;']) expect(isServicePostback(mine)).toBe(false);
    expect(SERVICE_POSTBACK.test('postbackId=;;')).toBe(true);
  });

  it('export keeps exactly the data the kind compares: export, then plan, is empty for any postback data', () => {
    fc.assert(
      fc.property(data, data, (actionData, replyData) => {
        const live = liveAutoReply('ARM1', {
          autoReplyMsgName: 'Hours',
          chipList: [
            { action: { displayText: 'Web', urlAction: url, postback: { data: actionData } } },
            { reply: { displayText: 'Agent', postback: { data: replyData } } },
          ],
        });
        const entry = autoReplyExporter.entries([live], { ...exportContext, handle: (kind, id) => (kind === 'autoReply' && id === 'ARM1' ? 'hours' : undefined) }).hours as {
          chipList: DesiredSuggestion[];
        };
        const desired: DesiredAutoReply = desiredAutoReply('hours', { name: 'Hours', body: live.body, chipList: entry.chipList });
        const ctx = contextFor(desiredBrand({ autoReplies: [desired] }), liveBrand({ autoReplies: [live] }));
        expect(diffObjects(autoReplyKind.diff.normaliseLive(live, ctx), autoReplyKind.diff.normaliseDesired(desired, ctx, live))).toEqual([]);
        // And the user's data is written, the service's is not.
        expect(entry.chipList[0]?.action?.postback).toEqual(isServicePostback(actionData) ? undefined : { data: actionData });
        expect(entry.chipList[1]?.reply?.postback).toEqual(isServicePostback(replyData) ? undefined : { data: replyData });
      }),
      { numRuns: 200 },
    );
  });
});
