// The text view of a plan, in the style of a Terraform plan: one block per
// step with its marker (+ ~ - ! ⚑), the field diffs, and a summary line.

import { baseSummary, changeOf, summarise } from '../plan/build-plan.js';
import { formatChange, stepUpload, uploadLine } from './change.js';
import type { BrandPlan, FieldChange, PlanSummary, Step } from '../plan/types.js';
import { brandErrorText, failedHeadline } from './brand-error.js';
import { makeStyle, type Style } from './style.js';
import { brandText } from './brand-label.js';
import { groupable, groupHeadline, groupPlans, type PlanGroup } from './plan-groups.js';
import { optionText, refusedByOption, reviewText } from '../core/step.js';
import { wordsFor } from '../kinds/index.js';
import type { Finding } from '../core/finding.js';
import { BOTH_NOTE, changedOnBothSides, originLine, originSections } from './origin.js';
import { usageSentences } from './usage.js';
import { policyFails, policyText } from './policy.js';
import { requestsText, type RequestCount } from '../core/requests.js';

/** Markers: create, update, delete, blocked, needs review. */
export const MARKERS = { create: '+', update: '~', delete: '-', blocked: '!', review: '⚑', unmanaged: '?' } as const;

/** Render one brand's plan (`ids: false` leaves out the live ids of the steps' resources: for steps shown for several brands). */
export function renderPlan(plan: BrandPlan, style: Style, opts: { baseUrl?: string; ids?: boolean } = {}): string {
  const lines: string[] = [];
  const where = opts.baseUrl !== undefined ? ` at ${opts.baseUrl}` : '';
  if (plan.error !== undefined) {
    lines.push(style.bold(`Brand ${brandText(plan)}${where}: ${failedHeadline(plan.error)}`), ...(plan.owners !== undefined ? [`  Owners: ${plan.owners.join(', ')}`] : []), '', ...brandErrorText(plan.error, style), '');
    lines.push(style.red('Plan failed for this brand; nothing can be applied for it.'));
    return lines.join('\n') + '\n';
  }
  lines.push(style.bold(`Brand ${brandText(plan)}${where}`));
  if (plan.owners !== undefined) lines.push(`  Owners: ${plan.owners.join(', ')}`);
  if (plan.problems.length > 0) {
    lines.push('');
    for (const p of plan.problems) lines.push(style.red(`  error[${p.code}] ${problemText(p)}`));
    lines.push('');
    lines.push(style.red(`Plan failed: ${plan.problems.length} problem${plural(plan.problems.length)}; nothing can be applied for this brand.`));
    return lines.join('\n') + '\n';
  }
  const findings = plan.findings ?? [];
  if (plan.steps.length === 0) {
    lines.push('');
    const none = noChangesLine(plan);
    lines.push(none.clean ? style.green(`  ${none.text}`) : style.yellow(`  ${none.text}`));
  } else {
    lines.push('', ...renderSteps(plan, style, opts.ids !== false));
  }
  if (plan.unmanaged.length > 0) {
    if (plan.steps.length === 0) lines.push('');
    lines.push('  Unmanaged (live, not in the manifests; name the kind in `prune:` to delete):');
    for (const u of plan.unmanaged) lines.push(style.dim(`    ${MARKERS.unmanaged} ${u.kind}.${u.id} "${u.name}"`));
    lines.push('');
  } else if (plan.steps.length === 0) {
    lines.push('');
  }
  if (plan.renames !== undefined && plan.renames.length > 0) lines.push(...renameText(plan.renames).map((l) => style.yellow(l)), '');
  if (findings.length > 0) lines.push(...renderFindings(findings, style), '');
  if ((plan.policy ?? []).length > 0) lines.push(...policyText(plan.policy, style), '');
  lines.push(summaryLine(summarise(plan)));
  const origin = originLine(plan);
  if (origin !== undefined) lines.push(plan.compared?.base === 'failed' ? style.yellow(origin) : origin);
  return lines.join('\n') + '\n';
}

