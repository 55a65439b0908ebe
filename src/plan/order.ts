// Order is data. Dependencies come from the reference graph:
// a step depends on the steps that produce the `<ref:…>` placeholders its
// request names, on the steps its kind says must come first, and a delete
// waits for every step that drops a reference to what it deletes. Creates and
// updates run top-down in KINDS order, deletes bottom-up, and a cycle of reply
// links becomes create-without-links followed by link steps.

import { KINDS, kindByName, splitsLinks } from '../kinds/index.js';
import { PLACEHOLDER_PATTERN } from '../core/step.js';
import { Heap } from '../util/heap.js';
import type { Step } from './types.js';

/** Rank of each operation within one kind: what must exist before it is changed. */
const OP_RANK: Record<Step['op'], number> = { upload: 0, create: 1, update: 2, link: 3, delete: 4 };

/** Extra inputs the order needs beyond the steps themselves. */
export interface OrderInputs {
  /** Tokens from the kind's `after()`, by step id. */
  after: Map<string, string[]>;
  /** References the live object holds (`autoReply:ARM1`), by step id. */
  liveRefs: Map<string, string[]>;
}

/** Fill in `dependsOn`, split link cycles and return the steps in a valid run order. */
export function orderSteps(input: Step[], extra: OrderInputs): Step[] {
  let steps = input.map((s) => ({ ...s, dependsOn: [] as string[] }));
  linkDependencies(steps, extra);
  const cycles = stronglyConnected(steps).filter((c) => c.length > 1 || (c[0] !== undefined && c[0].dependsOn.includes(c[0].id)));
  if (cycles.length > 0) {
    steps = splitCycles(steps, cycles);
    linkDependencies(steps, extra);
    const left = stronglyConnected(steps).filter((c) => c.length > 1);
    if (left.length > 0) throw new Error(`dependency cycle between ${left[0]?.map((s) => s.address).join(', ')}`);
  }
  return topologicalSort(steps);
}

/** The tokens (`kind:key`) a request names through placeholders. */
export function referencedTokens(request: unknown): string[] {
  const text = JSON.stringify(request ?? null);
  return [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => `${m[1]}:${m[2]}`);
}

function linkDependencies(steps: Step[], extra: OrderInputs): void {
  const producers = new Map<string, Step>();
  for (const s of steps) if (s.produces !== undefined && s.op !== 'link' && s.op !== 'delete') producers.set(s.produces, s);
  const byLiveRef = new Map<string, Step[]>();
  // Every step that rewrites a live object drops the references it held, a
  // delete the manifests ask for (an emptied menu) as well; a prune has none listed.
  for (const s of steps) {
    for (const ref of extra.liveRefs.get(s.id) ?? []) {
      const list = byLiveRef.get(ref) ?? [];
      list.push(s);
      byLiveRef.set(ref, list);
    }
  }
  for (const s of steps) {
    const deps = new Set<string>();
    const request = 'request' in s ? s.request : undefined;
    for (const token of [...referencedTokens(request), ...(extra.after.get(s.id) ?? [])]) {
      const p = producers.get(token);
      if (p !== undefined && p.id !== s.id) deps.add(p.id);
      else if (p !== undefined && p.id === s.id && s.op === 'create') deps.add(s.id); // self-link: a cycle of one
    }
    if (s.op === 'link') deps.add(s.id.replace(/:link$/, ':create'));
    if (s.op === 'delete' && s.liveId !== undefined) {
      for (const dropper of byLiveRef.get(`${s.kind}:${s.liveId}`) ?? []) deps.add(dropper.id);
    }
    s.dependsOn = [...deps].sort();
  }
}

