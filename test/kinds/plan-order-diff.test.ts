// src/plan/order.ts and src/plan/diff.ts on in-memory plans: reference order,
// cycle splitting, deletes after the updates that drop their references,
// deterministic order, held dependants, and field paths.

import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { additions, diffObjects, formatPath, removals } from '../../src/plan/diff.js';
import { orderSteps } from '../../src/plan/order.js';
import type { Step } from '../../src/plan/types.js';
import { desiredAutoReply, desiredBrand, desiredChatbot, liveAutoReply, liveBrand, liveChatbot, localFile, SOURCE } from './helpers.js';

const ids = (steps: Step[]) => steps.map((s) => s.id);

describe('plan order', () => {
  it('uploads before the auto-replies that use them, auto-replies before the menus that point at them', () => {
    const hero = localFile('images/hero.png', 'hero');
    const brand = desiredBrand({
      files: [{ handle: 'hero', file: hero, source: SOURCE }],
      autoReplies: [desiredAutoReply('card', { name: 'Card', messagebaseId: 'SCwThM00', body: { title: 'T', media: { file: 'hero' } } })],
      chatbots: [desiredChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'Card', autoReply: 'card' }] })],
    });
    const plan = buildPlan(brand, liveBrand({ chatbots: [liveChatbot('0212345678')] }));
    expect(ids(plan.steps)).toEqual([`file.${hero.uploadName}:upload`, 'autoReply.card:create', 'persistentMenu.0212345678:create']);
    expect(plan.steps[1]?.dependsOn).toEqual([`file.${hero.uploadName}:upload`]);
    expect(plan.steps[2]?.dependsOn).toContain('autoReply.card:create');
  });

  it('splits a cycle of reply links into creates without links, then link steps', () => {
    const brand = desiredBrand({
      autoReplies: [
        desiredAutoReply('a', { name: 'A', chipList: [{ action: { displayText: 'x' } }, { reply: { autoReply: 'b', displayText: 'to b' } }] }),
        desiredAutoReply('b', { name: 'B', chipList: [{ reply: { autoReply: 'a', displayText: 'to a' } }] }),
      ],
    });
    const plan = buildPlan(brand, liveBrand());
    expect(ids(plan.steps)).toEqual(['autoReply.a:create', 'autoReply.b:create', 'autoReply.a:link', 'autoReply.b:link']);
    const [createA, , linkA] = plan.steps as [Step, Step, Step];
    expect(createA.op === 'create' && createA.request).toMatchObject({ chipList: [{ action: { displayText: 'x' } }] });
    expect(createA.changes.some((c) => c.path.includes('reply'))).toBe(false);
    expect(linkA.changes.map((c) => c.path)).toEqual(['chipList[1].reply.autoReplyMsgId', 'chipList[1].reply.displayText']);
    expect(linkA.dependsOn).toEqual(['autoReply.a:create', 'autoReply.b:create']);
  });

  it('a create shows the messagebaseId as written, while the expected form holds the alias the service stores', () => {
    const plan = buildPlan(desiredBrand({ autoReplies: [desiredAutoReply('s', { name: 'S', messagebaseId: 'SCwThT00', body: { description: 'x' } })] }), liveBrand());
    const step = plan.steps[0];
    expect(step?.changes.find((c) => c.path === 'messagebaseId')).toEqual({ path: 'messagebaseId', type: 'add', after: 'SCwThT00' });
    expect(step?.op === 'create' && step.request).toMatchObject({ messagebaseId: 'SCwThT00' });
    expect(step?.expected).toMatchObject({ messagebaseId: 'SCwThM00' });
  });

  it('a chain without a cycle needs no link steps: the target is created first', () => {
    const brand = desiredBrand({ autoReplies: [desiredAutoReply('a', { name: 'A', chipList: [{ reply: { autoReply: 'b' } }] }), desiredAutoReply('b', { name: 'B' })] });
    expect(ids(buildPlan(brand, liveBrand()).steps)).toEqual(['autoReply.b:create', 'autoReply.a:create']);
  });

  it('deletes a pruned auto-reply only after the menu and the auto-reply that dropped their links to it', () => {
    const brand = desiredBrand({
      prune: ['autoReplies'],
      autoReplies: [desiredAutoReply('home', { name: 'Home' })],
      chatbots: [desiredChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'Home', autoReply: 'home' }] })],
    });
    const live = liveBrand({
      autoReplies: [
        liveAutoReply('ARM-HOME', { autoReplyMsgName: 'Home', body: { description: 'about home' }, chipList: [{ reply: { autoReplyMsgId: 'ARM-OLD' } }] }),
        liveAutoReply('ARM-OLD', { autoReplyMsgName: 'Old' }),
      ],
      chatbots: [
        liveChatbot('0212345678', {
          persistentMenu: [
            { type: 'reply', title: 'Home', ordNo: 1, autoReplyMsgId: 'ARM-HOME' },
            { type: 'reply', title: 'Old', ordNo: 2, autoReplyMsgId: 'ARM-OLD' },
          ],
        }),
      ],
    });
    const plan = buildPlan(brand, live);
    expect(ids(plan.steps)).toEqual(['autoReply.home:update', 'persistentMenu.0212345678:update', 'autoReply.ARM-OLD:delete']);
    expect(plan.steps[2]?.dependsOn).toEqual(['autoReply.home:update', 'persistentMenu.0212345678:update']);
    expect(plan.steps[2]?.gate).toEqual({ type: 'destructive' });
    expect(Object.keys(plan.fingerprints).sort()).toEqual(['autoReply.ARM-OLD', 'autoReply.home', 'persistentMenu.0212345678']);
  });

  it('blocks the delete of an auto-reply that an untouched live menu still points at', () => {
    const brand = desiredBrand({ prune: ['autoReplies'], chatbots: [desiredChatbot('0212345678')] });
    const live = liveBrand({
      autoReplies: [liveAutoReply('ARM-OLD', { autoReplyMsgName: 'Old' }), liveAutoReply('ARM-FREE', { autoReplyMsgName: 'Free' })],
      chatbots: [liveChatbot('0212345678', { persistentMenu: [{ type: 'reply', title: 'Old', ordNo: 1, autoReplyMsgId: 'ARM-OLD' }] })],
    });
    const plan = buildPlan(brand, live);
    expect(plan.steps.map((s) => [s.id, s.gate.type])).toEqual([
      ['autoReply.ARM-FREE:delete', 'destructive'],
      ['autoReply.ARM-OLD:delete', 'blocked'],
    ]);
    expect(plan.steps[1]?.gate).toMatchObject({ state: 'referenced', reason: expect.stringContaining('persistentMenu.0212345678') });
    // Managing the menu without the link frees it.
    const managed = desiredBrand({ prune: ['autoReplies'], chatbots: [desiredChatbot('0212345678', { persistentMenu: [] })] });
    expect(buildPlan(managed, live).steps.map((s) => [s.id, s.gate.type])).toEqual([
      ['persistentMenu.0212345678:delete', 'none'],
      ['autoReply.ARM-FREE:delete', 'destructive'],
      ['autoReply.ARM-OLD:delete', 'destructive'],
    ]);
  });

  it('does not delete unlisted live objects of kinds not named in prune; it reports them', () => {
    const plan = buildPlan(desiredBrand(), liveBrand({ autoReplies: [liveAutoReply('ARM1', { autoReplyMsgName: 'One' })], chatbots: [liveChatbot('0212345678')] }));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { kind: 'chatbot', id: '0212345678', name: 'Coffee Co' },
      { kind: 'autoReply', id: 'ARM1', name: 'One' },
    ]);
  });

  it('holds a step that waits for a blocked one', () => {
    // The room update turns rcsReply to "1", which the menu needs; it is blocked by review.
    const brand = desiredBrand({ chatbots: [desiredChatbot('0212345678', { rcsReply: '1', persistentMenu: [{ type: 'feed', title: 'News' }] })] });
    const plan = buildPlan(brand, liveBrand({ chatbots: [liveChatbot('0212345678', { approvalResult: '검수시작', rcsReply: '0' })] }));
    expect(ids(plan.steps)).toEqual(['chatbot.0212345678:update', 'persistentMenu.0212345678:create']);
    expect(plan.steps[0]?.gate).toMatchObject({ type: 'blocked', state: '검수시작' });
    expect(plan.steps[1]?.dependsOn).toEqual(['chatbot.0212345678:update']);
    expect(plan.steps[1]?.gate).toMatchObject({ type: 'blocked', state: 'waiting', reason: expect.stringContaining('chatbot.0212345678') });
  });

  it('does not hold a menu back for an unrelated room update that review blocks', () => {
    const brand = desiredBrand({ chatbots: [desiredChatbot('0212345678', { subDescr: 'New', persistentMenu: [{ type: 'feed', title: 'News' }] })] });
    const plan = buildPlan(brand, liveBrand({ chatbots: [liveChatbot('0212345678', { approvalResult: '검수시작' })] }));
    expect(plan.steps[0]?.gate).toMatchObject({ type: 'blocked', state: '검수시작' });
    expect(plan.steps[1]).toMatchObject({ id: 'persistentMenu.0212345678:create', dependsOn: [], gate: { type: 'none' } });
  });

  it('gives the same order whatever order the manifests list things in', () => {
    const handles = ['e', 'd', 'c', 'b', 'a'];
    const ring = (order: string[]) =>
      desiredBrand({ autoReplies: order.map((h) => desiredAutoReply(h, { name: h.toUpperCase(), chipList: [{ reply: { autoReply: handles[(handles.indexOf(h) + 1) % 5] as string } }] })) });
    const live = liveBrand({ autoReplies: [liveAutoReply('ARM-Z', { autoReplyMsgName: 'Z' })] });
    const first = ids(buildPlan(ring(handles), live).steps);
    expect(first).toEqual([...['a', 'b', 'c', 'd', 'e'].map((h) => `autoReply.${h}:create`), ...['a', 'b', 'c', 'd', 'e'].map((h) => `autoReply.${h}:link`)]);
    expect(ids(buildPlan(ring([...handles].reverse()), live).steps)).toEqual(first);
    expect(ids(buildPlan(ring(['c', 'a', 'e', 'b', 'd']), live).steps)).toEqual(first);
  });

  it('orders independent steps by kind, operation and address', () => {
    const step = (id: string, kind: Step['kind'], op: 'create' | 'delete'): Step =>
      op === 'delete'
        ? { id, kind, op, address: id.split(':')[0] as string, name: id, liveId: 'x', gate: { type: 'destructive' }, changes: [], dependsOn: [] }
        : { id, kind, op, address: id.split(':')[0] as string, name: id, gate: { type: 'none' }, changes: [], dependsOn: [], request: {} };
    const input = [step('autoReply.b:create', 'autoReply', 'create'), step('logo.x:delete', 'logo', 'delete'), step('autoReply.z:delete', 'autoReply', 'delete'), step('logo.m:create', 'logo', 'create'), step('autoReply.a:create', 'autoReply', 'create')];
    // Creates top-down in kind order; deletes last, bottom-up (auto-replies before the logos they could use).
    expect(ids(orderSteps(input, { after: new Map(), liveRefs: new Map() }))).toEqual(['logo.m:create', 'autoReply.a:create', 'autoReply.b:create', 'autoReply.z:delete', 'logo.x:delete']);
  });
});

  it('orders numbered handles naturally: ar2 before ar10, in the plan and so in the task list', () => {
    const handles = ['ar10', 'ar1', 'ar2', 'ar0', 'ar11', 'ar9', 'ar100'];
    const brand = desiredBrand({ autoReplies: handles.map((h) => desiredAutoReply(h, { name: h.toUpperCase() })) });
    expect(ids(buildPlan(brand, liveBrand()).steps)).toEqual(['ar0', 'ar1', 'ar2', 'ar9', 'ar10', 'ar11', 'ar100'].map((h) => `autoReply.${h}:create`));
  });

