// One brand's page, `/brands/BRANDID`: where it stands (state, since when,
// owners, the last pass, its retry), why (the pending reasons), the pending
// plan drawn as the plan draws it (fields before and after), the state
// findings with their reasons (a rejected review's operator reason, how long
// a review has waited), the pass history with each applied step's fields
// before and after and the revision, and the preview of what it would send
// (the pending changes live against proposed, or the brand drawn whole).
// The plan and preview renderers are handed in (views.ts). Its one inline
// script fetches the page again every few seconds and swaps its content in
// (the preview's frame stays). Every value is escaped.

import type { BrandPlan } from '../plan/types.js';
import type { ChangeRecord, PassRecord, StepRecord, Trigger } from './history.js';
import { age, esc, PAGE_CSS, pagePolicy, plural, STATE_COLOURS } from './page-parts.js';
import { REFRESH_MS } from './status-page.js';
import type { BrandStatus } from './status.js';
import type { ControllerViews } from './views.js';
import { requestsText } from '../core/requests.js';

/** A pending step as /status/BRANDID lists it. */
interface PendingStep {
  address: string;
  name?: string;
  op: string;
  gate: { type: string; state?: string; reason?: string; review?: string };
  changes?: ChangeRecord[];
  changesOmitted?: number;
}

/** A finding as /status/BRANDID lists it. */
interface FindingView {
  code: string;
  severity: string;
  address: string;
  message: string;
  action?: string;
  state?: string;
  approvalReason?: string | null;
  since?: string;
  ageDays?: number;
}

/** What the page is drawn from: the brand's /status/BRANDID view, its last plan, and the renderers. */
export interface BrandPageInput {
  view: BrandStatus & { history: PassRecord[]; steps?: PendingStep[]; findings?: FindingView[] };
  plan?: BrandPlan;
  views?: ControllerViews;
  /** Whether the manifests declare the brand now (a preview of it can be drawn). */
  declared: boolean;
}

/** The page's script: fetch the page again and swap its `#content` in, keeping the preview frame and what is open. */
const SCRIPT = `(() => {
'use strict';
async function refresh() {
  try {
    const res = await fetch(location.pathname, { cache: 'no-store' });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const next = doc.getElementById('content');
    const here = document.getElementById('content');
    if (next !== null && here !== null) {
      const open = new Set([...here.querySelectorAll('details[open][id]')].map((d) => d.id));
      for (const d of next.querySelectorAll('details[id]')) if (open.has(d.id)) d.open = true;
      here.replaceWith(document.adoptNode(next));
    }
    document.getElementById('updated').textContent = 'Updated ' + new Date().toLocaleTimeString();
    document.getElementById('updated').className = '';
  } catch (err) {
    document.getElementById('updated').textContent = 'Could not refresh (' + err.message + '); trying again.';
    document.getElementById('updated').className = 'stale';
  }
  setTimeout(refresh, document.hidden ? ${REFRESH_MS * 6} : ${REFRESH_MS});
}
setTimeout(refresh, ${REFRESH_MS});
})();`;

/** The brand page's Content-Security-Policy: its script, fetches and frames of its own origin only. */
export const BRAND_PAGE_POLICY = pagePolicy(SCRIPT, { frames: true });

/** The brand's page. */
export function renderBrandPage(input: BrandPageInput, now: number = Date.now()): string {
  const { view } = input;
  const id = encodeURIComponent(view.brandId);
  const preview = input.views === undefined || !input.declared ? '<p class="muted">No preview: ' + (input.declared ? 'this controller was started without the preview renderers.' : 'the manifests do not declare this brand now.') + '</p>' : previewSection(id, input.plan);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(view.brandId)}: rcsctl controller</title>
