// The auto-reply kind on in-memory objects: normalisation (server fields,
// postback data, aliases, defaults, empty lists, media by file name), matching,
// gates, references and the request it builds.

import { describe, expect, it } from 'vitest';
import { autoReplyKind, toRequest } from '../../src/kinds/auto-reply/index.js';
import { diffObjects } from '../../src/plan/diff.js';
import { contextFor, desiredAutoReply, desiredBrand, liveAutoReply, liveBrand, localFile } from './helpers.js';
import type { DesiredAutoReply } from '../../src/kinds/index.js';
import type { AutoReplyDetail, AutoReplyRequest } from '../../src/api/types.js';
import type { LiveBrand } from '../../src/plan/types.js';

/** The field changes the planner would show for this pair. */
function changes(d: DesiredAutoReply, l: AutoReplyDetail, extra: { live?: LiveBrand; desired?: DesiredAutoReply[] } = {}) {
  const brand = desiredBrand({ autoReplies: [d, ...(extra.desired ?? [])] });
  const live = extra.live ?? liveBrand({ autoReplies: [l] });
  const ctx = contextFor(brand, live);
  return diffObjects(autoReplyKind.diff.normaliseLive(l, ctx), autoReplyKind.diff.normaliseDesired(d, ctx, l));
}

const url = (u: string) => ({ openUrl: { url: u } });