/** Every step's lines; a plan compared with its base (`--compare-to`) in two groups, the change's and those undoing changes made outside rcsctl. */
function renderSteps(plan: BrandPlan, style: Style, ids: boolean): string[] {
  const sections = originSections(plan);
  if (sections === undefined) return plan.steps.flatMap((step) => [...renderStep(step, style, ids), '']);
  return sections.flatMap((s) => [(s.side === 'outside' ? style.yellow : style.bold)(`  ${s.title}:`), '', ...s.steps.flatMap((step) => [...renderStep(step, style, ids), ''])]);
}

/** `Plan: 3 to create, 2 to update, 1 to delete; 1 blocked, 1 needs review; 4 unmanaged.` */
export function summaryLine(s: PlanSummary): string {
  return `Plan: ${counts(s)}`;
}

function counts(s: PlanSummary): string {
  return `${s.create} to create, ${s.update} to update, ${s.delete} to delete; ${s.blocked} blocked, ${s.review} need${s.review === 1 ? 's' : ''} review; ${s.unmanaged} unmanaged.`;
}

/** The plans of several brands added up: the steps of those that planned, and how many brands failed. */
export interface PlanTotals extends PlanSummary {
  brands: number;
  /** Brands that failed (manifests, reading) or whose plan has problems: nothing can be applied for them. */
  failedBrands: number;
}

/** True when nothing can be applied for the brand: it failed, or its plan has problems. */
export function planFailed(p: BrandPlan): boolean {
  return p.error !== undefined || p.problems.length > 0 || policyFails(p.policy);
}

/** Add up the plans of `plans`; a failed brand is counted as failed, its steps not at all. */
export function planTotals(plans: BrandPlan[]): PlanTotals {
  const t: PlanTotals = { brands: plans.length, failedBrands: 0, create: 0, update: 0, delete: 0, blocked: 0, review: 0, unmanaged: 0 };
  for (const p of plans) {
    if (planFailed(p)) {
      t.failedBrands++;
      continue;
    }
    const s = summarise(p);
    for (const k of ['create', 'update', 'delete', 'blocked', 'review', 'unmanaged'] as const) t[k] += s[k];
  }
  return t;
}

/**
 * The grand total of several brands, the last line of a text plan:
 * `Total for 40 brands: 3 to create, …`, or, when some failed,
 * `Plan failed for 2 of 40 brands (nothing can be applied for them); the others: 3 to create, …`.
 */
export function totalLine(t: PlanTotals): string {
  const s = t.brands === 1 ? '' : 's';
  return t.failedBrands > 0 ? `Plan failed for ${t.failedBrands} of ${t.brands} brand${s} (nothing can be applied for them); the others: ${counts(t)}` : `Total for ${t.brands} brand${s}: ${counts(t)}`;
}

/** What a text plan takes beyond the plans. */
export interface PlansTextOptions {
  /** The requests the run made (the plan file's `requests`): the last line gives them. */
  requests?: RequestCount;
}

/**
 * The text plan of every brand, then, for more than one brand, the grand
 * total; the requests the run made go just above the last line, which stays
 * the summary (a log showing its last line alone reads the verdict).
 */
export function renderPlans(plans: BrandPlan[], style: Style, opts: PlansTextOptions = {}): string {
  const groups = groupPlans(plans, (p) => (groupable(p) ? withoutHeader(renderPlan(p, plain, { ids: false })) : undefined));
  const text = groups.map((g) => (g.length === 1 ? renderPlan(g[0] as BrandPlan, style) : renderGroup(g, style))).join('\n');
  const bases = baseLines(plans).map((l) => `${l}\n`).join('');
  const t = planTotals(plans);
  const all = plans.length < 2 ? `${text}${bases === '' ? '' : `\n${bases}`}` : `${text}\n${bases}${(t.failedBrands > 0 ? style.red : style.bold)(totalLine(t))}\n`;
  return opts.requests === undefined ? all : aboveLastLine(all, requestsLine(opts.requests));
}

const plain = makeStyle(false);

/** A brand's text plan without its first line, which names the brand. */
function withoutHeader(text: string): string {
  return text.slice(text.indexOf('\n') + 1);
}

/**
 * The plan of brands that make the same steps, once: `The same 3 changes in 37
 * brands:`, the brands one a line, the steps (without live ids, which differ
 * from brand to brand), and the summary of each.
 */
