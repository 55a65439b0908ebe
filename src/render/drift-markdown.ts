// The Markdown view of a drift report, sized for a pull-request or issue
// comment (fit.ts): one table of the brands that drifted or failed, then per
// brand a collapsed block of its resources with findings.

import { formatChange } from './change.js';
import type { FieldChange } from '../plan/types.js';
import { cell, escapeHtml, fence, inline } from '../util/markdown.js';
import { brandErrorMarkdown, STOPPED_HEADLINE } from './brand-error.js';
import { partialMarkdown } from './partial.js';
import { unmanagedBrandsMarkdown } from './unmanaged-brands.js';
import { summaryLine } from './drift-text.js';
import { requestsLine } from './plan-text.js';
import { brandFailed } from '../report/build-drift.js';
import type { BrandDrift, DriftReport, ResourceDrift, Severity } from '../report/types.js';
import { fitMarkdown, type Part, type Unit } from './fit.js';
import { brandCell, brandHtml } from './brand-label.js';

const ICON: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };

/** What a drift report's Markdown takes beyond the report. */
export interface DriftMarkdownOptions {
  /** The size budget in bytes (DEFAULT_MAX_BYTES). */
  maxBytes?: number;
  /** Where the full report is, named when details are left out (a URL or a CI artifact's name). */
  fullReport?: string;
  /**
   * By brand, the addresses a plan in the same comment already shows: their
   * drift is not repeated (a pull request's drift is its plan's changes).
   */
  shownInPlan?: Map<string, Set<string>>;
}

/** The findings a plan's step at the same address shows. */
const SHOWN_BY_PLAN = new Set(['DRIFT_CHANGED', 'DRIFT_MISSING']);

/** Said where the full drift report is when no --full-report-url is given. */
export const DRIFT_FULL_REPORT = "the job's output (`rcsctl drift --format json` or `--format junit`)";

/** Render the report as GitHub-flavoured Markdown within `maxBytes`. */
export function renderDriftMarkdown(report: DriftReport, opts: DriftMarkdownOptions = {}): string {
  const fit = { ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}), ...(opts.fullReport !== undefined ? { fullReport: opts.fullReport } : {}) };
  return fitMarkdown([driftPart(report, opts)], ['', `<sub>rcsctl ${report.rcsctlVersion}, ${report.generatedAt}</sub>`], { ...fit, fullReportDefault: DRIFT_FULL_REPORT });
}