describe('auto-reply normalisation', () => {
  it('drops server-owned fields: an identical auto-reply has no changes', () => {
    const l = liveAutoReply('ARM1', { autoReplyMsgName: 'Hours', body: { description: 'Mon-Fri' }, registerId: 'someone', cardCount: 0 });
    expect(changes(desiredAutoReply('hours', { name: 'Hours', body: { description: 'Mon-Fri' } }), l)).toEqual([]);
  });

  it('ignores the postbackId=<id>;; data the service fills in, and empty postback data', () => {
    const d = desiredAutoReply('h', {
      name: 'ARM1',
      body: { description: 'about ARM1' },
      buttons: [{ suggestions: [{ action: { displayText: 'Map', urlAction: url('https://e.x/map') } }] }],
      chipList: [{ action: { displayText: 'Web', urlAction: url('https://e.x') } }],
    });
    const l = liveAutoReply('ARM1', {
      buttons: [{ suggestions: [{ action: { displayText: 'Map', urlAction: url('https://e.x/map'), postback: { data: 'postbackId=PB000000000001;;' } } }] }],
      chipList: [{ action: { displayText: 'Web', urlAction: url('https://e.x'), postback: { data: '' } } }],
    });
    expect(changes(d, l)).toEqual([]);
  });

  it('keeps postback data that is not the service form: it is a real difference', () => {
    const d = desiredAutoReply('h', { name: 'ARM1', body: { description: 'about ARM1' }, chipList: [{ action: { displayText: 'Web', urlAction: url('https://e.x') } }] });
    const l = liveAutoReply('ARM1', { chipList: [{ action: { displayText: 'Web', urlAction: url('https://e.x'), postback: { data: 'set-by-hand' } } }] });
    expect(changes(d, l)).toEqual([{ path: 'chipList[0].action.postback.data', type: 'remove', before: 'set-by-hand' }]);
  });

  it('ignores filled postback data on reply links too', () => {
    const target = liveAutoReply('ARM2', { autoReplyMsgName: 'Other' });
    const d = desiredAutoReply('h', { name: 'ARM1', body: { description: 'about ARM1' }, chipList: [{ reply: { autoReply: 'other', displayText: 'Other' } }] });
    const other = desiredAutoReply('other', { name: 'Other', body: { description: 'about ARM2' } });
    const l = liveAutoReply('ARM1', { chipList: [{ reply: { autoReplyMsgId: 'ARM2', displayText: 'Other', postback: { data: 'postbackId=PB7;;' } } }] });
    expect(changes(d, l, { live: liveBrand({ autoReplies: [l, target] }), desired: [other] })).toEqual([]);
  });

  it.each([
    ['SCL00000', 'SCS00000'],
    ['SCwThT00', 'SCwThM00'],
  ])('maps the messagebase alias %s to %s before comparing', (written, stored) => {
    const d = desiredAutoReply('h', { name: 'ARM1', messagebaseId: written, body: { description: 'about ARM1' } });
    expect(changes(d, liveAutoReply('ARM1', { messagebaseId: stored }))).toEqual([]);
  });

  it.each(['CCwMhM0200', 'CCwMhM0300', 'CCwMhM0600'])('keeps the medium slider %s as itself: a two-card slider is not a six-card one', (id) => {
    const d = desiredAutoReply('h', { name: 'ARM1', messagebaseId: id, body: { description: 'about ARM1' } });
    expect(changes(d, liveAutoReply('ARM1', { messagebaseId: id }))).toEqual([]);
    const other = id === 'CCwMhM0600' ? 'CCwMhM0200' : 'CCwMhM0600';
    expect(changes(d, liveAutoReply('ARM1', { messagebaseId: other }))).toEqual([{ path: 'messagebaseId', type: 'change', before: other, after: id }]);
  });

  it('still sees a real messagebase change', () => {
    const d = desiredAutoReply('h', { name: 'ARM1', messagebaseId: 'SCwThM00', body: { description: 'about ARM1' } });
    expect(changes(d, liveAutoReply('ARM1'))).toEqual([{ path: 'messagebaseId', type: 'change', before: 'SCS00000', after: 'SCwThM00' }]);
  });

  it('applies the copyAllowed default (true) on both sides', () => {
    const base = { name: 'ARM1', body: { description: 'about ARM1' } };
    expect(changes(desiredAutoReply('h', base), liveAutoReply('ARM1', { copyAllowed: true }))).toEqual([]);
    expect(changes(desiredAutoReply('h', { ...base, copyAllowed: true }), liveAutoReply('ARM1', { copyAllowed: undefined as unknown as boolean }))).toEqual([]);
    expect(changes(desiredAutoReply('h', { ...base, copyAllowed: false }), liveAutoReply('ARM1'))).toEqual([{ path: 'copyAllowed', type: 'change', before: true, after: false }]);
  });

  it('treats absent and empty lists alike, and a trailing empty button group as none', () => {
    const base = { name: 'ARM1', body: { description: 'about ARM1' } };
    expect(changes(desiredAutoReply('h', { ...base, buttons: [], chipList: [] }), liveAutoReply('ARM1'))).toEqual([]);
    expect(changes(desiredAutoReply('h', base), liveAutoReply('ARM1', { buttons: [], chipList: [] }))).toEqual([]);
    expect(changes(desiredAutoReply('h', base), liveAutoReply('ARM1', { buttons: [{}] }))).toEqual([]);
    expect(changes(desiredAutoReply('h', base), liveAutoReply('ARM1', { buttons: [{ suggestions: [] }] }))).toEqual([]);
  });

  it('treats an empty or null body field as absent', () => {
    const d = desiredAutoReply('h', { name: 'ARM1', messagebaseId: 'SCwThM00', body: { title: 'T', description: '' } });
    expect(changes(d, liveAutoReply('ARM1', { messagebaseId: 'SCwThM00', body: { title: 'T', media: '', description: null as unknown as string } }))).toEqual([]);
    expect(changes(d, liveAutoReply('ARM1', { messagebaseId: 'SCwThM00', body: { title: 'T', description: 'x' } }))).toEqual([{ path: 'body.description', type: 'remove', before: 'x' }]);
  });

  it('compares media by content-addressed file name, not by fileId', () => {
    const hero = localFile('images/hero.png', 'hero bytes');
    const brand = desiredBrand({
      files: [{ handle: 'hero', file: hero, source: { file: 'b', line: 1, col: 1, path: '/' } }],
      autoReplies: [desiredAutoReply('h', { name: 'ARM1', messagebaseId: 'SCwThM00', body: { title: 'T', media: { file: 'hero' } } })],
    });
    const d = brand.autoReplies.get('h') as DesiredAutoReply;
    const same = liveBrand({ files: [{ fileId: 'ARF9', url: 'u', fileName: hero.uploadName }], autoReplies: [liveAutoReply('ARM1', { messagebaseId: 'SCwThM00', body: { title: 'T', media: 'ARF9' } })] });
    let ctx = contextFor(brand, same);
    expect(diffObjects(autoReplyKind.diff.normaliseLive(same.autoReplies[0]!, ctx), autoReplyKind.diff.normaliseDesired(d, ctx, same.autoReplies[0]))).toEqual([]);

    const older = liveBrand({ files: [{ fileId: 'ARF1', url: 'u', fileName: 'hero-000000000000.png' }], autoReplies: [liveAutoReply('ARM1', { messagebaseId: 'SCwThM00', body: { title: 'T', media: 'ARF1' } })] });
    ctx = contextFor(brand, older);
    expect(diffObjects(autoReplyKind.diff.normaliseLive(older.autoReplies[0]!, ctx), autoReplyKind.diff.normaliseDesired(d, ctx, older.autoReplies[0]))).toEqual([
      { path: 'body.media', type: 'change', before: 'hero-000000000000.png', after: hero.uploadName },
    ]);
    // The request names the file by placeholder until it is uploaded, and by id when it is live.
    expect(toRequest(d, ctx).body.media).toBe(`<ref:file:${hero.uploadName}>`);
    expect(toRequest(d, contextFor(brand, same)).body.media).toBe('ARF9');
  });
});