export function renderGroup(group: PlanGroup, style: Style): string {
  const first = group[0] as BrandPlan;
  const body = withoutHeader(renderPlan(first, style, { ids: false })).trimEnd().split('\n');
  // The summary counts one brand's steps: it says so.
  const summary = summaryLine(summarise(first));
  const at = body.lastIndexOf(summary);
  if (at !== -1) body[at] = summary.replace(/^Plan: /, `Plan, in each of the ${group.length} brands: `);
  return [style.bold(`${groupHeadline(group)}:`), ...group.map((p) => `  ${brandText(p)}`), ...body].join('\n') + '\n';
}

/** `text` (ending in a newline) with `line` inserted above its last line. */
export function aboveLastLine(text: string, line: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const at = body.lastIndexOf('\n');
  return `${body.slice(0, at + 1)}${line}\n${body.slice(at + 1)}\n`;
}

/** How many brands each shared base's steps change, and which. */
export function baseLines(plans: BrandPlan[]): string[] {
  return baseSummary(plans).map((b) => `From base ${b.file}: ${b.steps} step${b.steps === 1 ? '' : 's'} in ${b.brands.length} brand${b.brands.length === 1 ? '' : 's'} (${b.brands.join(', ')})`);
}

/** `Requests: 57 requests, 2 answered 429.`: what the run cost the account's rate limit, in every text and Markdown summary. */
export function requestsLine(c: RequestCount): string {
  return `Requests: ${requestsText(c)}.`;
}

/** The lines of one step: a header (with the live id and where its brand uses a base, unless `ids` is false: steps shown for several brands), then its field changes indented. */
export function renderStep(step: Step, style: Style, ids = true): string[] {
  const { marker, paint } = markerOf(step, style);
  const id = ids && step.liveId !== undefined && step.liveId !== step.address.split('.').slice(1).join('.') ? ` (${step.liveId})` : '';
  const header = `  ${paint(marker)} ${style.bold(step.address)} "${step.name}"${id}  ${describe(step)}`;
  const lines = [header];
  if (step.movedFrom !== undefined) lines.push(style.yellow(`      moved from ${step.movedFrom} (a \`moved:\` declaration): updated in place, the live id kept`));
  // Where each brand uses the base is its own: not said of steps shown for several brands.
  if (step.sharedBase !== undefined) lines.push(style.dim(`      from base ${step.sharedBase.file}:${step.sharedBase.line}${ids ? ` (used at ${step.sharedBase.usedAt.file}:${step.sharedBase.usedAt.line})` : ''}`));
  switch (step.gate.type) {
    case 'blocked':
      lines.push(style.red(`      blocked (${step.gate.state}): ${step.gate.reason}; this step will not be sent`));
      break;
    case 'review':
      if (step.gate.withdraws !== undefined) lines.push(style.red(`      withdraws first: ${step.gate.withdraws} (needs --allow-delete)`));
      lines.push(style.magenta(`      needs review: ${reviewText(step.gate)}`));
      break;
    case 'option':
      lines.push(step.gate.set === true ? style.yellow(`      ${optionText(step.gate)}`) : style.red(`      ${optionText(step.gate)}; this step will not be sent`));
      break;
    case 'destructive':
    case 'none':
      break;
    default: {
      const never: never = step.gate;
      throw new Error(`unknown gate ${JSON.stringify(never)}`);
    }
  }
  const upload = stepUpload(step);
  if (upload !== undefined) lines.push(style.green(`      ${uploadLine(upload)}`));
  if (showsChanges(step)) for (const c of step.changes) lines.push(renderChange(c, style));
  for (const u of usageSentences(step)) lines.push(style.yellow(`      ${u}`));
  return lines;
}

/** Whether a step's field changes are shown: not for a prune, whose changes are everything the object held. */
export function showsChanges(step: Step): boolean {
  return step.op !== 'delete' || step.declared === true;
}

