// The pure middle of `rcsctl drift`: planned brands (desired, live, plan) and a
// clock in, a DriftReport out. Content differences come from the plan's steps,
// unmanaged resources from the plan, state findings from the live objects.
// Generic over the kinds: every resource the kinds match is one entry.

import { finding, helpLink } from '../core/finding.js';
import { matchesTarget } from '../plan/target.js';
import { KINDS, isDriftNoted, isReportingUnmanaged, pruneOf, prunedBy } from '../kinds/index.js';
import { isFailed, type BrandOutcome, type PlannedBrand } from '../plan/plan-brands.js';
import { stateFindings } from '../plan/state-findings.js';
import type { BrandPlan, Step } from '../plan/types.js';
import { VERSION } from '../version.js';
import { DEFAULT_DRIFT_OPTIONS, DRIFT_REPORT_VERSION, type BrandDrift, type DriftOptions, type DriftReport, type DriftSummary, type Finding, type ReportSummary, type ResourceDrift, type UnmanagedBrand } from './types.js';
import { optionText, reviewText } from '../core/step.js';

/**
 * Build the report for `brands` as of `now`. Help links point at the docs at
 * `docsUrl` (a folder URL ending in `/`), by default the published docs.
 */
export function buildDrift(brands: BrandOutcome[], now: Date, options: Partial<DriftOptions> = {}, targets: string[] = [], docsUrl?: string): DriftReport {
  const opts: DriftOptions = { ...DEFAULT_DRIFT_OPTIONS, ...options };
  const out = brands.map((b) =>
    isFailed(b) ? { brandId: b.brandId, ...labelOf(b.plan), clean: false, summary: emptySummary(), problems: [], notes: [], resources: [], error: b.error } : brandDrift(b, now, opts, targets),
  );
  if (docsUrl !== undefined) for (const b of out) for (const r of b.resources) for (const f of r.findings) f.help = helpLink(f.code, docsUrl);
  const summary = reportSummary(out);
  return {
    version: DRIFT_REPORT_VERSION,
    rcsctlVersion: VERSION,
    generatedAt: now.toISOString(),
    options: opts,
    clean: out.every((b) => b.clean),
    summary,
    brands: out,
  };
}

/** Add the brands nobody declares to `report` (each a BRAND_UNMANAGED warning: the report is no longer clean), with help links at `docsUrl`. */
export function withUnmanagedBrands(report: DriftReport, brands: UnmanagedBrand[], docsUrl?: string): void {
  report.unmanagedBrands = brands.map((b) => ({ ...b, finding: { ...b.finding, help: helpLink(b.finding.code, docsUrl) } }));
  if (brands.length > 0) report.clean = false;
}

/** True when a finding counts as drift (exit 2). */
export function isDrift(f: Finding): boolean {
  return f.severity === 'error' || f.severity === 'warning';
}

interface Entry {
  resource: ResourceDrift;
  live: unknown;
}