describe('field diff', () => {
  it('writes paths with array indices, deep inside buttons', () => {
    const before = { buttons: [{ suggestions: [{ action: { displayText: 'a' } }, { action: { displayText: 'b', urlAction: { openUrl: { url: 'https://old' } } } }] }] };
    const after = structuredClone(before);
    after.buttons[0]!.suggestions[1]!.action.urlAction!.openUrl.url = 'https://new';
    expect(diffObjects(before, after)).toEqual([{ path: 'buttons[0].suggestions[1].action.urlAction.openUrl.url', type: 'change', before: 'https://old', after: 'https://new' }]);
  });

  it('expands added and removed array items to their leaves, in index order', () => {
    const changes = diffObjects({ chipList: [{ a: 1 }] }, { chipList: [{ a: 1 }, { b: { c: 2 } }, { d: 3 }] });
    expect(changes).toEqual([
      { path: 'chipList[1].b.c', type: 'add', after: 2 },
      { path: 'chipList[2].d', type: 'add', after: 3 },
    ]);
    expect(diffObjects({ items: [1, 2, 3] }, { items: [1] }).map((c) => c.path)).toEqual(['items[1]', 'items[2]']);
  });

  it('no change for equal objects, whatever their key order', () => {
    expect(diffObjects({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('lists every leaf for create and delete views', () => {
    expect(additions({ name: 'A', body: { description: 'x' }, chipList: [{ action: { displayText: 'y' } }] }).map((c) => c.path)).toEqual(['name', 'body.description', 'chipList[0].action.displayText']);
    expect(removals({ name: 'A' })).toEqual([{ path: 'name', type: 'remove', before: 'A' }]);
    expect(formatPath(['buttons', 0, 'suggestions', 12, 'action'])).toBe('buttons[0].suggestions[12].action');
  });
});
