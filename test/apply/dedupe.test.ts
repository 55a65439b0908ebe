// `apply --dedupe`, the pure part: which copy of a managed name is kept (a copy
// a state keeps from deletion, then the one other live resources link to,
// then the one closest to the manifest, then the oldest), the same whatever
// order the service lists them in; and the steps that clear the rest (links
// re-pointed through each kind's `relink`, deletes after them).

import { describe, expect, it } from 'vitest';
import type { AutoReplyDetail, Suggestion } from '../../src/api/types.js';
import { dedupeSteps, duplicatesOf, findDuplicates } from '../../src/apply/dedupe.js';
import type { LiveBrand } from '../../src/plan/types.js';
import { desiredAutoReply, desiredBrand, desiredChatbot, liveAutoReply, liveBrand, liveChatbot } from '../kinds/helpers.js';

const chip = (to: string): Suggestion => ({ reply: { autoReplyMsgId: to, displayText: 'Next', postback: { data: `postbackId=p${to};;` } } });
/** A copy named `name`, registered at minute `minute`. */
const copy = (id: string, name: string, minute: number, over: Partial<AutoReplyDetail> = {}): AutoReplyDetail =>
  liveAutoReply(id, { autoReplyMsgName: name, body: { description: `about ${name}` }, registerDate: `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000+09`, ...over });

/** A ⇄ B in the manifest. */
const ring = desiredBrand({
  autoReplies: [
    desiredAutoReply('a', { name: 'A', body: { description: 'about A' }, chipList: [{ reply: { autoReply: 'b', displayText: 'Next' } }] }),
    desiredAutoReply('b', { name: 'B', body: { description: 'about B' }, chipList: [{ reply: { autoReply: 'a', displayText: 'Next' } }] }),
  ],
});

const kept = (live: LiveBrand, desired = ring) => findDuplicates(desired, live).map((g) => [g.name, g.keep, g.copies.map((c) => c.id)]);
const shuffled = (live: LiveBrand): LiveBrand => ({ ...live, autoReplies: [...live.autoReplies].reverse() });

describe('the copy kept', () => {
  it('the issue\'s race: of each pair the copy with its link is linked to, and kept; nothing to re-point', () => {
    const live = liveBrand({ autoReplies: [copy('A1', 'A', 1, { chipList: [chip('B1')] }), copy('B1', 'B', 2, { chipList: [chip('A1')] }), copy('A2', 'A', 3), copy('B2', 'B', 4)] });
    expect(kept(live)).toEqual([['A', 'A1', ['A2']], ['B', 'B1', ['B2']]]);
    expect(findDuplicates(ring, live)[0]?.why).toBe('other resources link to it (1; A2: 0)');
    expect(dedupeSteps(live, findDuplicates(ring, live)).map((s) => s.id)).toEqual(['autoReply.A2:delete', 'autoReply.B2:delete']);
  });

  it('being linked to wins over being older and closer to the manifest', () => {
    const live = liveBrand({
      autoReplies: [copy('A1', 'A', 1, { chipList: [chip('B1')] }), copy('A2', 'A', 2, { body: { description: 'edited' } }), copy('B1', 'B', 3, { chipList: [chip('A2')] })],
      chatbots: [liveChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'Start', ordNo: 1, autoReplyMsgId: 'A2' }] })],
    });
    expect(kept(live)).toEqual([['A', 'A2', ['A1']]]);
    expect(findDuplicates(ring, live)[0]?.why).toBe('other resources link to it (2; A1: 0)');
  });

  it('links equal: the one closest to the manifest (its link compared by the name it points at, not the id)', () => {
    // A1 is older but lost its chip; A2 links to a copy of B, which is what the manifest says.
    const live = liveBrand({ autoReplies: [copy('A1', 'A', 1), copy('A2', 'A', 2, { chipList: [chip('B2')] }), copy('B1', 'B', 3), copy('B2', 'B', 4)] });
    const groups = findDuplicates(ring, live);
    expect(groups.map((g) => [g.name, g.keep, g.why])).toEqual([
      ['A', 'A2', 'closest to the manifest (0 differences; A1: 2)'],
      ['B', 'B2', 'other resources link to it (1; B1: 0)'],
    ]);
  });

  it('all else equal: the oldest, by registration time and then id', () => {
    const live = liveBrand({ autoReplies: [copy('A9', 'A', 5), copy('A3', 'A', 1), copy('A2', 'A', 1)] });
    expect(kept(live)).toEqual([['A', 'A2', ['A3', 'A9']]]);
    expect(findDuplicates(ring, live)[0]?.why).toBe('the oldest');
  });

  it('the same choice whatever order the service lists them in', () => {
    const live = liveBrand({
      autoReplies: [copy('A1', 'A', 1), copy('A2', 'A', 1, { chipList: [chip('B2')] }), copy('A3', 'A', 2, { chipList: [chip('B1')] }), copy('B1', 'B', 1, { chipList: [chip('A3')] }), copy('B2', 'B', 3), copy('B3', 'B', 2)],
    });
    expect(kept(live)).toEqual([['A', 'A3', ['A1', 'A2']], ['B', 'B1', ['B3', 'B2']]]);
    expect(kept(shuffled(live))).toEqual(kept(live));
  });

  it('copies naming two uploads of one image are equally close: media compare by file name', () => {
    const desired = desiredBrand({ autoReplies: [desiredAutoReply('a', { name: 'A', messagebaseId: 'SCwThM00', body: { description: 'about A', media: 'ARF1' } })] });
    const files = [{ fileId: 'ARF1', url: 'u1', fileName: 'hero-0123456789ab.png' }, { fileId: 'ARF2', url: 'u2', fileName: 'hero-0123456789ab.png' }];
    const live = liveBrand({ files, autoReplies: [copy('A2', 'A', 2, { messagebaseId: 'SCwThM00', body: { description: 'about A', media: 'maapfile://ARF2' } }), copy('A1', 'A', 3, { messagebaseId: 'SCwThM00', body: { description: 'about A', media: 'ARF1' } })] });
    expect(findDuplicates(desired, live).map((g) => [g.keep, g.why])).toEqual([['A2', 'the oldest']]);
  });

  it('a copy a state keeps from deletion is the one kept', () => {
    const live = liveBrand({ autoReplies: [copy('A1', 'A', 1, { chipList: [chip('B1')] }), copy('A2', 'A', 2, { approvalResult: '처리중' }), copy('B1', 'B', 3, { chipList: [chip('A1')] })] });
    expect(findDuplicates(ring, live).map((g) => [g.keep, g.why, g.copies])).toEqual([['A2', 'a state keeps it from being deleted', [{ id: 'A1' }]]]);
  });

  it('names the manifests do not manage, or pin by id, are left alone', () => {
    const pinned = desiredBrand({ autoReplies: [desiredAutoReply('a', { name: 'A', id: 'A1' })] });
    const live = liveBrand({ autoReplies: [copy('A1', 'A', 1), copy('A2', 'A', 2), copy('Z1', 'Z', 1), copy('Z2', 'Z', 2)] });
    expect(findDuplicates(pinned, live)).toEqual([]);
  });
});