function brandDrift(planned: PlannedBrand, now: Date, opts: DriftOptions, targets: string[]): BrandDrift {
  const { desired, live, plan } = planned;
  const entries = new Map<string, Entry>();
  const add = (resource: ResourceDrift, l: unknown): void => {
    if (!entries.has(resource.address)) entries.set(resource.address, { resource, live: l });
  };

  for (const kind of KINDS) {
    const match = kind.diff.match(kind.desired(desired), kind.live(live), desired);
    const rows: Entry[] = [];
    for (const [d, l] of match.pairs) {
      const state = kind.identity.liveState(l);
      rows.push({
        resource: { address: `${kind.name}.${kind.identity.key(d)}`, kind: kind.name, name: kind.identity.desiredName(d), liveId: kind.identity.liveId(l), status: 'managed', ...(state !== undefined ? { state } : {}), findings: [] },
        live: l,
      });
    }
    for (const d of match.missing) {
      rows.push({ resource: { address: `${kind.name}.${kind.identity.key(d)}`, kind: kind.name, name: kind.identity.desiredName(d), status: 'missing', findings: [] }, live: undefined });
    }
    const reportsExtra = isReportingUnmanaged(kind) || prunedBy(kind, desired.prune);
    for (const l of reportsExtra ? match.extra : []) {
      const state = kind.identity.liveState(l);
      const id = kind.identity.liveId(l);
      rows.push({
        resource: { address: `${kind.name}.${id}`, kind: kind.name, name: kind.identity.liveName(l), liveId: id, status: 'unmanaged', ...(state !== undefined ? { state } : {}), findings: [] },
        live: l,
      });
    }
    rows.sort((a, b) => a.resource.address.localeCompare(b.resource.address));
    for (const row of rows) add(row.resource, row.live);
  }

  for (const step of plan.steps) {
    const f = stepFinding(step);
    if (f === undefined) continue;
    resourceFor(entries, step.address, step.kind, step.name, step.liveId).findings.push(f);
  }
  // A declared resource the plan could not create (a problem names it) is still missing.
  for (const p of plan.problems) {
    const r = entries.get(p.address)?.resource;
    if (r === undefined || r.status !== 'missing' || r.findings.some((f) => f.code === 'DRIFT_MISSING')) continue;
    r.findings.push(finding('DRIFT_MISSING', 'warning', r.address, `"${r.name}" is declared in the manifests but does not exist live, and cannot be created as declared: ${p.message}`, 'Fix the manifest as the problem says, then run rcsctl apply.'));
  }
  for (const u of plan.unmanaged) {
    const address = `${u.kind}.${u.id}`;
    const r = resourceFor(entries, address, u.kind, u.name, u.id);
    r.status = 'unmanaged';
    if (!r.findings.some((f) => f.code === 'DRIFT_UNMANAGED')) {
      const found = KINDS.find((k) => k.name === u.kind);
      const prune = found === undefined ? undefined : pruneOf(found);
      r.findings.push(
        finding(
          'DRIFT_UNMANAGED',
          'warning',
          address,
          `${u.kind} ${u.id} "${u.name}" exists live but no manifest declares it`,
          prune !== undefined
            ? `Adopt it into a manifest with rcsctl export --resource ${address} --into <manifest file>, or add ${prune} to \`prune:\` so rcsctl apply --allow-delete removes it.`
            : `Adopt it into a manifest with rcsctl export --resource ${address} --into <manifest file>.`,
        ),
      );
    }
  }

  // The same state findings plan shows (src/plan/state-findings.ts).
  for (const r of stateFindings(desired, live, now, opts)) entries.get(r.address)?.resource.findings.push(...r.findings);

  // With --target, only the targeted resources are reported.
  const resources = [...entries.values()].map((e) => e.resource).filter((r) => targets.length === 0 || targets.some((t) => matchesTarget(r.address, t)));
  const summary = summarise(resources);
  const notes = KINDS.map((k) => (isDriftNoted(k) ? k.driftNote(desired) : undefined)).filter((n): n is string => n !== undefined);
  return {
    brandId: plan.brandId,
    ...labelOf(plan),
    clean: plan.problems.length === 0 && summary.errors + summary.warnings === 0,
    summary,
    problems: plan.problems,
    notes,
    resources,
  };
}

function resourceFor(entries: Map<string, Entry>, address: string, kind: ResourceDrift['kind'], name: string, liveId: string | undefined): ResourceDrift {
  const existing = entries.get(address);
  if (existing !== undefined) return existing.resource;
  const resource: ResourceDrift = { address, kind, name, ...(liveId !== undefined ? { liveId } : {}), status: liveId !== undefined ? 'managed' : 'missing', findings: [] };
  entries.set(address, { resource, live: undefined });
  return resource;
}

