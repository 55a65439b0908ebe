// The Markdown view of a drift report, sized for a pull-request or issue
// comment: a summary table per brand, then one collapsible <details> block
// per resource that has findings.

import { formatChange } from './change.js';
import type { FieldChange } from '../plan/types.js';
import { cell, escapeHtml, fence, inline } from '../util/markdown.js';
import { brandErrorMarkdown, STOPPED_HEADLINE } from './brand-error.js';
import { partialMarkdown } from './partial.js';
import { unmanagedBrandsMarkdown } from './unmanaged-brands.js';
import { brandFailed } from '../report/build-drift.js';
import type { DriftReport, ResourceDrift, Severity } from '../report/types.js';

const ICON: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };

/** GitHub refuses comments over 65,536 characters; details stop short of that, with room for the rest. */
export const MARKDOWN_BUDGET = 60_000;

/** Render the report as GitHub-flavoured Markdown, at most about `budget` characters. */
export function renderDriftMarkdown(report: DriftReport, budget = MARKDOWN_BUDGET): string {
  const s = report.summary;
  const out: string[] = [];
  const verdict = report.error !== undefined ? 'stopped' : report.partial !== undefined ? 'partial report' : s.failedBrands > 0 ? `${s.failedBrands} of ${s.brands} brand${s.brands === 1 ? '' : 's'} failed` : report.clean ? 'no drift' : 'drift found';
  out.push(`## rcsctl drift: ${verdict}`, '');
  if (report.partial !== undefined) out.push(...partialMarkdown(report.partial, report.brands.length));
  if (report.error !== undefined) out.push(...brandErrorMarkdown('manifests', report.error, STOPPED_HEADLINE), '');
  if (report.brands.length > 0 || report.error === undefined) {
    out.push('| Brand | Status | Resources | In sync | Changed | Missing | Unmanaged | Errors | Warnings | Info |');
    out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  }
  for (const b of report.brands) {
    const t = b.summary;
    out.push(`| \`${b.brandId}\` | ${brandFailed(b) ? '❌ failed' : b.clean ? '✅ clean' : '❌ drifted'} | ${t.resources} | ${t.inSync} | ${t.changed} | ${t.missing} | ${t.unmanaged} | ${t.errors} | ${t.warnings} | ${t.infos} |`);
  }
  if (report.brands.length > 1) {
    const failed = s.failedBrands;
    out.push(`| **total** | ${failed > 0 ? `❌ ${failed} failed` : report.clean ? '✅ clean' : '❌ drifted'} | ${s.resources} | ${s.inSync} | ${s.changed} | ${s.missing} | ${s.unmanaged} | ${s.errors} | ${s.warnings} | ${s.infos} |`);
  }
  out.push(...unmanagedBrandsMarkdown(report.unmanagedBrands));
  let size = out.join('\n').length;
  let left = 0;
  for (const b of report.brands) {
    const withFindings = b.resources.filter((r) => r.findings.length > 0);
    if (withFindings.length === 0 && b.problems.length === 0 && b.notes.length === 0 && b.error === undefined) continue;
    const head = ['', `### ${b.brandId}`, ''];
    if (b.error !== undefined) head.push(...brandErrorMarkdown(b.brandId, b.error));
    for (const p of b.problems) head.push(`- ❌ **${p.code}**: ${inline(p.message)}`);
    for (const n of b.notes) head.push(`> ${inline(n)}`, '');
    out.push(...head);
    size += head.join('\n').length;
    for (const r of withFindings) {
      const block = [...details(r), ''];
      const length = block.join('\n').length + 1;
      if (left > 0 || size + length > budget) {
        left++;
        continue;
      }
      out.push(...block);
      size += length;
    }
  }
  if (left > 0) out.push('', `_${left} more resource${left === 1 ? '' : 's'} with findings not shown here, to keep this comment within size limits; the full report is in the job's output (\`rcsctl drift --format json\` or \`--format junit\`)._`);
  out.push('', `<sub>rcsctl ${report.rcsctlVersion}, ${report.generatedAt}</sub>`);
  return out.join('\n') + '\n';
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

