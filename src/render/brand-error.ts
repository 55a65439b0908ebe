// A failed brand in every report format, shared by plan and drift: a text
// section, a Markdown details block, and a JUnit errored test case.

import type { BrandError } from '../plan/brand-error.js';
import { escapeHtml, fence, inline } from '../util/markdown.js';
import type { Style } from './style.js';
import { xmlAttr, xmlText } from '../util/xml.js';

const STAGE: Record<BrandError['stage'], string> = {
  manifest: 'its manifests have errors',
  read: 'its live state could not be read',
  plan: 'its plan has problems',
  apply: 'applying it failed',
  verify: 'it could not be verified after apply',
};

/** The headline of a report whose run stopped before any brand was checked (DriftReport.error). */
export const STOPPED_HEADLINE = 'stopped before any brand was checked: a manifest error belongs to no brand';

/** `the brand failed: its live state could not be read`. */
export function failedHeadline(e: BrandError): string {
  return `failed: ${STAGE[e.stage]}`;
}

/** The lines of a text section's body (indented two spaces). */
export function brandErrorText(e: BrandError, style: Style): string[] {
  const lines = [style.red(`  error[${e.code}] ${e.message}`)];
  if (e.excerpt !== undefined) lines.push(...e.excerpt.split('\n').map((l) => `  ${l}`));
  if (e.hint !== undefined) lines.push(`  hint: ${e.hint}`);
  return lines;
}

/** A collapsible Markdown block for the brand. */
export function brandErrorMarkdown(brandId: string, e: BrandError, headline = failedHeadline(e)): string[] {
  const lines = [`<details><summary>❌ <code>${escapeHtml(brandId)}</code> ${escapeHtml(headline)}</summary>`, ''];
  lines.push(`**${e.code}**: ${inline(e.message)}`);
  if (e.excerpt !== undefined) lines.push('', '```', fence(e.excerpt), '```');
  if (e.hint !== undefined) lines.push('', `What to do: ${inline(e.hint)}`);
  const facts = [e.httpStatus !== undefined ? `HTTP ${e.httpStatus}` : '', e.serviceCode !== undefined ? `service code ${e.serviceCode}` : ''].filter((x) => x !== '');
  if (facts.length > 0) lines.push('', '```', fence(facts.join(', ')), '```');
  lines.push('', '</details>');
  return lines;
}

/** A JUnit test case, errored, named `<stage>` in the brand's class. */
export function brandErrorJunit(brandId: string, e: BrandError, indent = '    ', headline = `the brand ${failedHeadline(e)}`): string[] {
  const body = [`${e.code}: ${e.message}`, ...(e.excerpt !== undefined ? [e.excerpt] : []), ...(e.hint !== undefined ? [`what to do: ${e.hint}`] : [])].join('\n');
  return [
    `${indent}<testcase classname="${xmlAttr(brandId)}" name="${xmlAttr(e.stage)}">`,
    `${indent}  <error message="${xmlAttr(headline)}" type="${xmlAttr(e.code)}">${xmlText(body)}</error>`,
    `${indent}</testcase>`,
  ];
}
