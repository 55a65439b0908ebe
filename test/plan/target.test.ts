// --target: a plan narrowed to the targeted resources and, transitively, the
// steps they depend on; an address that names nothing is refused with the
// closest one.

import { describe, expect, it } from 'vitest';
import { checkTargets, targetPlan } from '../../src/plan/target.js';
import type { BrandPlan, Step } from '../../src/plan/types.js';

function step(id: string, address: string, dependsOn: string[] = [], op: 'create' | 'update' | 'upload' = 'create'): Step {
  const base = { id, kind: address.split('.')[0] as Step['kind'], address, name: address, gate: { type: 'none' as const }, changes: [], dependsOn };
  if (op === 'upload') return { ...base, op, file: { path: '/x', sha256: 'x', size: 1, fileName: 'x.png', contentType: 'image/png' } };
  if (op === 'update') return { ...base, op, liveId: 'L', request: {} };
  return { ...base, op, request: {} };
}

const plan: BrandPlan = {
  brandId: 'BR.test000001',
  steps: [
    step('file.hero:upload', 'file.hero-abc.png', [], 'upload'),
    step('autoReply.hours:create', 'autoReply.hours', ['file.hero:upload']),
    step('autoReply.menu:create', 'autoReply.menu', ['autoReply.hours:create']),
    step('autoReply.other:update', 'autoReply.other', [], 'update'),
    step('persistentMenu.0212345678:menu', 'persistentMenu.0212345678', ['autoReply.menu:create']),
  ],
  unmanaged: [
    { kind: 'autoReply', id: 'ARM1', name: 'Stray' },
    { kind: 'logo', id: 'BLG1', name: 'Old' },
  ],
  problems: [],
  fingerprints: { 'autoReply.other': 'f1', 'autoReply.hours': 'f2' },
  snapshots: { 'autoReply.other': { state: '등록완료', value: {} } },
};

describe('targetPlan', () => {
  it('keeps the target and everything it depends on, transitively, in plan order', () => {
    const t = targetPlan(plan, ['autoReply.menu']);
    expect(t.steps.map((s) => s.id)).toEqual(['file.hero:upload', 'autoReply.hours:create', 'autoReply.menu:create']);
    expect(t.fingerprints).toEqual({ 'autoReply.hours': 'f2' });
    expect(t.snapshots).toEqual({});
    expect(t.unmanaged).toEqual([]);
  });

  it('does not pull in what depends on the target', () => {
    expect(targetPlan(plan, ['autoReply.hours']).steps.map((s) => s.id)).toEqual(['file.hero:upload', 'autoReply.hours:create']);
  });

  it('takes several targets and kind.* for a whole kind', () => {
    expect(targetPlan(plan, ['autoReply.other', 'persistentMenu.0212345678']).steps).toHaveLength(5);
    const kind = targetPlan(plan, ['autoReply.*']);
    expect(kind.steps.map((s) => s.address)).toEqual(['file.hero-abc.png', 'autoReply.hours', 'autoReply.menu', 'autoReply.other']);
    expect(kind.unmanaged).toEqual([{ kind: 'autoReply', id: 'ARM1', name: 'Stray' }]);
  });

  it('is the plan itself without targets', () => {
    expect(targetPlan(plan, [])).toBe(plan);
  });
});

describe('checkTargets', () => {
  it('refuses an address that names nothing, with the closest one', () => {
    expect(() => checkTargets(['autoReply.hour'], ['autoReply.hours', 'autoReply.menu'])).toThrow('--target autoReply.hour names no resource of the manifests or the live brand (did you mean autoReply.hours?)');
    expect(() => checkTargets(['logo.*'], ['autoReply.hours'])).toThrow('--target logo.* names no resource');
    expect(() => checkTargets(['autoReply.hours', 'autoReply.*'], ['autoReply.hours'])).not.toThrow();
  });
});
