// The pure middle of the pipeline: desired + live → ordered, gated steps. It
// never calls the API, and never names a kind: it loops over the registry in
// src/kinds and uses what each kind declares.

import { placeholder, refusedByOption } from '../core/step.js';
import { KINDS, isLiveChecked, isCreateChecked, isReportingUnmanaged, liveRefsOf, pruneOf, isOrdered, isUploaded } from '../kinds/index.js';
import type { AnyKind, LiveContext, PlanContext, PlanOptions, StepSeed } from '../kinds/resource-kind.js';
import type { DesiredBrand, SourceLocation } from '../manifest/types.js';
import { hashValue } from '../util/stable-json.js';
import { additions, diffObjects, removals } from './diff.js';
import { applyMoves, renameHints } from './moves.js';
import { orderSteps, type OrderInputs } from './order.js';
import type { BrandPlan, DeleteStep, Gate, KindName, LiveBrand, LiveSnapshot, PlanProblem, PlanSummary, Step, Unmanaged } from './types.js';

/** Plan one brand: match, normalise, diff, gate and order. */
export function buildPlan(brand: DesiredBrand, live: LiveBrand, options: PlanOptions = {}): BrandPlan {
  const problems: PlanProblem[] = [];
  const unmanaged: Unmanaged[] = [];
  const fingerprints: Record<string, string> = {};
  const snapshots: Record<string, LiveSnapshot> = {};
  const remember = (address: string, kind: AnyKind, l: unknown): void => {
    snapshots[address] = snapshot(kind, l, ctx);
    fingerprints[address] = hashValue(snapshots[address]);
  };
  const steps: Step[] = [];
  const extra: OrderInputs = { after: new Map(), liveRefs: new Map() };

  const matches = KINDS.map((kind) => ({ kind, match: kind.diff.match(kind.desired(brand), kind.live(live), brand) }));
  const moves = applyMoves(brand, matches);
  const movedFrom = new Map(moves.map((m) => [`${m.kind}:${m.liveId}`, m.from]));
  // The references the manifests make (`kind:key`), to show their live ids by handle (nameRefs).
  const referenced = new Set<string>();
  const resolving = planContext(brand, live, matches, options);
  const ctx: PlanContext = { ...resolving, ref: (kind, key) => (referenced.add(`${kind}:${key}`), resolving.ref(kind, key)) };
  const renames = renameHints(matches, (kind, _l) => {
    const prune = pruneOf(kind);
    return prune !== undefined && brand.prune.includes(prune);
  }, ctx);

  for (const { kind, match } of matches) {
    problems.push(...match.problems, ...(isLiveChecked(kind) ? kind.liveProblems(kind.desired(brand), live) : []));
    for (const [d, l] of match.pairs) {
      const expected = kind.diff.normaliseDesired(d, ctx, l);
      const changes = diffObjects(kind.diff.normaliseLive(l, ctx), expected);
      if (changes.length === 0) continue;
      // A manifest that leaves the name out (a room without subTitle) keeps the live one.
      const name = kind.identity.desiredName(d) === kind.identity.key(d) ? kind.identity.liveName(l) : kind.identity.desiredName(d);
      const seed = stepSeed(kind, kind.identity.key(d), 'update', name, kind.gates.update(l, changes, d), changes);
      const step = withOpId(kind.diff.updateStep(d, l, ctx, seed));
      step.expected = expected;
      const from = movedFrom.get(`${kind.name}:${kind.identity.liveId(l)}`);
      if (from !== undefined) step.movedFrom = from;
      fromBase(step, d);
      remember(step.address, kind, l);
      extra.liveRefs.set(step.id, liveRefsOf(kind, l));
      if (isOrdered(kind)) extra.after.set(step.id, kind.after(d, l));
      steps.push(step);
    }
    for (const d of match.missing) {
      const createProblems = isCreateChecked(kind) ? kind.createProblems(d) : [];
      if (createProblems.length > 0) {
        problems.push(...createProblems);
        continue;
      }
      const op = isUploaded(kind) ? 'upload' : 'create';
      const expected = kind.diff.normaliseDesired(d, ctx, undefined);
      // An upload shows the file itself, not its one field.
      const changes = op === 'upload' ? [] : additions(expected);
      const created = kind.diff.createStep(d, ctx, stepSeed(kind, kind.identity.key(d), op, kind.identity.desiredName(d), kind.gates.create(d), changes));
      if (created === undefined) continue;
      const step = withOpId(created);
      if (op !== 'upload') step.expected = expected;
      fromBase(step, d);
      if (isOrdered(kind)) extra.after.set(step.id, kind.after(d));
      steps.push(step);
    }
    for (const l of match.extra) {
      const id = kind.identity.liveId(l);
      const prune = pruneOf(kind);
      if (prune !== undefined && brand.prune.includes(prune)) {
        const seed = stepSeed(kind, id, 'delete', kind.identity.liveName(l), kind.gates.delete(l), removals(kind.diff.normaliseLive(l, ctx)));
        const step: Step = { ...seed, op: 'delete', liveId: id };
        remember(step.address, kind, l);
        steps.push(step);
      } else if (isReportingUnmanaged(kind)) {
        unmanaged.push({ kind: kind.name, id, name: kind.identity.liveName(l) });
      }
    }
  }

  problemsFromBases(problems, matches);
  nameRefs(steps, matches, referenced);
  blockDanglingDeletes(steps, live, addressesOf(matches));
  liftOptionGates(steps, options.options ?? []);
  const ordered = holdDependants(orderSteps(steps, extra));
  return {
    brandId: brand.brandId,
    steps: ordered,
    unmanaged,
    problems,
    fingerprints,
    snapshots,
    ...(moves.length > 0 ? { moves: moves.map(({ from, to, liveId }) => ({ from, to, liveId })) } : {}),
    ...(renames.length > 0 ? { renames: renames.map(({ from, to, fromName, toName }) => ({ from, to, fromName, toName })) } : {}),
  };
}

