// The Markdown view of a plan, for a pull-request comment: a summary table,
// then per brand a table of steps (marker, resource, what happens, gate) and
// the field changes in a collapsible diff. Sized to fit a comment (fit.ts).

import { planGraph, renderMermaid } from '../graph/graph.js';
import { baseSummary, summarise } from '../plan/build-plan.js';
import type { BrandPlan, Step } from '../plan/types.js';
import { BOTH_NOTE, changedOnBothSides, originLine, originSections, outsideSteps } from './origin.js';
import type { ShardGaps } from '../plan/shard.js';
import { brandErrorMarkdown } from './brand-error.js';
import { partialMarkdown } from './partial.js';
import { unmanagedBrandsMarkdown } from './unmanaged-brands.js';
import type { UnmanagedBrand } from '../plan/unmanaged-brands.js';
import { stepUpload, uploadLine } from './change.js';
import { diffLines } from './drift-markdown.js';
import { fitMarkdown, type Part, type Unit } from './fit.js';
import { cell, escapeHtml, fence, inline } from '../util/markdown.js';
import { describe, MARKERS, markerOf, needsAttention, noChangesLine, planTotals, problemText, requestsLine, showsChanges, summaryLine, totalLine } from './plan-text.js';
import { makeStyle } from './style.js';
import { policyFails, policyMarkdown } from './policy.js';
import type { PolicyViolation } from '../core/policy.js';
import { brandCell, brandHtml, brandMarkdown } from './brand-label.js';
import { groupable, groupHeadline, groupPlans } from './plan-groups.js';
import { optionText, reviewText } from '../core/step.js';
import { usageSentences } from './usage.js';
import type { RequestCount } from '../core/requests.js';

const plain = makeStyle(false);

/** How each severity opens its line. */
const SEVERITY_ICON = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/** What a plan's Markdown takes beyond the plans. */
export interface PlanMarkdownOptions {
  rcsctlVersion: string;
  /** The size budget in bytes (DEFAULT_MAX_BYTES). */
  maxBytes?: number;
  /** Where the full report is, named when details are left out (a URL or a CI artifact's name). */
  fullReport?: string;
  previewLink?: string;
  graph?: boolean;
  partial?: ShardGaps;
  /** Live brands no manifest declares (BRAND_UNMANAGED), listed under the table. */
  unmanagedBrands?: UnmanagedBrand[];
  /** Policy rules on the whole run that are broken (docs/policies.md), listed under the table. */
  policy?: PolicyViolation[];
  /** The requests the run made (the plan file's `requests`), said under the table. */
  requests?: RequestCount;
}

/** Render the plans of every brand as GitHub-flavoured Markdown within `maxBytes`. */
export function renderPlanMarkdown(plans: BrandPlan[], opts: PlanMarkdownOptions): string {
  return fitMarkdown([planPart(plans, opts)], versionFoot(opts.rcsctlVersion), { ...fitOf(opts), fullReportDefault: PLAN_FULL_REPORT });
}

/** Said where the full plan is when no --full-report-url is given. */
export const PLAN_FULL_REPORT = "the job's output (`rcsctl plan`, or `--format json`)";

/** The budget and full-report options, as fitMarkdown takes them. */
export function fitOf(opts: { maxBytes?: number; fullReport?: string }): { maxBytes?: number; fullReport?: string } {
  return { ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}), ...(opts.fullReport !== undefined ? { fullReport: opts.fullReport } : {}) };
}

/** The version line that closes a comment. */
export function versionFoot(version: string, at?: string): string[] {
  return ['', `<sub>rcsctl ${version}${at !== undefined ? `, ${at}` : ''}</sub>`];
}

/** A brand the table lists: it changes, failed, or has live resources that need attention. */
export function planListed(p: BrandPlan): boolean {
  return p.error !== undefined || p.problems.length > 0 || p.steps.length > 0 || (p.policy ?? []).length > 0 || (p.findings ?? []).some(needsAttention);
}

