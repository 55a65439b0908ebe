// The Markdown view of a plan, for a pull-request comment: a summary table,
// then per brand a table of steps (marker, resource, what happens, gate) and
// the field changes in a collapsible diff. Sized to fit a comment.

import { planGraph, renderMermaid } from '../graph/graph.js';
import { summarise } from '../plan/build-plan.js';
import type { BrandPlan } from '../plan/types.js';
import type { ShardGaps } from '../plan/shard.js';
import { brandErrorMarkdown } from './brand-error.js';
import { partialMarkdown } from './partial.js';
import { unmanagedBrandsMarkdown } from './unmanaged-brands.js';
import type { UnmanagedBrand } from '../plan/unmanaged-brands.js';
import { stepUpload, uploadLine } from './change.js';
import { diffLines, MARKDOWN_BUDGET } from './drift-markdown.js';
import { cell, fence, inline } from '../util/markdown.js';
import { describe, MARKERS, markerOf, needsAttention, planTotals, problemText, showsChanges, summaryLine } from './plan-text.js';
import { makeStyle } from './style.js';
import { reviewText } from '../core/step.js';

const plain = makeStyle(false);

/** How each severity opens its line. */
const SEVERITY_ICON = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/** Render the plans of every brand as GitHub-flavoured Markdown, at most about `budget` characters. */
export function renderPlanMarkdown(plans: BrandPlan[], opts: { rcsctlVersion: string; budget?: number; previewLink?: string; graph?: boolean; partial?: ShardGaps; unmanagedBrands?: UnmanagedBrand[] }): string {
  const budget = opts.budget ?? MARKDOWN_BUDGET;
  const totals = planTotals(plans);
  const verdict = opts.partial !== undefined ? ': partial report' : totals.failedBrands > 0 ? `: ${totals.failedBrands} of ${totals.brands} brand${totals.brands === 1 ? '' : 's'} failed` : '';
  const out: string[] = [`## rcsctl plan${verdict}`, ''];
  if (opts.partial !== undefined) out.push(...partialMarkdown(opts.partial, plans.length));
  out.push('| Brand | Create | Update | Delete | Blocked | Needs review | Unmanaged | Problems |', '|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of plans) {
    const s = summarise(p);
    if (p.error !== undefined) {
      out.push(`| \`${p.brandId}\` | – | – | – | – | – | – | ❌ ${p.error.code} |`);
      continue;
    }
    out.push(`| \`${p.brandId}\` | ${s.create} | ${s.update} | ${s.delete} | ${s.blocked} | ${s.review} | ${s.unmanaged} | ${p.problems.length} |`);
  }
  if (plans.length > 1) {
    const t = totals;
    out.push(`| **total** | ${t.create} | ${t.update} | ${t.delete} | ${t.blocked} | ${t.review} | ${t.unmanaged} | ${t.failedBrands > 0 ? `❌ ${t.failedBrands} brand${t.failedBrands === 1 ? '' : 's'} failed` : '0'} |`);
  }
  if (opts.previewLink !== undefined) out.push('', previewLine(opts.previewLink));
  out.push(...unmanagedBrandsMarkdown(opts.unmanagedBrands));
  let size = out.join('\n').length;
  let omitted = 0;
  for (const p of plans) {
    const block = brandBlock(p, opts.graph === true);
    const length = block.join('\n').length + 1;
    if (size + length > budget) {
      omitted++;
      out.push('', `### ${p.brandId}`, '', `**${summaryLine(summarise(p))}** Details left out to keep this comment within size limits.`);
      continue;
    }
    out.push(...block);
    size += length;
  }
  if (omitted > 0) out.push('', `_The full plan is in the job's output (\`rcsctl plan\`, or \`--format json\`)._`);
  out.push('', `<sub>rcsctl ${opts.rcsctlVersion}</sub>`);
  return out.join('\n') + '\n';
}

