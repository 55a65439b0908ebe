// The text view of a drift report, for a terminal or a CI log: one block per
// resource that has findings, each finding with what to do and where it is
// explained, then a summary line.

import { brandErrorText, failedHeadline, STOPPED_HEADLINE } from './brand-error.js';
import type { Style } from './style.js';
import { brandText } from './brand-label.js';
import { formatChange } from './change.js';
import { partialText } from './partial.js';
import { unmanagedBrandsClause, unmanagedBrandsText } from './unmanaged-brands.js';
import { problemText, requestsLine } from './plan-text.js';
import type { BrandDrift, DriftReport, Finding, ReportSummary, Severity } from '../report/types.js';

/** Render the report as text (`style` decides colour). */
export function renderDriftText(report: DriftReport, style: Style): string {
  const lines: string[] = [];
  const partial = report.partial !== undefined ? partialText(report.partial, report.brands.length).map((l) => style.red(style.bold(l))) : [];
  if (partial.length > 0) lines.push(...partial, '');
  for (const brand of report.brands) lines.push(...renderBrand(brand, style), '');
  const unmanaged = unmanagedBrandsText(report.unmanagedBrands, style);
  if (unmanaged.length > 0) lines.push(...unmanaged, '');
  // A run that stopped ends on why, never on a line that reads clean.
  if (report.error !== undefined) lines.push(...brandErrorText(report.error, style), '', style.red(style.bold(`Drift: ${STOPPED_HEADLINE}.`)));
  else {
    const summary = summaryLine(report.summary, report.clean) + unmanagedBrandsClause(report.unmanagedBrands);
    // The requests the run made, above the summary: the summary stays the last line.
    if (report.requests !== undefined) lines.push(requestsLine(report.requests));
    lines.push(report.summary.failedBrands > 0 ? style.red(style.bold(summary)) : style.bold(summary));
  }
  // The banner ends the report too: its last line must not read as the whole set's.
  if (partial.length > 0) lines.push('', ...partial);
  return lines.join('\n') + '\n';
}

/**
 * `Drift: 2 changed, 1 missing, 0 unmanaged; 1 error, 2 warnings, 1 info (14 resources, 11 in sync).`
 * A report with failed brands opens with them, so its last line never reads
 * clean: `Drift check failed for 2 of 40 brands; in the others: 0 changed, …`.
 */
export function summaryLine(s: ReportSummary, clean: boolean): string {
  const head = s.failedBrands > 0 ? `Drift check failed for ${s.failedBrands} of ${s.brands} brand${plural(s.brands)}; in the others: ` : clean ? 'No drift: ' : 'Drift: ';
  return (
    `${head}${s.changed} changed, ${s.missing} missing, ${s.unmanaged} unmanaged; ` +
    `${s.errors} error${plural(s.errors)}, ${s.warnings} warning${plural(s.warnings)}, ${s.infos} info ` +
    `(${s.resources} resource${plural(s.resources)}, ${s.inSync} in sync).`
  );
}

function renderBrand(brand: BrandDrift, style: Style): string[] {
  const owners = brand.owners !== undefined ? [`  Owners: ${brand.owners.join(', ')}`] : [];
  if (brand.error !== undefined) return [style.bold(`Brand ${brandText(brand)}: ${failedHeadline(brand.error)}`), ...owners, ...brandErrorText(brand.error, style)];
  const lines = [style.bold(`Brand ${brandText(brand)}: ${brand.clean ? 'clean' : 'drifted'}`), ...owners];
  for (const p of brand.problems) lines.push(style.red(`  error[${p.code}] ${problemText(p)}`));
  for (const note of brand.notes) lines.push(style.dim(`  note: ${note}`));
  const withFindings = brand.resources.filter((r) => r.findings.length > 0);
  if (withFindings.length === 0 && brand.problems.length === 0) lines.push(style.green(`  All ${brand.resources.length} resources match the manifests; no state needs attention.`));
  for (const r of withFindings) {
    const id = r.liveId !== undefined && !r.address.endsWith(`.${r.liveId}`) ? ` (${r.liveId})` : '';
    const state = r.state !== undefined ? ` [${r.state}]` : '';
    lines.push('', `  ${style.bold(r.address)} "${r.name}"${id}${state}`);
    for (const f of r.findings) lines.push(...renderFinding(f, style));
  }
  return lines;
}

function renderFinding(f: Finding, style: Style): string[] {
  const paint = severityStyle(f.severity, style);
  const lines = [`    ${paint(`${f.severity} ${f.code}`)}: ${f.message}`];
  for (const c of f.changes ?? []) {
    const paint = c.type === 'add' ? style.green : c.type === 'remove' ? style.red : style.yellow;
    lines.push(paint(`        ${formatChange(c)}`));
  }
  lines.push(`      what to do: ${f.action}`);
  lines.push(style.dim(`      see ${f.help}`));
  return lines;
}

function severityStyle(s: Severity, style: Style): (t: string) => string {
  switch (s) {
    case 'error':
      return style.red;
    case 'warning':
      return style.yellow;
    case 'info':
      return style.cyan;
    default: {
      const never: never = s;
      throw new Error(`unknown severity ${String(never)}`);
    }
  }
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}