/** The plan as a part of a comment: the verdict and the one table of the brands that change or fail, then a collapsed block per brand. */
export function planPart(plans: BrandPlan[], opts: PlanMarkdownOptions): Part {
  const totals = planTotals(plans);
  const listed = plans.filter(planListed);
  const changing = listed.filter((p) => p.steps.length > 0).length;
  const verdict = opts.partial !== undefined ? 'partial report' : totals.failedBrands > 0 ? `${totals.failedBrands} of ${totals.brands} brand${totals.brands === 1 ? '' : 's'} failed` : changing > 0 ? `${changing} of ${totals.brands} brand${totals.brands === 1 ? '' : 's'} change` : 'no changes';
  const head: Unit[] = [{ lines: [`## rcsctl plan: ${verdict}`, ''] }];
  if (opts.partial !== undefined) head.push({ lines: partialMarkdown(opts.partial, plans.length) });
  if (listed.length > 0) head.push({ lines: [`**${totalLine(totals)}**`, ''] });
  const outside = outsideSteps(plans);
  if (outside.steps > 0) head.push({ lines: [`⚠️ **${outside.steps} step${outside.steps === 1 ? '' : 's'} in ${outside.brands} brand${outside.brands === 1 ? '' : 's'} undo${outside.steps === 1 ? 'es' : ''} changes made outside rcsctl since the base was applied** (a console edit, say): not this change's; each brand's block shows them apart.`, ''] });
  if (opts.previewLink !== undefined) head.push({ lines: [previewLine(opts.previewLink), ''] });
  if (listed.length > 0) {
    head.push({ lines: ['| Brand | Create | Update | Delete | Blocked | Needs review | Unmanaged | Problems |', '|---|---:|---:|---:|---:|---:|---:|---:|'] });
    for (const p of listed) {
      const s = summarise(p);
      const row = p.error !== undefined ? `| ${brandCell(p)} | – | – | – | – | – | – | ❌ ${p.error.code} |` : `| ${brandCell(p)} | ${s.create} | ${s.update} | ${s.delete} | ${s.blocked} | ${s.review} | ${s.unmanaged} | ${problemsCell(p)} |`;
      head.push({ lines: [row], label: p.brandId });
    }
  }
  const quiet = plans.length - listed.length;
  const unmanaged = plans.filter((p) => !planListed(p) && p.unmanaged.length > 0).length;
  if (quiet > 0) {
    const also = unmanaged > 0 ? ` (${unmanaged} of them with unmanaged live resources: \`rcsctl plan\` lists them)` : '';
    // Brands whose only news is live resources no manifest declares do not "match their manifests".
    const undeclared = plans.filter((p) => !planListed(p)).reduce((n, p) => n + p.unmanaged.length, 0);
    const none = unmanaged > 0 ? `No changes to apply in ${quiet} brand${quiet === 1 ? '' : 's'}, but ${undeclared} live resource${undeclared === 1 ? ' is' : 's are'} not declared in the manifests (in ${unmanaged} brand${unmanaged === 1 ? '' : 's'}: \`rcsctl plan\` lists them).` : `No changes: all ${quiet} brand${quiet === 1 ? '' : 's'} match their manifests.`;
    head.push({ lines: [...(listed.length === 0 ? [] : ['']), listed.length === 0 ? none : `${quiet} other brand${quiet === 1 ? '' : 's'} unchanged${also}.`] });
  }
  // Which brands each shared base's steps change (the text plan's `From base` lines).
  const bases = baseSummary(plans).map((b) => `From base \`${inline(b.file)}\`: ${b.steps} step${b.steps === 1 ? '' : 's'} in ${b.brands.length} brand${b.brands.length === 1 ? '' : 's'} (${b.brands.map((id) => `\`${inline(id)}\``).join(', ')}).`);
  if (bases.length > 0) head.push({ lines: ['', ...bases.flatMap((l, i) => (i === 0 ? [l] : ['', l]))] });
  const runPolicy = policyMarkdown(opts.policy);
  if (runPolicy.length > 0) head.push({ lines: ['', `### ${policyFails(opts.policy) ? '❌' : '⚠️'} Policy rules broken by the whole change:`, '', ...runPolicy] });
  const unmanagedBrands = unmanagedBrandsMarkdown(opts.unmanagedBrands);
  if (unmanagedBrands.length > 0) head.push({ lines: unmanagedBrands });
  if (opts.requests !== undefined) head.push({ lines: ['', requestsLine(opts.requests)] });
  // First the brands that fail (an error, problems, a policy rule of severity error): nothing is applied for them,
  // and the reviewer must see why whatever the budget leaves out; then those whose steps undo changes made
  // outside rcsctl: within the budget, the reviewer sees them.
  const rank = (p: BrandPlan): number => (p.error !== undefined || p.problems.length > 0 || policyFails(p.policy) ? 0 : outsideSteps([p]).steps > 0 ? 1 : 2);
  // Brands that make the same steps (a change to a shared base) share one block.
  // Where each brand uses a base is its own: a group's block leaves it out (ids: false), as the text plan does.
  const groups = groupPlans([...listed].sort((a, b) => rank(a) - rank(b)), (p) => (groupable(p) ? brandBlock(p, opts.graph === true, false).join('\n') : undefined));
  const blocks = groups.map((g): Unit => {
    const p = g[0] as BrandPlan;
    if (g.length === 1) return { lines: ['', `<details><summary>${brandHtml(p)}: ${escapeHtml(brandVerdict(p))}</summary>`, ...brandBlock(p, opts.graph === true, true), '', '</details>'], label: p.brandId };
    const summary = `<details><summary>${escapeHtml(groupHeadline(g))}: ${escapeHtml(brandVerdict(p))} in each</summary>`;
    return { lines: ['', summary, '', `**In:** ${g.map(brandMarkdown).join(', ')}`, ...brandBlock(p, opts.graph === true, false), '', '</details>'], label: `${g.length} brands`, brands: g.length };
  });
  return { name: 'plan', head, blocks };
}