describe('the steps that clear them', () => {
  it('re-points every link to a deleted copy (chips, a menu item, a self-link of the kept copy), then deletes', () => {
    const call: Suggestion = { action: { displayText: 'Call', postback: { data: 'mine' }, dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } } } };
    const live = liveBrand({
      files: [{ fileId: 'ARF1', url: 'u1', fileName: 'hero-0123456789ab.png' }],
      autoReplies: [
        // The kept copy links to a copy of itself: that becomes a link to itself.
        copy('A1', 'A', 1, { chipList: [chip('B1'), chip('A2')] }),
        copy('A2', 'A', 2, { chipList: [chip('B1')] }),
        copy('B1', 'B', 3, { chipList: [chip('A1')] }),
        copy('V1', 'V', 3, { chipList: [chip('A1')] }),
        copy('W1', 'W', 3, { chipList: [chip('A1')] }),
        // Unmanaged, with an image, a link to the copy that goes, and one to itself.
        copy('U1', 'Unmanaged', 4, { messagebaseId: 'SCwThM00', body: { title: 'U', media: 'maapfile://ARF1' }, buttons: [{ suggestions: [chip('A2')] }], chipList: [chip('U1'), call] }),
        // A copy linking only to itself: nothing to re-point for it.
        copy('A3', 'A', 5, { chipList: [chip('A3')] }),
      ],
      chatbots: [liveChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'Two', ordNo: 2, autoReplyMsgId: 'A2' }, { type: 'reply', title: 'One', ordNo: 1, autoReplyMsgId: 'B1', postbackId: 'p1' }] })],
    });
    const [found] = duplicatesOf([{ desired: ring, live }]);
    expect(found?.groups.map((g) => [g.keep, g.why, g.copies.map((c) => c.id)])).toEqual([['A1', 'other resources link to it (3; A2: 2)', ['A2', 'A3']]]);
    expect(found?.deletable).toBe(2);
    const steps = found?.steps ?? [];
    expect(steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['autoReply.A1:update', []],
      ['autoReply.U1:update', []],
      ['persistentMenu.0212345678:update', []],
      ['autoReply.A2:delete', ['autoReply.A1:update', 'autoReply.U1:update', 'persistentMenu.0212345678:update']],
      ['autoReply.A3:delete', []],
    ]);
    expect(steps[0]).toMatchObject({ op: 'update', liveId: 'A1', request: { chipList: [{ reply: { autoReplyMsgId: 'B1' } }, { reply: { autoReplyMsgId: 'A1' } }] } });
    // The unmanaged auto-reply is written back as it is: media as the bare file id, the service's postback fill-in as empty data.
    expect(steps[1]).toMatchObject({
      op: 'update',
      liveId: 'U1',
      request: {
        autoReplyMsgName: 'Unmanaged',
        messagebaseId: 'SCwThM00',
        copyAllowed: true,
        body: { title: 'U', media: 'ARF1' },
        buttons: [{ suggestions: [{ reply: { autoReplyMsgId: 'A1', displayText: 'Next', postback: { data: '' } } }] }],
        chipList: [{ reply: { autoReplyMsgId: 'U1', displayText: 'Next', postback: { data: '' } } }, call],
      },
    });
    expect(steps[2]).toMatchObject({
      op: 'update',
      liveId: '0212345678',
      request: { persistentMenu: { menu: [{ type: 'reply', title: 'One', ordNo: 1, autoReplyMsgId: 'B1' }, { type: 'reply', title: 'Two', ordNo: 2, autoReplyMsgId: 'A1' }] } },
    });
  });

  it('a referrer a state blocks is re-pointed only when it may be: its gate blocks, and the delete waits for it', () => {
    const live = liveBrand({ autoReplies: [copy('A1', 'A', 1, { chipList: [chip('B1')] }), copy('A2', 'A', 2), copy('B1', 'B', 3, { chipList: [chip('A1')] }), copy('C1', 'C', 4, { approvalResult: '처리중', chipList: [chip('A2')] }), copy('D1', 'D', 5, { chipList: [chip('A1')] })] });
    const steps = dedupeSteps(live, findDuplicates(ring, live));
    expect(steps.map((s) => [s.id, s.gate.type, s.dependsOn])).toEqual([
      ['autoReply.C1:update', 'blocked', []],
      ['autoReply.A2:delete', 'destructive', ['autoReply.C1:update']],
    ]);
  });
});
