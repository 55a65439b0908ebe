// The heap-based order gives exactly the order of the straightforward
// definition (pick the smallest ready step by kind, operation and address,
// every time), on random dependency graphs, and handles thousands of steps.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { orderSteps } from '../../src/plan/order.js';
import type { Step } from '../../src/plan/types.js';

const OP_RANK: Record<string, number> = { create: 1, delete: 5 };

/** The definition: scan the whole ready set for the smallest step at every pick (quadratic, fine for a test). */
function referenceOrder(steps: Step[]): string[] {
  const rank = (s: Step): [number, number, string] => {
    const k = KINDS.findIndex((kind) => kind.name === s.kind);
    return s.op === 'delete' ? [100 + (KINDS.length - k), OP_RANK[s.op] as number, s.address] : [k, OP_RANK[s.op] as number, s.address];
  };
  const less = (a: Step, b: Step): boolean => {
    const [ka, oa, aa] = rank(a);
    const [kb, ob, ab] = rank(b);
    return (ka - kb || oa - ob || aa.localeCompare(ab)) < 0;
  };
  const pending = new Map(steps.map((s) => [s.id, s.dependsOn.length]));
  const ready = steps.filter((s) => s.dependsOn.length === 0);
  const out: string[] = [];
  while (ready.length > 0) {
    let best = 0;
    for (let i = 1; i < ready.length; i++) if (less(ready[i] as Step, ready[best] as Step)) best = i;
    const next = ready.splice(best, 1)[0] as Step;
    out.push(next.id);
    for (const d of steps.filter((s) => s.dependsOn.includes(next.id))) {
      const left = (pending.get(d.id) as number) - 1;
      pending.set(d.id, left);
      if (left === 0) ready.push(d);
    }
  }
  return out;
}

interface Spec {
  kind: 'autoReply' | 'logo';
  op: 'create' | 'delete';
  name: string;
  deps: number[];
}

function build(specs: Spec[]): { steps: Step[]; after: Map<string, string[]> } {
  const steps: Step[] = [];
  const after = new Map<string, string[]>();
  specs.forEach((spec, i) => {
    const address = `${spec.kind}.${spec.name}${i}`;
    const id = `${address}:${spec.op}`;
    const base = { id, kind: spec.kind, address, name: address, changes: [], dependsOn: [], produces: `${spec.kind}:${spec.name}${i}` };
    steps.push(spec.op === 'delete' ? { ...base, op: 'delete', liveId: `L${i}`, gate: { type: 'destructive' } } : { ...base, op: 'create', gate: { type: 'none' }, request: {} });
    // Only earlier creates are named, so the graph has no cycle.
    const tokens = spec.deps.filter((d) => d < i && specs[d]?.op === 'create').map((d) => `${specs[d]?.kind}:${specs[d]?.name}${d}`);
    if (tokens.length > 0) after.set(id, tokens);
  });
  return { steps, after };
}

describe('plan order at scale', () => {
  it('equals the pick-the-smallest-ready-step definition on random dependency graphs', () => {
    const spec = fc.record({
      kind: fc.constantFrom('autoReply' as const, 'logo' as const),
      op: fc.constantFrom('create' as const, 'create' as const, 'delete' as const),
      name: fc.constantFrom('a', 'B', 'c', 'é', 'z', 'Z'),
      deps: fc.array(fc.nat(60), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 60 }), (specs) => {
        const { steps, after } = build(specs);
        const ordered = orderSteps(steps, { after, liveRefs: new Map() });
        expect(ordered.map((s) => s.id)).toEqual(referenceOrder(ordered));
      }),
      { seed: 14, numRuns: 150 },
    );
  });

  it('orders 20,000 steps with chains of dependencies, each after what it names', () => {
    const specs: Spec[] = Array.from({ length: 20_000 }, (_, i) => ({ kind: 'autoReply', op: 'create', name: 'r', deps: i % 3 === 0 ? [] : [i - 1] }));
    const { steps, after } = build(specs);
    const ordered = orderSteps(steps, { after, liveRefs: new Map() });
    expect(ordered).toHaveLength(20_000);
    const at = new Map(ordered.map((s, i) => [s.id, i]));
    const early = ordered.filter((s) => s.dependsOn.some((d) => (at.get(d) as number) > (at.get(s.id) as number)));
    expect(early).toEqual([]);
    expect(ordered.filter((s) => s.dependsOn.length > 0)).toHaveLength(13_333);
  });
});
