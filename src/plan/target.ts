// `--target ADDRESS`: narrow a plan to some resources and what they depend on,
// as `terraform plan -target` does. For exceptions (recovering from a mistake,
// a hotfix of one auto-reply), never for routine use: a targeted plan leaves
// the rest of the brand unreconciled and says so.

import { RcsctlError } from '../errors.js';
import { KINDS } from '../kinds/index.js';
import { closest } from '../manifest/suggest.js';
import type { PlannedBrand } from './plan-brands.js';
import type { BrandPlan, Step } from './types.js';

/** Shown whenever targeting is in effect. */
export const TARGET_WARNING =
  'Warning: resource targeting is in effect. The plan holds only the targeted resources and what they depend on; ' +
  'the rest of the brand may still differ from the manifests. Use --target for exceptions, such as recovering from a mistake, ' +
  'not for routine changes; plan without it afterwards.';

/** True when `address` is named by `target`: the same address, or `kind.*` for every resource of a kind. */
export function matchesTarget(address: string, target: string): boolean {
  if (target.endsWith('.*')) return address.startsWith(target.slice(0, -1));
  return address === target;
}

/**
 * Check `targets` against the addresses the brand knows (declared or live),
 * throwing a usage error for one that names nothing, with the closest address.
 */
export function checkTargets(targets: string[], known: Iterable<string>): void {
  const all = [...known];
  for (const t of targets) {
    if (all.some((a) => matchesTarget(a, t))) continue;
    const near = closest(t, all);
    throw new RcsctlError('E_USAGE', `--target ${t} names no resource of the manifests or the live brand${near !== undefined ? ` (did you mean ${near}?)` : ''}`);
  }
}

/**
 * The plan narrowed to the steps of the targeted resources plus every step they
 * depend on, transitively; unmanaged resources outside the targets are left out.
 * Problems stay: a brand that cannot be planned cannot be targeted either.
 */
export function targetPlan(plan: BrandPlan, targets: string[]): BrandPlan {
  if (targets.length === 0) return plan;
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const keep = new Set<string>();
  const visit = (step: Step): void => {
    if (keep.has(step.id)) return;
    keep.add(step.id);
    for (const dep of step.dependsOn) {
      const d = byId.get(dep);
      if (d !== undefined) visit(d);
    }
  };
  for (const s of plan.steps) if (targets.some((t) => matchesTarget(s.address, t))) visit(s);
  const steps = plan.steps.filter((s) => keep.has(s.id));
  const addresses = new Set(steps.map((s) => s.address));
  const pick = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).filter(([a]) => addresses.has(a)));
  return {
    ...plan,
    steps,
    unmanaged: plan.unmanaged.filter((u) => targets.some((t) => matchesTarget(`${u.kind}.${u.id}`, t))),
    ...(plan.findings !== undefined ? { findings: plan.findings.filter((f) => targets.some((t) => matchesTarget(f.address, t))) } : {}),
    fingerprints: pick(plan.fingerprints),
    snapshots: pick(plan.snapshots),
  };
}

/** Every address a brand knows: what the manifests declare, what the plan touches, and the unmanaged live resources. */
export function knownAddresses(planned: PlannedBrand): string[] {
  const out = new Set<string>();
  for (const kind of KINDS) for (const d of kind.desired(planned.desired)) out.add(`${kind.name}.${kind.identity.key(d as never)}`);
  for (const s of planned.plan.steps) out.add(s.address);
  for (const u of planned.plan.unmanaged) out.add(`${u.kind}.${u.id}`);
  return [...out];
}

/** The brands' plans narrowed to `targets` (checked against every brand's addresses together); unchanged without targets. */
export function targetBrands(planned: PlannedBrand[], targets: string[]): PlannedBrand[] {
  if (targets.length === 0) return planned;
  checkTargets(targets, planned.flatMap(knownAddresses));
  return planned.map((p) => ({ ...p, plan: targetPlan(p.plan, targets) }));
}