<style>${PAGE_CSS}</style></head>
<body><p class="small"><a href="../">← every brand</a> · <a href="../status/${id}">JSON</a></p>
<div id="content">
${head(view, now)}
<h2 id="pending-h">Pending plan</h2>
${pendingSection(input)}
<h2 id="findings-h">Findings</h2>
${findingsSection(view.findings ?? [])}
<h2 id="history-h">History</h2>
${historySection(view.history, now)}
</div>
<h2 id="preview-h">Preview of what it would send</h2>
${preview}
<p class="small"><span id="updated">Drawn by the server; refreshes every ${REFRESH_MS / 1000} s.</span></p>
<script>${SCRIPT}</script>
</body></html>
`;
}

/** The brand's name, state and the facts beside it. */
function head(b: BrandStatus, now: number): string {
  const facts = [
    b.stateSince !== undefined ? `for ${age(b.stateSince, now)} (since ${esc(b.stateSince)})` : undefined,
    b.owners !== undefined ? `owners ${esc(b.owners.join(', '))}` : undefined,
    b.lastPassAt !== undefined ? `last pass ${age(b.lastPassAt, now)} ago${b.lastPassDurationMs !== undefined ? `, took ${b.lastPassDurationMs} ms` : ''}` : 'no pass yet',
    `${plural(b.passes, 'pass', 'passes')} since the controller started`,
    b.retry !== undefined ? `retry attempt ${b.retry.attempt}, next at ${esc(b.retry.nextAt)}` : undefined,
  ].filter((f) => f !== undefined);
  const reasons = b.pendingReasons.length === 0 ? '' : `<ul class="reasons" id="reasons">${b.pendingReasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`;
  const error = b.lastError !== undefined ? `<p>Last error: <code>${esc(b.lastError.code)}</code> ${esc(b.lastError.message)} <span class="muted">(${esc(b.lastError.at)})</span></p>` : '';
  return `<h1>${esc(b.brandId)} <span class="state" id="state" style="color:${STATE_COLOURS[b.state] ?? '#1f2328'}">${esc(b.state)}</span></h1>
<p class="muted">${facts.join(' · ')}</p>
${reasons}${error}`;
}

/** The last plan as the plan draws it; without the renderer, its steps and changes from /status. */
function pendingSection(input: BrandPageInput): string {
  const steps = input.view.steps ?? [];
  if (input.plan !== undefined && input.views !== undefined) return `<div id="plan">${input.views.plan(input.plan)}</div>`;
  if (steps.length === 0) return '<p id="plan" class="muted">Nothing to apply.</p>';
  const lines = steps.flatMap((s) => [`${s.address} ${s.op}${s.gate.type !== 'none' ? ` (${s.gate.type}${s.gate.state !== undefined ? `: ${s.gate.state}` : ''})` : ''}`, ...(s.changes ?? []).map((c) => `    ${changeLine(c)}`)]);
  return `<pre class="plan" id="plan">${lines.map(esc).join('\n')}</pre>`;
}

/** The findings, each with its reason: a rejection's operator reason, a review's age. */
function findingsSection(findings: FindingView[]): string {
  if (findings.length === 0) return '<p class="muted">No findings.</p>';
  const rows = findings.map((f) => {
    const reason = f.approvalReason !== undefined && f.approvalReason !== null && f.approvalReason !== '' ? `<br>Reason given: <q>${esc(f.approvalReason)}</q>` : '';
    const since = f.since !== undefined ? `<br><span class="muted">${esc(f.state ?? 'since')} since ${esc(f.since)}${f.ageDays !== undefined ? ` (${plural(f.ageDays, 'day')})` : ''}</span>` : '';
    return `<tr><td class="sev-${esc(f.severity)}">${esc(f.severity)}</td><td><code>${esc(f.address)}</code></td><td>${esc(f.message)}${reason}${since}</td><td>${esc(f.action ?? '')}</td><td><code>${esc(f.code)}</code></td></tr>`;
  });
  return `<table id="findings"><thead><tr><th>Severity</th><th>Resource</th><th>Finding</th><th>What to do</th><th>Code</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The history, newest first: one row a pass (or folded passes), the steps an apply ran below it. */
function historySection(history: PassRecord[], now: number): string {
  if (history.length === 0) return '<p class="muted">No pass yet (the history is kept in memory and starts again when the controller restarts).</p>';
  const rows = history.map((p, i) => {
    const when = `${esc(p.startedAt)} <span class="muted">(${age(p.startedAt, now)} ago)</span>${p.count !== undefined ? `<br><span class="muted">${p.count} passes alike, the last at ${esc(p.lastStartedAt ?? '')}</span>` : ''}`;
    const revision = p.revision !== undefined ? `<code title="${esc(p.revision.commit)}">${esc(p.revision.commit.slice(0, 12))}</code><br><span class="muted small">${esc(p.revision.source)}${p.revision.ref !== undefined ? ` ${esc(p.revision.ref)}` : ''}</span>` : '<span class="muted">—</span>';
    const steps = p.steps === undefined ? (p.planned > 0 ? `${plural(p.planned, 'step')} planned` : '') : stepsCell(p.steps, p.stepsOmitted, `pass-${history.length - i}`);
    const outcome = `<span class="state" style="color:${STATE_COLOURS[p.outcome] ?? '#1f2328'}">${esc(p.outcome)}</span>${p.error !== undefined ? `<br><span class="small">${esc(p.error.code)}: ${esc(p.error.message)}</span>` : ''}`;
    const cost = p.requests !== undefined ? `<br><span class="muted small">${esc(requestsText(p.requests))}</span>` : '';
    return `<tr><td>${when}</td><td>${p.durationMs} ms${cost}</td><td>${esc(p.mode)}</td><td>${p.triggers.map(triggerText).map(esc).join('<br>')}</td><td>${outcome}</td><td>${revision}</td><td>${steps}</td></tr>`;
  });
  return `<table id="history"><thead><tr><th>Started</th><th>Took</th><th>Mode</th><th>Why</th><th>Outcome</th><th>Revision</th><th>Steps</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** An apply's steps: a count, and each step's result and changed fields in a box that opens. */
function stepsCell(steps: StepRecord[], omitted: number | undefined, key: string): string {
  if (steps.length === 0) return '';
  const done = steps.filter((s) => s.result === 'done').length;
  const lines = steps.flatMap((s) => [`${s.address} ${s.op}: ${s.result}${s.message !== '' ? ` (${s.message})` : ''}`, ...s.changes.map((c) => `    ${changeLine(c)}`), ...(s.changesOmitted !== undefined ? [`    … ${plural(s.changesOmitted, 'more change')}`] : [])]);
  if (omitted !== undefined) lines.push(`… ${plural(omitted, 'more step')}`);
  return `<details id="${esc(key)}"><summary>${plural(steps.length, 'step')}, ${done} done</summary><pre>${lines.map(esc).join('\n')}</pre></details>`;
}

/** A field change as a line, as the plan writes one: `~ path: before → after`. */
function changeLine(c: ChangeRecord): string {
  const v = (x: unknown): string => JSON.stringify(x) ?? 'undefined';
  return c.type === 'add' ? `+ ${c.path}: ${v(c.after)}` : c.type === 'remove' ? `- ${c.path}: ${v(c.before)}` : `~ ${c.path}: ${v(c.before)} → ${v(c.after)}`;
}

/** Why a pass ran, in words. */
function triggerText(t: Trigger): string {
  switch (t.kind) {
    case 'notification':
      return `notification ${t.type}${t.method !== undefined ? ` ${t.method}` : ''}`;
    case 'resync':
      return 'resync';
    case 'retry':
      return 'retry after a failure';
    case 'manual':
      return 'sync asked for';
    case 'manifests':
      return 'manifests changed';
    case 'lock':
      return "the brand's lock came free";
    case 'window':
      return 'a sync window lifted';
    case 'resumed':
      return 'resumed';
    default: {
      const never: never = t;
      return String((never as { kind: string }).kind);
    }
  }
}

/** The preview: the pending changes, live against proposed, when the plan changes what is shown; else the brand drawn whole. */
function previewSection(id: string, plan: BrandPlan | undefined): string {
  const changes = plan !== undefined && plan.steps.length > 0;
  const src = changes ? `${id}/changes` : `${id}/preview`;
  const what = changes ? 'The pending changes, live on the left and what it would send on the right.' : 'What the brand sends, drawn from its manifests.';
  return `<p class="small">${what} Open <a href="${id}/changes">the pending changes</a> or <a href="${id}/preview">the brand</a> on their own.</p>
<iframe class="preview" id="preview" title="Preview of ${esc(decodeURIComponent(id))}" src="${esc(src)}"></iframe>`;
}