function brandBlock(p: BrandPlan, graph: boolean): string[] {
  const lines = ['', `### ${p.brandId}`, ''];
  if (p.error !== undefined) return [...lines, ...brandErrorMarkdown(p.brandId, p.error), '', '**The plan failed: nothing can be applied for this brand.**'];
  if (p.problems.length > 0) {
    for (const problem of p.problems) lines.push(`- ❌ **${problem.code}**: ${inline(problemText(problem))}`);
    lines.push('', '**The plan failed: nothing can be applied for this brand.**');
    return lines;
  }
  lines.push(`**${summaryLine(summarise(p))}**`, '');
  const findings = p.findings ?? [];
  const attention = new Set(findings.filter(needsAttention).map((f) => f.address)).size;
  if (p.steps.length === 0) {
    lines.push(attention > 0 ? `⚠️ No changes to apply, but ${attention} live resource${attention === 1 ? ' needs' : 's need'} attention (below).` : 'No changes. The live brand matches the manifests.');
  } else {
    lines.push('| | Resource | Name | Action | Gate |', '|---|---|---|---|---|');
    for (const step of p.steps) {
      const gate =
        step.gate.type === 'blocked'
          ? `blocked (${step.gate.state}): ${step.gate.reason}`
          : step.gate.type === 'review'
            ? `${step.gate.withdraws !== undefined ? `withdraws first: ${step.gate.withdraws}; ` : ''}needs review: ${reviewText(step.gate)}`
            : step.gate.type === 'destructive'
              ? 'delete'
              : '';
      lines.push(`| ${markerOf(step, plain).marker} | \`${cell(step.address)}\` | ${cell(JSON.stringify(step.name))} | ${cell(describe(step))} | ${cell(gate)} |`);
    }
    const diff: string[] = [];
    for (const step of p.steps) {
      const upload = stepUpload(step);
      if ((step.changes.length === 0 && upload === undefined) || !showsChanges(step)) continue;
      diff.push(`# ${step.address} (${step.op})`, ...(upload !== undefined ? [fence(uploadLine(upload))] : []), ...step.changes.flatMap(diffLines).map(fence));
    }
    if (diff.length > 0) lines.push('', `<details><summary>Field changes</summary>`, '', '```diff', ...diff, '```', '', '</details>');
    // Mermaid renders in a GitHub comment: the steps, numbered, and what waits for what.
    if (graph) lines.push('', '<details><summary>Order of the steps (graph)</summary>', '', '```mermaid', ...renderMermaid([planGraph(p)]).trimEnd().split('\n').map(fence), '```', '', '</details>');
  }
  if (findings.length > 0) {
    lines.push('', '**Live state** (as `rcsctl drift` reports it):', '');
    for (const f of findings) lines.push(`- ${SEVERITY_ICON[f.severity]} \`${cell(f.address)}\` **${f.code}** (${f.severity}): ${inline(f.message)} ${inline(f.action)} ([help](${f.help}))`);
  }
  if (p.moves !== undefined && p.moves.length > 0) {
    lines.push('', '**Moved** (`moved:` declarations, updated in place, live ids kept):', '');
    for (const m of p.moves) lines.push(`- \`${cell(m.from)}\` → \`${cell(m.to)}\` (${cell(m.liveId)})`);
  }
  if (p.renames !== undefined && p.renames.length > 0) {
    lines.push('', '**Looks like a rename:** a delete and a create with the same content under another name. To keep the live id, declare:', '', '```yaml', 'moved:');
    for (const r of p.renames) lines.push(`  - { from: ${r.from}, to: ${r.to} }  # ${JSON.stringify(r.fromName)} → ${JSON.stringify(r.toName)}`);
    lines.push('```');
  }
  if (p.unmanaged.length > 0) {
    lines.push('', `<details><summary>${p.unmanaged.length} unmanaged (live, not in the manifests)</summary>`, '');
    for (const u of p.unmanaged) lines.push(`- ${MARKERS.unmanaged} \`${cell(`${u.kind}.${u.id}`)}\` ${inline(JSON.stringify(u.name))}`);
    lines.push('', '</details>');
  }
  return lines;
}

/** The line that links the before/after preview: a link for a URL, the path otherwise. */
function previewLine(link: string): string {
  return /^https?:\/\//.test(link)
    ? `🖼 **[See the changed messages and menus, live against proposed](${link.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})**`
    : `🖼 **The changed messages and menus, live against proposed:** \`${link.replace(/[`\r\n]/g, '')}\` (in this job's artifacts)`;
}