/** Mark a step whose resource a shared base declares with the base's file and line and where the brand uses it (every kind's desired object has its `source`). */
function fromBase(step: Step, desired: unknown): void {
  const source = (desired as { source?: SourceLocation } | null)?.source;
  const usedAt = source?.usedAt;
  if (source === undefined || usedAt === undefined) return;
  step.sharedBase = { file: source.file, line: source.line, usedAt: { file: usedAt.file, line: usedAt.line } };
}

/** A problem at a line of a shared base also says where the brand uses the base (found by the problem's address). */
function problemsFromBases(problems: PlanProblem[], matches: { kind: AnyKind; match: { pairs: [unknown, unknown][]; missing: unknown[] } }[]): void {
  if (problems.length === 0) return;
  const usedAt = new Map<string, { file: string; line: number }>();
  for (const { kind, match } of matches) {
    for (const d of [...match.pairs.map(([x]) => x), ...match.missing]) {
      const at = (d as { source?: SourceLocation } | null)?.source?.usedAt;
      if (at !== undefined) usedAt.set(`${kind.name}.${kind.identity.key(d)}`, at);
    }
  }
  for (const p of problems) {
    const at = p.file !== undefined ? usedAt.get(p.address) : undefined;
    if (at !== undefined) p.usedAt = { file: at.file, line: at.line };
  }
}

/**
 * The shared bases a plan's steps come from, each with the brands it changes
 * (in the plans' order): a base's change is one edit that touches every brand
 * using it, and the plan says which.
 */
export function baseSummary(plans: readonly BrandPlan[]): { file: string; brands: string[]; steps: number }[] {
  const byFile = new Map<string, { file: string; brands: string[]; steps: number }>();
  for (const p of plans) {
    for (const s of p.steps) {
      if (s.sharedBase === undefined) continue;
      let entry = byFile.get(s.sharedBase.file);
      if (entry === undefined) byFile.set(s.sharedBase.file, (entry = { file: s.sharedBase.file, brands: [], steps: 0 }));
      entry.steps++;
      if (entry.brands[entry.brands.length - 1] !== p.brandId) entry.brands.push(p.brandId);
    }
  }
  return [...byFile.values()];
}

