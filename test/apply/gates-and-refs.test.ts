// Unit tests of the applier's pure parts: gates and placeholders.

import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/apply/execute.js';
import { resolveRefs, tokenOf } from '../../src/core/refs.js';
import type { Gate, Step } from '../../src/plan/types.js';

function step(op: Step['op'], gate: Gate, extra: Partial<Step> = {}): Step {
  return { id: `autoReply.x:${op}`, op, kind: 'autoReply', address: 'autoReply.x', name: 'X', gate, changes: [], dependsOn: [], liveId: 'ARM1', request: {}, ...extra } as Step;
}

const NONE: Gate = { type: 'none' };
const REVIEW: Gate = { type: 'review', review: 'goes to review' };
const BLOCKED: Gate = { type: 'blocked', state: '처리중', reason: 'stuck' };
const DESTRUCTIVE: Gate = { type: 'destructive' };

describe('holdReason', () => {
  const flags = { allowDelete: false, allowReview: false, fromSavedPlan: false };

  it('never runs a blocked step, whatever the flags', () => {
    for (const f of [flags, { allowDelete: true, allowReview: true, fromSavedPlan: true }]) {
      expect(holdReason(step('update', BLOCKED), f)).toEqual({ status: 'blocked', message: 'blocked (처리중): stuck' });
    }
  });

  it('holds review steps unless --allow-review or a saved plan', () => {
    expect(holdReason(step('update', REVIEW), flags)?.status).toBe('held');
    expect(holdReason(step('update', REVIEW), { ...flags, allowReview: true })).toBeUndefined();
    expect(holdReason(step('update', REVIEW), { ...flags, fromSavedPlan: true })).toBeUndefined();
    expect(holdReason(step('update', REVIEW), { ...flags, allowDelete: true })?.status).toBe('held');
  });

  it('holds deletes unless --allow-delete or a saved plan', () => {
    expect(holdReason(step('delete', DESTRUCTIVE), flags)?.message).toContain('--allow-delete');
    expect(holdReason(step('delete', DESTRUCTIVE), { ...flags, allowDelete: true })).toBeUndefined();
    expect(holdReason(step('delete', DESTRUCTIVE), { ...flags, fromSavedPlan: true })).toBeUndefined();
    expect(holdReason(step('delete', DESTRUCTIVE), { ...flags, allowReview: true })?.status).toBe('held');
  });

  it('lets ungated steps run', () => {
    expect(holdReason(step('create', NONE), flags)).toBeUndefined();
  });
});

describe('resolveRefs', () => {
  it('fills placeholders anywhere in a request, and leaves other strings alone', () => {
    const ids = new Map([
      ['autoReply:hours', 'ARM9'],
      ['file:hero-0123456789ab.png', 'ARF3'],
    ]);
    const req = { body: { media: '<ref:file:hero-0123456789ab.png>', title: 'a <b> c' }, chipList: [{ reply: { autoReplyMsgId: '<ref:autoReply:hours>' } }] };
    expect(resolveRefs(req, ids)).toEqual({ body: { media: 'ARF3', title: 'a <b> c' }, chipList: [{ reply: { autoReplyMsgId: 'ARM9' } }] });
    expect(req.body.media).toBe('<ref:file:hero-0123456789ab.png>');
  });

  it('refuses a placeholder whose id is not known', () => {
    expect(() => resolveRefs({ a: '<ref:autoReply:missing>' }, new Map())).toThrow(/autoReply\.missing has no id yet/);
  });

  it('derives the token of a step from its address, dots in keys included', () => {
    expect(tokenOf({ kind: 'agencyFile', address: 'agencyFile.BR.demo000001.spring' })).toBe('agencyFile:BR.demo000001.spring');
  });
});

// The handler registry is checked against what the planner produces, over every
// plan case: test/plan-cases.test.ts, its last test.