/** What a step will do, in words: `will be created`, `menu will be replaced`. */
export function describe(step: Step): string {
  const words = wordsFor(step);
  if (words !== undefined) return words.plan;
  switch (step.op) {
    case 'upload':
      return 'will be uploaded';
    case 'create':
      return 'will be created';
    case 'update':
      return 'will be updated';
    case 'link':
      return 'will get its reply links (after the auto-replies it links to exist)';
    case 'delete':
      return 'will be deleted';
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

/** The marker of a step (blocked and review win over the operation) and its colour. */
export function markerOf(step: Step, style: Style): { marker: string; paint: (s: string) => string } {
  if (step.gate.type === 'blocked' || refusedByOption(step.gate)) return { marker: MARKERS.blocked, paint: style.red };
  if (step.gate.type === 'review') return { marker: MARKERS.review, paint: style.magenta };
  switch (changeOf(step)) {
    case 'create':
      return { marker: MARKERS.create, paint: style.green };
    case 'delete':
      return { marker: MARKERS.delete, paint: style.red };
    case 'update':
      return { marker: MARKERS.update, paint: style.yellow };
  }
}

/** A problem's message, after `file:line: ` when it points at a manifest line its message does not name already. */
export function problemText(p: { message: string; file?: string; line?: number; usedAt?: { file: string; line: number } }): string {
  // A shared base's line names the brand's too: where the brand uses the base.
  const used = p.usedAt !== undefined ? ` (in a shared base the brand uses at ${p.usedAt.file}:${p.usedAt.line})` : '';
  if (p.file === undefined || p.message.startsWith(`${p.file}:`)) return p.message + used;
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}${used}`;
}

/** True for a finding a person must act on (error or warning; info is worth knowing only). */
/**
 * What a plan with no step says, in every view. "No changes" never reads as all well while a live
 * resource needs a person (a finding of severity error or warning) or is live without any manifest
 * declaring it (the plan's unmanaged resources); both are listed below the line. A resource that is
 * both is counted once, as needing attention.
 */
export function noChangesLine(plan: Pick<BrandPlan, 'findings' | 'unmanaged'>): { text: string; clean: boolean } {
  const attention = new Set((plan.findings ?? []).filter(needsAttention).map((f) => f.address));
  const undeclared = plan.unmanaged.filter((u) => !attention.has(`${u.kind}.${u.id}`)).length;
  const why = [
    ...(attention.size > 0 ? [`${attention.size} live resource${attention.size === 1 ? ' needs' : 's need'} attention`] : []),
    ...(undeclared > 0 ? [`${undeclared} live resource${undeclared === 1 ? ' is' : 's are'} not declared in the manifests`] : []),
  ];
  if (why.length === 0) return { text: 'No changes. The live brand matches the manifests.', clean: true };
  return { text: `No changes to apply, but ${why.join(' and ')} (below).`, clean: false };
}

export function needsAttention(f: Finding): boolean {
  return f.severity === 'error' || f.severity === 'warning';
}

/** The live state findings, as drift reports them, each with what to do and where it is explained. */
export function renderFindings(findings: Finding[], style: Style): string[] {
  const lines = ['  Live state (as rcsctl drift reports it):'];
  for (const f of findings) {
    const paint = f.severity === 'error' ? style.red : f.severity === 'warning' ? style.yellow : style.cyan;
    lines.push(`    ${style.bold(f.address)} ${paint(`${f.severity} ${f.code}`)}: ${f.message}`);
    lines.push(`      what to do: ${f.action}`);
    lines.push(style.dim(`      see ${f.help}`));
  }
  return lines;
}

/** One field change, indented and coloured: `~ body.title: "Old" → "New"`. */
export function renderChange(c: FieldChange, style: Style): string {
  const paint = c.type === 'add' ? style.green : c.type === 'remove' ? style.red : style.yellow;
  return paint(`      ${formatChange(c)}`) + (changedOnBothSides(c) ? style.dim(`  ${BOTH_NOTE}`) : '');
}


function plural(n: number): string {
  return n === 1 ? '' : 's';
}

/** The note for deletes and creates that differ in the name only, with the `moved:` entries that would keep the ids. */
export function renameText(renames: NonNullable<BrandPlan['renames']>): string[] {
  const one = renames.length === 1;
  return [
    `  note: ${one ? 'a delete and a create look' : `${renames.length} deletes and creates look`} like a rename (the same content, another name).`,
    `  To keep the live id${one ? '' : 's'} (and postbacks, and links to ${one ? 'it' : 'them'}), declare ${one ? 'it' : 'them'} in the brand's manifest:`,
    '    moved:',
    ...renames.map((r) => `      - { from: ${r.from}, to: ${r.to} }  # ${JSON.stringify(r.fromName)} → ${JSON.stringify(r.toName)}`),
  ];
}