/**
 * The table's Problems cell: the plan's problems, and the policy rules the brand breaks by name
 * (`❌ policy: no-link-shorteners`, `⚠️ policy: welcome-auto-reply`), so that the table alone says why
 * a brand fails.
 */
function problemsCell(p: BrandPlan): string {
  const rules = (severity: 'error' | 'warning'): string[] => [...new Set((p.policy ?? []).filter((v) => v.severity === severity).map((v) => v.rule))];
  const errors = rules('error');
  const warnings = rules('warning');
  const parts = [
    ...(p.problems.length > 0 || (errors.length === 0 && warnings.length === 0) ? [String(p.problems.length)] : []),
    ...(errors.length > 0 ? [`❌ policy: ${errors.map((r) => cell(r)).join(', ')}`] : []),
    ...(warnings.length > 0 ? [`⚠️ policy: ${warnings.map((r) => cell(r)).join(', ')}`] : []),
  ];
  return parts.join('; ');
}

/** `1 to create, 2 to update`, `failed: …`: a brand's summary line in a few words. */
function brandVerdict(p: BrandPlan): string {
  if (p.error !== undefined) return `failed (${p.error.code})`;
  if (p.problems.length > 0) return `${p.problems.length} problem${p.problems.length === 1 ? '' : 's'}: nothing can be applied`;
  const broken = (p.policy ?? []).filter((v) => v.severity === 'error').length;
  if (broken > 0) return `${changesVerdict(p)}; ${broken} policy violation${broken === 1 ? '' : 's'}: nothing is applied`;
  return changesVerdict(p);
}

/** The steps of a brand that plans, in a few words. */
function changesVerdict(p: BrandPlan): string {
  const s = summarise(p);
  const parts = [[s.create, 'to create'], [s.update, 'to update'], [s.delete, 'to delete'], [s.blocked, 'blocked'], [s.review, s.review === 1 ? 'needs review' : 'need review']] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, w]) => `${n} ${w}`).join(', ');
  const outside = outsideSteps([p]).steps;
  const undo = outside > 0 ? ` (${outside} undo${outside === 1 ? 'es' : ''} changes made outside rcsctl)` : '';
  return said === '' ? 'no changes; live resources need attention' : `${said}${undo}`;
}