/** The drift report as a part of a comment: the verdict, the one table of the brands that drifted or failed, then a collapsed block per brand. */
export function driftPart(report: DriftReport, opts: DriftMarkdownOptions = {}): Part {
  const s = report.summary;
  const verdict = report.error !== undefined ? 'stopped' : report.partial !== undefined ? 'partial report' : s.failedBrands > 0 ? `${s.failedBrands} of ${s.brands} brand${s.brands === 1 ? '' : 's'} failed` : report.clean ? 'no drift' : 'drift found';
  const head: Unit[] = [{ lines: [`## rcsctl drift: ${verdict}`, ''] }];
  if (report.partial !== undefined) head.push({ lines: partialMarkdown(report.partial, report.brands.length) });
  if (report.error !== undefined) head.push({ lines: [...brandErrorMarkdown('manifests', report.error, STOPPED_HEADLINE), ''] });
  const brands = report.brands.map((b) => ({ b, ...unshown(b, opts.shownInPlan?.get(b.brandId)) }));
  // A brand whose drift is all the plan's changes is the plan's row, not another one here.
  const rows = brands.filter(({ b, fresh }) => brandFailed(b) || (!b.clean && fresh.some((r) => r.findings.some((f) => f.severity !== 'info'))));
  const planned = brands.filter(({ b, repeated }) => !b.clean && repeated > 0 && !rows.some((r) => r.b === b)).length;
  const repeated = brands.reduce((n, x) => n + x.repeated, 0);
  if (rows.length > 0) head.push({ lines: [`**${summaryLine(s, report.clean)}**`, ''] });
  if (rows.length > 0) {
    head.push({ lines: ['| Brand | Status | Resources | In sync | Changed | Missing | Unmanaged | Errors | Warnings | Info |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|'] });
    for (const { b } of rows) {
      const t = b.summary;
      head.push({ lines: [`| ${brandCell(b)} | ${brandFailed(b) ? '❌ failed' : '❌ drifted'} | ${t.resources} | ${t.inSync} | ${t.changed} | ${t.missing} | ${t.unmanaged} | ${t.errors} | ${t.warnings} | ${t.infos} |`], label: b.brandId });
    }
  }
  const clean = report.brands.filter((b) => b.clean && !brandFailed(b)).length;
  const said: string[] = [];
  if (repeated > 0) said.push(`${repeated} drifted resource${repeated === 1 ? ' is' : 's are'} the plan's changes above: not repeated here${planned > 0 ? ` (${planned} brand${planned === 1 ? '' : 's'} drifted only so)` : ''}.`);
  if (clean > 0) said.push(rows.length === 0 && planned === 0 ? `No drift: all ${clean} brand${clean === 1 ? '' : 's'} match their manifests.` : `${clean} ${rows.length > 0 ? 'other ' : ''}brand${clean === 1 ? '' : 's'} clean.`);
  if (said.length > 0) head.push({ lines: [...(rows.length === 0 ? [] : ['']), said.join(' ')] });
  const unmanagedBrands = unmanagedBrandsMarkdown(report.unmanagedBrands);
  if (unmanagedBrands.length > 0) head.push({ lines: unmanagedBrands });
  if (report.requests !== undefined) head.push({ lines: ['', requestsLine(report.requests)] });
  const blocks: Unit[] = [];
  for (const { b, fresh } of brands) {
    if (fresh.length === 0 && b.problems.length === 0 && b.notes.length === 0 && b.error === undefined) continue;
    const verdict = brandFailed(b) ? 'failed' : `${b.clean ? 'clean; ' : ''}${fresh.length} resource${fresh.length === 1 ? '' : 's'} with findings`;
    const lines = ['', `<details><summary>${brandHtml(b)}: ${verdict}</summary>`, '', ...(b.owners !== undefined ? [`Owners: ${b.owners.map((o) => `\`${cell(o)}\``).join(', ')}`, ''] : [])];
    if (b.error !== undefined) lines.push(...brandErrorMarkdown(b.brandId, b.error), '');
    for (const p of b.problems) lines.push(`- ❌ **${p.code}**: ${inline(p.message)}`);
    for (const n of b.notes) lines.push(`> ${inline(n)}`, '');
    const items = fresh.map((r) => [...details(r), '']);
    blocks.push({ lines: [...lines, ...items.flat(), '</details>'], label: b.brandId, parts: { open: lines, items, close: ['</details>'] } });
  }
  return { name: 'drift', head, blocks };
}

/** A brand's resources with findings the plan does not show (a change or a missing resource at an address it changes is its step), and how many it does. */
function unshown(b: BrandDrift, shown: Set<string> | undefined): { fresh: ResourceDrift[]; repeated: number } {
  const withFindings = b.resources.filter((r) => r.findings.length > 0);
  const fresh = withFindings
    .map((r) => (shown?.has(r.address) === true ? { ...r, findings: r.findings.filter((f) => !SHOWN_BY_PLAN.has(f.code)) } : r))
    .filter((r) => r.findings.length > 0);
  return { fresh, repeated: withFindings.length - fresh.length };
}

function details(r: ResourceDrift): string[] {
  const worst = (['error', 'warning', 'info'] as const).find((sev) => r.findings.some((f) => f.severity === sev)) ?? 'info';
  const counts = (['error', 'warning', 'info'] as const)
    .map((sev) => [sev, r.findings.filter((f) => f.severity === sev).length] as const)
    .filter(([, n]) => n > 0)
    .map(([sev, n]) => `${n} ${sev}${n === 1 || sev === 'info' ? '' : 's'}`)
    .join(', ');
  const state = r.state !== undefined ? ` [${escapeHtml(r.state)}]` : '';
  const lines = [`<details><summary>${ICON[worst]} <code>${escapeHtml(r.address)}</code> ${escapeHtml(JSON.stringify(r.name))}${state}: ${counts}</summary>`, ''];
  lines.push('| Severity | Code | Finding | What to do |', '|---|---|---|---|');
  for (const f of r.findings) lines.push(`| ${ICON[f.severity]} ${f.severity} | [\`${f.code}\`](${f.help}) | ${cell(f.message)} | ${cell(f.action)} |`);
  const changes = r.findings.flatMap((f) => f.changes ?? []);
  if (changes.length > 0) lines.push('', '```diff', ...changes.flatMap(diffLines).map(fence), '```');
  lines.push('', '</details>');
  return lines;
}

/**
 * One change as diff lines: an addition `+`, a removal `-`, and a change as the
 * pair `-` before, `+` after, which GitHub colours red and green (it does not
 * colour `!`, and `!` means "blocked" in the text plan).
 */
export function diffLines(c: FieldChange): string[] {
  if (c.type !== 'change') return [formatChange(c)];
  return [formatChange({ path: c.path, type: 'remove', before: c.before }), formatChange({ path: c.path, type: 'add', after: c.after })];
}

