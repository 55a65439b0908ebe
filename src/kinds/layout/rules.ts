// A layout against what the service lists: its components (usable, in the
// area they are placed in, with the options they take), the rule of its
// message product (how many components, buttons and components of each
// group) and its samples. Found when planning, from lists read once per run
// (service.ts), and reported at the manifest line (docs/decisions.md, "Layouts").

import type { LayoutComponent, LayoutRule } from '../../contract/wire.js';
import type { PlanProblem } from '../../core/step.js';
import { didYouMean } from '../../manifest/suggest.js';
import { LAYOUT_AREAS, type DesiredLayout, type DesiredLayoutComponent, type LayoutArea } from './types.js';

/** Component statuses a layout may use (public, and the layout-only ones observed data shows). */
export const USABLE_STATUSES: readonly string[] = ['public', 'layout'];

/** What the service lists, as the layout checks read it; a list left undefined was not read and is not checked. */
export interface LayoutCatalogue {
  components?: readonly LayoutComponent[];
  rules?: readonly LayoutRule[];
  sampleIds?: readonly string[];
}

const AREA_FLAG: Record<LayoutArea, 'headerYn' | 'bodyYn' | 'footerYn'> = { headerComposition: 'headerYn', bodyComposition: 'bodyYn', footerComposition: 'footerYn' };
const AREA_WORD: Record<LayoutArea, string> = { headerComposition: 'header', bodyComposition: 'body', footerComposition: 'footer' };

/** A button component: its options are a ButtonOption (a colour). */
export function isButton(c: LayoutComponent | undefined): boolean {
  return c?.options !== null && c?.options !== undefined && 'color' in c.options;
}

/** Every problem of one layout against the service's lists. */
export function layoutProblems(d: DesiredLayout, cat: LayoutCatalogue): PlanProblem[] {
  const out: PlanProblem[] = [];
  const at = (code: string, path: (string | number)[], message: string): void => {
    const loc = d.locate(path);
    out.push({ code, address: `layout.${d.handle}`, message: `${loc.file}:${loc.line}:${loc.col}: ${message}`, file: loc.file, line: loc.line });
  };
  const rule = cat.rules?.find((r) => r.productCode === d.productCode);
  if (cat.rules !== undefined && rule === undefined) at('LAYOUT_PRODUCT', ['productCode'], `the service has no layout rule for product "${d.productCode}" (it has ${cat.rules.map((r) => r.productCode).join(', ') || 'none'})`);
  if (d.sampleLayoutId !== undefined && cat.sampleIds !== undefined && !cat.sampleIds.includes(d.sampleLayoutId)) {
    at('LAYOUT_SAMPLE', ['sampleLayoutId'], `the service has no sample layout "${d.sampleLayoutId}"${didYouMean(d.sampleLayoutId, cat.sampleIds)}`);
  }
  const components = cat.components;
  if (components === undefined) return out;
  const byId = new Map(components.map((c) => [c.componentId, c]));
  const usable = components.filter((c) => USABLE_STATUSES.includes(c.status)).map((c) => c.componentId);
  for (const area of LAYOUT_AREAS) {
    for (const [i, c] of d[area].entries()) {
      const known = byId.get(c.componentId);
      if (known === undefined) at('LAYOUT_COMPONENT', [area, i, 'componentId'], `the service lists no layout component "${c.componentId}"${didYouMean(c.componentId, usable)}`);
      else if (!USABLE_STATUSES.includes(known.status)) at('LAYOUT_COMPONENT', [area, i, 'componentId'], `layout component ${c.componentId} (${known.componentName}) is ${known.status}: a layout may use only ${USABLE_STATUSES.join(' and ')} components`);
      else if (known[AREA_FLAG[area]] !== 'Y') at('LAYOUT_COMPONENT', [area, i, 'componentId'], `layout component ${c.componentId} (${known.componentName}) cannot be used in the ${AREA_WORD[area]}; ${areasOf(known)}`);
      else optionProblems(c, known, (path, message) => at('LAYOUT_COMPONENT', [area, i, ...path], message));
    }
  }
  const groupOf = (c: DesiredLayoutComponent): string | null => byId.get(c.componentId)?.groupComponentId ?? null;
  const seen = new Map<string, string>();
  for (const [i, c] of d.bodyComposition.entries()) {
    const g = groupOf(c);
    if (g === null) continue;
    const other = seen.get(g);
    if (other !== undefined && other !== c.componentId) at('LAYOUT_RULE', ['bodyComposition', i, 'componentId'], `${c.componentId} and ${other} are of one component group (${g}): different components of a group may not be used together in the body`);
    else seen.set(g, c.componentId);
  }
  if (rule !== undefined) ruleProblems(d, rule, byId, groupOf, (message) => at('LAYOUT_RULE', ['bodyComposition'], message));
  return out;
}

/** The counts of the product's rule: components, buttons, components of each group. */
function ruleProblems(d: DesiredLayout, rule: LayoutRule, byId: ReadonlyMap<string, LayoutComponent>, groupOf: (c: DesiredLayoutComponent) => string | null, bad: (message: string) => void): void {
  const all = LAYOUT_AREAS.flatMap((a) => d[a]);
  const buttons = all.filter((c) => isButton(byId.get(c.componentId))).length;
  const others = all.length - buttons;
  const product = rule.productCode.toUpperCase();
  if (others > rule.componentCount) bad(`an ${product} layout takes at most ${rule.componentCount} components besides buttons, header and body together; this one has ${others}`);
  if (others < rule.componentMinCount) bad(`an ${product} layout takes at least ${rule.componentMinCount} components besides buttons; this one has ${others}`);
  if (buttons > rule.buttonCount) bad(`an ${product} layout takes at most ${rule.buttonCount} button${rule.buttonCount === 1 ? '' : 's'}; this one has ${buttons}`);
  for (const [group, limit] of Object.entries(rule.componentLimit)) {
    const n = all.filter((c) => groupOf(c) === group).length;
    if (n > limit) bad(`an ${product} layout takes at most ${limit} component${limit === 1 ? '' : 's'} of group ${group}; this one has ${n}`);
  }
}

/** Options given to a component that takes none, or an option it does not have. */
function optionProblems(c: DesiredLayoutComponent, known: LayoutComponent, bad: (path: (string | number)[], message: string) => void): void {
  if (c.options === undefined) return;
  if (known.options === null || known.options === undefined) {
    bad(['options'], `layout component ${c.componentId} (${known.componentName}) takes no options`);
    return;
  }
  const has = Object.keys(known.options);
  for (const k of Object.keys(c.options)) if (!has.includes(k)) bad(['options', k], `layout component ${c.componentId} (${known.componentName}) has no option ${k} (it has ${has.join(', ')})`);
}

function areasOf(c: LayoutComponent): string {
  const where = LAYOUT_AREAS.filter((a) => c[AREA_FLAG[a]] === 'Y').map((a) => AREA_WORD[a]);
  return where.length === 0 ? 'it is usable in no area' : `it is usable in the ${where.join(' and ')}`;
}