/** What staleness is judged on: a live object's state and normalised form. */
export function snapshot(kind: AnyKind, live: unknown, ctx: LiveContext): LiveSnapshot {
  return { state: kind.identity.liveState(live) ?? null, value: kind.diff.normaliseLive(live, ctx) };
}

/** The reference resolver: live ids of matched objects, placeholders for the rest. */
export function planContext(brand: DesiredBrand, live: LiveBrand, matches: { kind: AnyKind; match: { pairs: [unknown, unknown][] } }[], options: PlanOptions = {}): PlanContext {
  const known = new Map<string, string>();
  for (const { kind, match } of matches) {
    for (const [d, l] of match.pairs) known.set(`${kind.name}:${kind.identity.key(d)}`, kind.identity.liveId(l));
  }
  return { brand, live, options, ref: (kind: KindName, key: string) => known.get(`${kind}:${key}`) ?? placeholder(kind, key), ...liveContext(live) };
}

/** Names of live objects by kind and id, from what was read. */
export function liveContext(live: LiveBrand): LiveContext {
  const names = new Map<string, Map<string, string>>();
  return {
    liveName(kindName, id) {
      let byId = names.get(kindName);
      if (byId === undefined) {
        const kind = KINDS.find((k) => k.name === kindName);
        byId = new Map((kind === undefined ? [] : kind.live(live)).map((l) => [kind?.identity.liveId(l) as string, kind?.identity.liveName(l) as string]));
        names.set(kindName, byId);
      }
      return byId.get(id);
    },
  };
}

function stepSeed(kind: AnyKind, key: string, op: Step['op'], name: string, gate: Gate, changes: StepSeed['changes']): StepSeed {
  const address = `${kind.name}.${key}`;
  return { id: `${address}:${op}`, kind: kind.name, address, name, gate, changes, dependsOn: [], produces: `${kind.name}:${key}` };
}

/** Step ids name the operation the kind chose (a menu's update step is a create on a room without one: `persistentMenu.0212345678:create`). */
function withOpId(step: Step): Step {
  step.id = `${step.address}:${step.op}`;
  return step;
}

/**
 * Field changes whose value is the live id of a resource the manifests declare
 * and something refers to (a reply link's `ARM000000000126`: a reference the
 * manifests make, or one a live object holds) carry that resource's address,
 * which the views show instead (issue 38: references read as handles). Other
 * values that happen to equal an id (a profile's default name is the brand
 * id) are left alone, as is an id shared by two resources or one that is its
 * resource's key already.
 */
function nameRefs(steps: Step[], matches: { kind: AnyKind; match: { pairs: [unknown, unknown][]; extra: unknown[] } }[], referenced: Set<string>): void {
  const held = new Set<string>();
  for (const { kind, match } of matches) for (const l of [...match.pairs.map(([, l]) => l), ...match.extra]) for (const token of liveRefsOf(kind, l)) held.add(token);
  const byId = new Map<string, string | undefined>();
  for (const { kind, match } of matches) {
    for (const [d, l] of match.pairs) {
      const id = kind.identity.liveId(l) as unknown;
      const key = kind.identity.key(d);
      if (typeof id !== 'string' || id === key || !(referenced.has(`${kind.name}:${key}`) || held.has(`${kind.name}:${id}`))) continue;
      byId.set(id, byId.has(id) ? undefined : `${kind.name}.${key}`);
    }
  }
  if (byId.size === 0) return;
  for (const step of steps) {
    for (const c of step.changes) {
      const before = typeof c.before === 'string' ? byId.get(c.before) : undefined;
      const after = typeof c.after === 'string' ? byId.get(c.after) : undefined;
      if (before !== undefined) c.beforeRef = before;
      if (after !== undefined) c.afterRef = after;
    }
  }
}

/** The address (`autoReply.hours`) of each live object the manifests declare, by `kind:liveId`: a holder of a link is named by its handle. */
function addressesOf(matches: { kind: AnyKind; match: { pairs: [unknown, unknown][] } }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { kind, match } of matches) for (const [d, l] of match.pairs) out.set(`${kind.name}:${kind.identity.liveId(l)}`, `${kind.name}.${kind.identity.key(d)}`);
  return out;
}