describe('auto-reply matching', () => {
  const brand = desiredBrand();

  it('matches by pinned id first, so a renamed auto-reply is an update', () => {
    const m = autoReplyKind.diff.match([desiredAutoReply('h', { id: 'ARM1', name: 'New name' })], [liveAutoReply('ARM1', { autoReplyMsgName: 'Old name' })], brand);
    expect(m.pairs.map(([d, l]) => [d.handle, l.autoReplyMsgId])).toEqual([['h', 'ARM1']]);
    expect(m.missing).toEqual([]);
    expect(m.extra).toEqual([]);
  });

  it('matches by name when nothing is pinned; the rest are missing or extra', () => {
    const m = autoReplyKind.diff.match(
      [desiredAutoReply('a', { name: 'A' }), desiredAutoReply('b', { name: 'B' })],
      [liveAutoReply('ARM1', { autoReplyMsgName: 'A' }), liveAutoReply('ARM2', { autoReplyMsgName: 'C' })],
      brand,
    );
    expect(m.pairs.map(([d, l]) => [d.handle, l.autoReplyMsgId])).toEqual([['a', 'ARM1']]);
    expect(m.missing.map((d) => d.handle)).toEqual(['b']);
    expect(m.extra.map((l) => l.autoReplyMsgId)).toEqual(['ARM2']);
  });

  it('refuses two live auto-replies with one name and says how to pin one', () => {
    const m = autoReplyKind.diff.match([desiredAutoReply('a', { name: 'A' })], [liveAutoReply('ARM1', { autoReplyMsgName: 'A' }), liveAutoReply('ARM2', { autoReplyMsgName: 'A' })], brand);
    expect(m.pairs).toEqual([]);
    expect(m.extra).toEqual([]); // neither is deleted or reported while the name is ambiguous
    expect(m.problems).toHaveLength(1);
    expect(m.problems[0]?.code).toBe('E_PLAN_DUPLICATE_NAME');
    expect(m.problems[0]?.message).toContain('2 live auto-replies are named "A" (ARM1, ARM2)');
    expect(m.problems[0]?.message).toContain('`id: ARM1`');
  });

  it('a pinned live auto-reply is not also matched by name', () => {
    const m = autoReplyKind.diff.match(
      [desiredAutoReply('a', { id: 'ARM1', name: 'A' }), desiredAutoReply('b', { name: 'A' })],
      [liveAutoReply('ARM1', { autoReplyMsgName: 'A' })],
      brand,
    );
    expect(m.pairs.map(([d]) => d.handle)).toEqual(['a']);
    expect(m.missing.map((d) => d.handle)).toEqual(['b']);
  });

  it('never pairs one live auto-reply with two desired ones (the loader refuses duplicate names; the matcher holds anyway)', () => {
    const m = autoReplyKind.diff.match([desiredAutoReply('a', { name: 'A' }), desiredAutoReply('b', { name: 'A' })], [liveAutoReply('ARM1', { autoReplyMsgName: 'A' })], brand);
    expect(m.pairs.map(([d, l]) => [d.handle, l.autoReplyMsgId])).toEqual([['a', 'ARM1']]);
    expect(m.missing.map((d) => d.handle)).toEqual(['b']);
  });

  it('a pinned id the brand does not have is a problem, not a create', () => {
    const m = autoReplyKind.diff.match([desiredAutoReply('a', { id: 'ARM9' })], [liveAutoReply('ARM1')], brand);
    expect(m.problems.map((p) => p.code)).toEqual(['E_PLAN_PINNED_MISSING']);
    expect(m.missing).toEqual([]);
  });
});

