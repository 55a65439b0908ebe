// State findings: what a person should know about a live resource's state
// (rejected, waiting for review, expiring), whatever its content. One function
// for plan and drift, so a plan shows every state finding drift reports and
// "No changes" never hides a rejected resource. Generic over the kinds: each
// stateful kind gives its own findings (`Stateful.findings`).

import { DEFAULT_DRIFT_OPTIONS, type DriftOptions, type Finding } from '../core/finding.js';
import type { LiveBrand } from '../core/live.js';
import { KINDS, isReportingUnmanaged, prunedBy } from '../kinds/index.js';
import { isStateful } from '../kinds/resource-kind.js';
import type { DesiredBrand } from '../manifest/types.js';

/** The state findings of one live resource, by the address plan and drift give it. */
export interface ResourceFindings {
  address: string;
  findings: Finding[];
}

/**
 * The state findings of every live resource the manifests declare, and of the
 * undeclared ones a kind reports (`ReportsUnmanaged`, or pruned), in registry
 * order and, within a kind, by address. Pure: the clock comes in as `now`.
 */
export function stateFindings(desired: DesiredBrand, live: LiveBrand, now: Date, opts: DriftOptions = DEFAULT_DRIFT_OPTIONS): ResourceFindings[] {
  const out: ResourceFindings[] = [];
  for (const kind of KINDS) {
    if (!isStateful(kind)) continue;
    const match = kind.diff.match(kind.desired(desired), kind.live(live), desired);
    const rows: { address: string; live: unknown; managed: boolean }[] = match.pairs.map(([d, l]) => ({ address: `${kind.name}.${kind.identity.key(d)}`, live: l, managed: true }));
    const reportsExtra = isReportingUnmanaged(kind) || prunedBy(kind, desired.prune);
    for (const l of reportsExtra ? match.extra : []) rows.push({ address: `${kind.name}.${kind.identity.liveId(l)}`, live: l, managed: false });
    rows.sort((a, b) => a.address.localeCompare(b.address));
    for (const row of rows) {
      const findings = kind.findings(row.address, row.live, { managed: row.managed, now, opts });
      if (findings.length > 0) out.push({ address: row.address, findings });
    }
  }
  return out;
}