/**
 * A delete of something a live object will still point at after the plan (a
 * room menu the manifests leave alone, another auto-reply's reply link) is
 * blocked: the service would accept it and leave the link dangling.
 */
function blockDanglingDeletes(steps: Step[], live: LiveBrand, addresses: Map<string, string>): void {
  const deletes = steps.filter((s): s is DeleteStep => s.op === 'delete');
  if (deletes.length === 0) return;
  // The step, if any, that rewrites or deletes each live object (`kind:liveId`).
  const touched = new Map<string, Step>();
  for (const s of steps) if (s.liveId !== undefined) touched.set(`${s.kind}:${s.liveId}`, s);
  for (const del of deletes) {
    const token = `${del.kind}:${del.liveId}`;
    const holders: string[] = [];
    for (const kind of KINDS) {
      for (const l of kind.live(live)) {
        if (!liveRefsOf(kind, l).includes(token)) continue;
        const step = touched.get(`${kind.name}:${kind.identity.liveId(l)}`);
        // Untouched, or rewritten with a request that still names the id.
        const keeps = step === undefined || ('request' in step && JSON.stringify(step.request ?? null).includes(JSON.stringify(del.liveId)));
        if (keeps) holders.push(addresses.get(`${kind.name}:${kind.identity.liveId(l)}`) ?? `${kind.name}.${kind.identity.liveId(l)}`);
      }
    }
    if (holders.length > 0 && del.gate.type !== 'blocked') {
      del.gate = {
        type: 'blocked',
        state: 'referenced',
        reason: `${holders.join(', ')} still point${holders.length === 1 ? 's' : ''} at it and the plan leaves ${holders.length === 1 ? 'that link' : 'those links'} in place; remove the link first (or manage it in the manifests)`,
      };
    }
  }
}

/** An option gate (a kind's `--<option>`) is lifted, in the plan, when the run set that option; otherwise the step stays refused. */
function liftOptionGates(steps: Step[], set: readonly string[]): void {
  for (const step of steps) if (step.gate.type === 'option' && set.includes(step.gate.option)) step.gate = { ...step.gate, set: true };
}

/** Whether a step will not be sent: blocked by a state, or refused for want of its option. */
function wontRun(step: Step): boolean {
  return step.gate.type === 'blocked' || refusedByOption(step.gate);
}

/** A step that waits for a blocked (or refused) step is held too, and says which one. */
function holdDependants(steps: Step[]): Step[] {
  const byId = new Map<string, Step>();
  for (const step of steps) {
    const blockedDep = step.dependsOn.map((id) => byId.get(id)).find((d) => d !== undefined && wontRun(d));
    if (blockedDep !== undefined && !wontRun(step)) {
      const why = refusedByOption(blockedDep.gate) ? `runs only with --${blockedDep.gate.option}` : 'is blocked';
      step.gate = { type: 'blocked', state: 'waiting', reason: `waits for ${blockedDep.address}, which ${why}` };
    }
    byId.set(step.id, step);
  }
  return steps;
}

/**
 * What a listed step does to its resource, as its marker shows it: an upload
 * is a create (+), and the reply links added after a create an update (~).
 */
export function changeOf(step: Step): 'create' | 'update' | 'delete' {
  switch (step.op) {
    case 'upload':
    case 'create':
      return 'create';
    case 'update':
    case 'link':
      return 'update';
    case 'delete':
      return 'delete';
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

/** The summary counts: every listed step once, by its change, plus the gates and the unmanaged. */
export function summarise(plan: Pick<BrandPlan, 'steps' | 'unmanaged'>): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, delete: 0, blocked: 0, review: 0, unmanaged: plan.unmanaged.length };
  for (const step of plan.steps) {
    s[changeOf(step)]++;
    if (wontRun(step)) s.blocked++;
    if (step.gate.type === 'review') s.review++;
  }
  return s;
}

/** True when the plan would change nothing. */
export function isEmptyPlan(plan: Pick<BrandPlan, 'steps'>): boolean {
  return plan.steps.length === 0;
}