function brandBlock(p: BrandPlan, graph: boolean, ids: boolean): string[] {
  const lines = ['', ...(p.owners !== undefined ? [`Owners: ${p.owners.map((o) => `\`${cell(o)}\``).join(', ')}`, ''] : [])];
  if (p.error !== undefined) return [...lines, ...brandErrorMarkdown(p.brandId, p.error), '', '**The plan failed: nothing can be applied for this brand.**'];
  if (p.problems.length > 0) {
    for (const problem of p.problems) lines.push(`- ❌ **${problem.code}**: ${inline(problemText(problem))}`);
    lines.push('', '**The plan failed: nothing can be applied for this brand.**');
    return lines;
  }
  lines.push(`**${summaryLine(summarise(p))}**`, '');
  const broken = policyMarkdown(p.policy);
  if (broken.length > 0) lines.push(policyFails(p.policy) ? '**Policy rules broken: nothing is applied for this brand.**' : '**Policy rules broken (warnings):**', '', ...broken, '');
  const findings = p.findings ?? [];
  if (p.steps.length === 0) {
    const none = noChangesLine(p);
    lines.push(none.clean ? none.text : `⚠️ ${none.text}`);
  } else {
    const sections = originSections(p);
    if (sections === undefined) lines.push(...stepsMarkdown(p.steps, 'Field changes', ids));
    for (const sec of sections ?? []) {
      const icon = sec.side === 'outside' ? '⚠️ ' : '';
      lines.push(`**${icon}${sec.title}** (${sec.steps.length} step${sec.steps.length === 1 ? '' : 's'}):`, '', ...stepsMarkdown(sec.steps, `Field changes (${sec.side === 'outside' ? 'outside rcsctl' : 'the change'})`, ids), '');
    }
    const origin = originLine(p);
    if (origin !== undefined) lines.push(...(lines.at(-1) === '' ? [] : ['']), `_${origin}_`);
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

/**
 * A table of `steps` (marker, resource, name, action, gate), the shared base
 * each step comes from (and, unless `ids` is false, where the brand uses it),
 * then their field changes in a collapsed diff titled `title`.
 */
function stepsMarkdown(steps: Step[], title: string, ids: boolean): string[] {
  const lines = ['| | Resource | Name | Action | Gate |', '|---|---|---|---|---|'];
  for (const step of steps) {
    const gate =
      step.gate.type === 'blocked'
        ? `blocked (${step.gate.state}): ${step.gate.reason}`
        : step.gate.type === 'review'
          ? `${step.gate.withdraws !== undefined ? `withdraws first: ${step.gate.withdraws}; ` : ''}needs review: ${reviewText(step.gate)}`
          : step.gate.type === 'destructive'
            ? 'delete'
            : step.gate.type === 'option'
              ? optionText(step.gate)
              : '';
    lines.push(`| ${markerOf(step, plain).marker} | \`${cell(step.address)}\` | ${cell(JSON.stringify(step.name))} | ${cell(describe(step))} | ${cell(gate)} |`);
  }
  const based = steps.flatMap((step) => {
    const b = step.sharedBase;
    return b === undefined ? [] : [`- \`${inline(step.address)}\` from base \`${inline(`${b.file}:${b.line}`)}\`${ids ? ` (used at \`${inline(`${b.usedAt.file}:${b.usedAt.line}`)}\`)` : ''}`];
  });
  if (based.length > 0) lines.push('', '**From shared bases:**', '', ...based);
  const pressed = steps.flatMap((step) => usageSentences(step).map((u) => `- \`${cell(step.address)}\` ${inline(u)}`));
  if (pressed.length > 0) lines.push('', '**What users press, and this change removes or changes:**', '', ...pressed);
  const diff: string[] = [];
  for (const step of steps) {
    const upload = stepUpload(step);
    if ((step.changes.length === 0 && upload === undefined) || !showsChanges(step)) continue;
    diff.push(`# ${step.address} (${step.op})`, ...(upload !== undefined ? [fence(uploadLine(upload))] : []), ...step.changes.flatMap((c) => diffLines(c).map((l) => (changedOnBothSides(c) ? `${l}  ${BOTH_NOTE}` : l))).map(fence));
  }
  if (diff.length > 0) lines.push('', `<details><summary>${escapeHtml(title)}</summary>`, '', '```diff', ...diff, '```', '', '</details>');
  return lines;
}

/** The line that links the before/after preview: a link for a URL, the path otherwise. */
function previewLine(link: string): string {
  return /^https?:\/\//.test(link)
    ? `🖼 **[See the changed messages and menus, live against proposed](${link.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})**`
    : `🖼 **The changed messages and menus, live against proposed:** \`${link.replace(/[`\r\n]/g, '')}\` (in this job's artifacts)`;
}