function splitCycles(steps: Step[], cycles: Step[][]): Step[] {
  const out: Step[] = [];
  const inCycle = new Set(cycles.flat().map((s) => s.id));
  for (const s of steps) {
    if (!inCycle.has(s.id)) {
      out.push(s);
      continue;
    }
    const kind = kindByName(s.kind);
    const split = s.op === 'create' && splitsLinks(kind) ? kind.splitLinks(s.request) : undefined;
    if (s.op !== 'create' || split === undefined) {
      throw new Error(`${s.address} is part of a reference cycle that cannot be broken (its kind cannot split its links)`);
    }
    const linkChange = splitsLinks(kind) ? kind.linkChange : undefined;
    const links = linkChange === undefined ? [] : s.changes.filter((c) => linkChange.test(c.path));
    out.push({ ...s, request: split.base, changes: s.changes.filter((c) => !links.includes(c)) });
    out.push({
      id: s.id.replace(/:create$/, ':link'),
      op: 'link',
      kind: s.kind,
      address: s.address,
      name: s.name,
      gate: s.gate,
      changes: links,
      dependsOn: [],
      request: split.links,
    });
  }
  return out;
}

/** Tarjan's strongly connected components over `dependsOn`. */
function stronglyConnected(steps: Step[]): Step[][] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: Step[] = [];
  const out: Step[][] = [];
  let counter = 0;
  const visit = (s: Step): void => {
    index.set(s.id, counter);
    low.set(s.id, counter);
    counter++;
    stack.push(s);
    onStack.add(s.id);
    for (const depId of s.dependsOn) {
      const dep = byId.get(depId);
      if (dep === undefined) continue;
      if (!index.has(dep.id)) {
        visit(dep);
        low.set(s.id, Math.min(low.get(s.id) as number, low.get(dep.id) as number));
      } else if (onStack.has(dep.id)) {
        low.set(s.id, Math.min(low.get(s.id) as number, index.get(dep.id) as number));
      }
    }
    if (low.get(s.id) === index.get(s.id)) {
      const component: Step[] = [];
      for (;;) {
        const top = stack.pop() as Step;
        onStack.delete(top.id);
        component.push(top);
        if (top.id === s.id) break;
      }
      out.push(component);
    }
  };
  for (const s of steps) if (!index.has(s.id)) visit(s);
  return out;
}

/**
 * Kahn's algorithm; ties broken by kind order, operation and address (in
 * natural order) so plans are stable. O(n log n): every step is ranked once by one sort, and the ready
 * set is a heap of ranks.
 */
function topologicalSort(steps: Step[]): Step[] {
  const kindIndex = new Map(KINDS.map((k, i) => [k.name as string, i]));
  // Deletes run bottom-up: after everything else, dependants first.
  const kindRank = (s: Step): number => {
    const k = kindIndex.get(s.kind) ?? -1;
    return s.op === 'delete' ? 100 + (KINDS.length - k) : k;
  };
  const keyed = steps.map((step) => ({ step, kind: kindRank(step), op: OP_RANK[step.op] }));
  keyed.sort((a, b) => a.kind - b.kind || a.op - b.op || collator.compare(a.step.address, b.step.address) || (a.step.id < b.step.id ? -1 : a.step.id > b.step.id ? 1 : 0));
  const byRank = keyed.map((k) => k.step);
  const rankOf = new Map<string, number>(byRank.map((s, i) => [s.id, i]));

  const pending = new Int32Array(byRank.length);
  const dependants: number[][] = byRank.map(() => []);
  byRank.forEach((s, i) => {
    pending[i] = s.dependsOn.length;
    for (const d of s.dependsOn) dependants[rankOf.get(d) as number]?.push(i);
  });
  const ready = new Heap<number>((a, b) => a - b);
  byRank.forEach((s, i) => {
    if (s.dependsOn.length === 0) ready.push(i);
  });
  const out: Step[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    out.push(byRank[next] as Step);
    for (const d of dependants[next] as number[]) if (--(pending[d] as number) === 0) ready.push(d);
  }
  if (out.length < steps.length) throw new Error('dependency cycle left after splitting');
  return out;
}

/**
 * Addresses in natural order: digit runs compare as numbers, so `autoReply.ar2`
 * comes before `autoReply.ar10` (a plain string order reads ar0, ar1, ar10, ar2).
 * One collator for every comparison, without localeCompare's per-call cost; a
 * fixed locale, so a plan's order does not depend on the machine's.
 */
const collator = new Intl.Collator('en', { numeric: true });