describe('auto-reply gates, references and links', () => {
  it('blocks update and delete in 처리중, and marks other deletes destructive', () => {
    const stuck = liveAutoReply('ARM1', { approvalResult: '처리중' });
    expect(autoReplyKind.gates.update(stuck, [], desiredAutoReply('a'))).toMatchObject({ type: 'blocked', state: '처리중' });
    expect(autoReplyKind.gates.delete(stuck)).toMatchObject({ type: 'blocked', state: '처리중' });
    expect(autoReplyKind.gates.update(liveAutoReply('ARM1'), [], desiredAutoReply('a'))).toEqual({ type: 'none' });
    expect(autoReplyKind.gates.delete(liveAutoReply('ARM1'))).toEqual({ type: 'destructive' });
    expect(autoReplyKind.gates.create(desiredAutoReply('a'))).toEqual({ type: 'none' });
  });

  it('lists the auto-replies a live one links to', () => {
    const l = liveAutoReply('ARM1', {
      buttons: [{ suggestions: [{ reply: { autoReplyMsgId: 'ARM2' } }, { action: { displayText: 'x' } }] }],
      chipList: [{ reply: { autoReplyMsgId: 'ARM3' } }],
    });
    expect(autoReplyKind.liveRefs(l)).toEqual(['autoReply:ARM2', 'autoReply:ARM3']);
  });

  it('resolves reply links to live ids, or placeholders for auto-replies not yet created', () => {
    const a = desiredAutoReply('a', { name: 'A', chipList: [{ reply: { autoReply: 'b', displayText: 'B' } }, { reply: { autoReply: 'c' } }] });
    const brand = desiredBrand({ autoReplies: [a, desiredAutoReply('b', { name: 'B' }), desiredAutoReply('c', { name: 'C' })] });
    const ctx = contextFor(brand, liveBrand({ autoReplies: [liveAutoReply('ARM2', { autoReplyMsgName: 'B' })] }));
    expect(toRequest(a, ctx).chipList).toEqual([
      { reply: { autoReplyMsgId: 'ARM2', displayText: 'B', postback: { data: '' } } },
      { reply: { autoReplyMsgId: '<ref:autoReply:c>', postback: { data: '' } } },
    ]);
  });

  it('leaves copyAllowed and empty lists out of the request when the manifest does', () => {
    const ctx = contextFor(desiredBrand(), liveBrand());
    expect(toRequest(desiredAutoReply('a', { name: 'A', buttons: [], chipList: [] }), ctx)).toEqual({ autoReplyMsgName: 'A', messagebaseId: 'SCS00000', body: { description: 'about a' } });
  });

  it('splits a create into the request without links and the full one', () => {
    const req: AutoReplyRequest = {
      autoReplyMsgName: 'A',
      messagebaseId: 'SCS00000',
      body: {},
      buttons: [{ suggestions: [{ action: { displayText: 'x' } }, { reply: { autoReplyMsgId: '<ref:autoReply:b>' } }] }],
      chipList: [{ reply: { autoReplyMsgId: '<ref:autoReply:b>' } }, { action: { displayText: 'y' } }],
    };
    const split = autoReplyKind.splitLinks?.(req);
    expect(split?.links).toBe(req);
    expect(split?.base).toEqual({ ...req, buttons: [{ suggestions: [{ action: { displayText: 'x' } }] }], chipList: [{ action: { displayText: 'y' } }] });
    expect(autoReplyKind.splitLinks?.({ autoReplyMsgName: 'A', messagebaseId: 'SCS00000', body: {} })).toBeUndefined();
  });
});

describe("an auto-reply's messagebaseId against the service's common list (RCS536)", () => {
  it('refuses a bundled id the service does not list, and says which the service has', () => {
    const live = { ...liveBrand(), templates: { items: [], forms: new Map(), formIds: [], commonIds: ['SCS00000', 'SCwThM00'] } } as LiveBrand;
    const problems = autoReplyKind.liveProblems?.([desiredAutoReply('tall', { messagebaseId: 'SCwThT00' }), desiredAutoReply('ok', { messagebaseId: 'SCS00000' })], live) ?? [];
    expect(problems.map((p) => `${p.code} ${p.address}`)).toEqual(['RCS536 autoReply.tall']);
    expect(problems[0]?.message).toContain('"SCwThT00" is not a common messagebase of this service (did you mean "SCwThM00"?)');
  });
});