/** The content finding a plan step stands for. */
function stepFinding(step: Step): Finding | undefined {
  const gate = step.gate.type === 'none' ? {} : { gate: step.gate };
  const gateNote =
    step.gate.type === 'blocked'
      ? ` Apply cannot send it now (${step.gate.state}: ${step.gate.reason}).`
      : step.gate.type === 'review'
        ? ` Applying it needs --allow-review: ${reviewText(step.gate)}.`
        : step.gate.type === 'option'
          ? ` Applying it needs --${step.gate.option}: ${step.gate.reason}.`
          : '';
  if (step.op === 'delete' && step.declared === true) {
    return finding(
      'DRIFT_CHANGED',
      'warning',
      step.address,
      `"${step.name}" exists live and the manifests remove it`,
      `Live and the manifest differ, and either may be the side that changed: run rcsctl apply to make live match the manifest, or change the manifest to match live (each change shows the live value first).${gateNote}`,
      { changes: step.changes, ...gate },
    );
  }
  switch (step.op) {
    case 'update': {
      const n = step.changes.length;
      return finding(
        'DRIFT_CHANGED',
        'warning',
        step.address,
        `"${step.name}" differs from the manifest in ${n} field${n === 1 ? '' : 's'}`,
        `Live and the manifest differ, and either may be the side that changed: run rcsctl apply to make live match the manifest, or change the manifest to match live (each change shows the live value first).${gateNote}`,
        { changes: step.changes, ...gate },
      );
    }
    case 'upload':
    case 'create':
      return finding(
        'DRIFT_MISSING',
        'warning',
        step.address,
        `"${step.name}" is declared in the manifests but does not exist live`,
        `Run rcsctl apply to create it, or, if it was deleted live on purpose, remove it from the manifests.${gateNote}`,
        { changes: step.changes, ...gate },
      );
    case 'delete':
      return finding(
        'DRIFT_PRUNE',
        'warning',
        step.address,
        `"${step.name}" exists live, is not declared, and its kind is pruned: apply would delete it`,
        `Run rcsctl apply --allow-delete to delete it, or keep it by adopting it into a manifest (rcsctl export --resource ${step.address} --into <manifest file>).${gateNote}`,
        { changes: step.changes, ...gate },
      );
    case 'link':
      return undefined; // the second half of a create, already reported
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

function summarise(resources: ResourceDrift[]): DriftSummary {
  const s = emptySummary();
  s.resources = resources.length;
  for (const r of resources) {
    if (!r.findings.some(isDrift)) s.inSync++;
    if (r.findings.some((f) => f.code === 'DRIFT_CHANGED')) s.changed++;
    if (r.findings.some((f) => f.code === 'DRIFT_MISSING')) s.missing++;
    if (r.findings.some((f) => f.code === 'DRIFT_UNMANAGED' || f.code === 'DRIFT_PRUNE')) s.unmanaged++;
    for (const f of r.findings) {
      if (f.severity === 'error') s.errors++;
      else if (f.severity === 'warning') s.warnings++;
      else s.infos++;
    }
  }
  return s;
}

function emptySummary(): DriftSummary {
  return { resources: 0, inSync: 0, changed: 0, missing: 0, unmanaged: 0, errors: 0, warnings: 0, infos: 0 };
}

/** True when a brand could not be checked or compared: it failed (403, no connection, broken manifests) or its plan has problems. */
export function brandFailed(b: BrandDrift): boolean {
  return b.error !== undefined || b.problems.length > 0;
}

/** The report's summary: the brands' counts added up, and the brands and failed brands counted. */
export function reportSummary(brands: BrandDrift[]): ReportSummary {
  const total = emptySummary();
  for (const b of brands) for (const k of Object.keys(total) as (keyof DriftSummary)[]) total[k] += b.summary[k];
  return { ...total, brands: brands.length, failedBrands: brands.filter(brandFailed).length };
}

/** The brand's name, folder and owners, as its plan gives them. */
function labelOf(plan: BrandPlan): { name?: string; folder?: string; owners?: string[] } {
  return { ...(plan.name !== undefined ? { name: plan.name } : {}), ...(plan.folder !== undefined ? { folder: plan.folder } : {}), ...(plan.owners !== undefined ? { owners: plan.owners } : {}) };
}
