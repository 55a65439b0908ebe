// A brand's plan as HTML, for the controller's page: the plan's own text view
// (renderPlan, the lines `rcsctl plan` prints, field changes before and
// after included), escaped, each line marked by what it says (a create, an
// update, a delete, a blocked or reviewed step) so a stylesheet can colour it.

import type { BrandPlan } from '../plan/types.js';
import { escapeHtml } from '../util/markdown.js';
import { MARKERS, renderPlan } from './plan-text.js';
import { makeStyle } from './style.js';

const plain = makeStyle(false);

/** The class a line of the text plan gets, by its first mark. */
const LINE_CLASS: [string, string][] = [
  [MARKERS.create, 'add'],
  [MARKERS.delete, 'del'],
  [MARKERS.update, 'chg'],
  [MARKERS.blocked, 'blk'],
  [MARKERS.review, 'rev'],
  [MARKERS.unmanaged, 'unm'],
];

/** `plan` as a `<pre class="plan">` of escaped lines, each in a `<span>` classed by its mark. */
export function renderPlanHtml(plan: BrandPlan): string {
  const lines = renderPlan(plan, plain).replace(/\n+$/, '').split('\n');
  const html = lines.map((line) => {
    const mark = line.trimStart().charAt(0);
    const cls = LINE_CLASS.find(([m]) => line.trimStart().startsWith(m))?.[1] ?? (/^\s*error\[/.test(line) ? 'err' : undefined);
    return cls === undefined || mark === '' ? escapeHtml(line) : `<span class="${cls}">${escapeHtml(line)}</span>`;
  });
  return `<pre class="plan">${html.join('\n')}</pre>`;
}
