// The brands nobody declares (BRAND_UNMANAGED), as each view shows them: the
// same lines after the brands in the text and Markdown views of plan and
// drift, and one failing test case each in JUnit.

import type { UnmanagedBrand } from '../plan/unmanaged-brands.js';
import { cell, escapeHtml } from '../util/markdown.js';
import { xmlAttr, xmlText } from '../util/xml.js';
import type { Style } from './style.js';

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

function label(b: UnmanagedBrand): string {
  return b.name !== null && b.name !== '' ? `${b.brandId} "${b.name}"` : b.brandId;
}

/** The heading line: `2 live brands no manifest declares (BRAND_UNMANAGED):`. */
function heading(n: number): string {
  return `${n} live brand${plural(n)} of the account no manifest declares (BRAND_UNMANAGED):`;
}

/** Text lines (none when the list is absent or empty). */
export function unmanagedBrandsText(brands: UnmanagedBrand[] | undefined, style: Style): string[] {
  if (brands === undefined || brands.length === 0) return [];
  const lines = [style.yellow(style.bold(heading(brands.length)))];
  for (const b of brands) {
    lines.push(`  ${style.yellow(`warning ${b.finding.code}`)} ${style.bold(label(b))}${b.declaredBefore ? ' (its folder was removed)' : ''}`);
    lines.push(`      ${b.finding.message}`, `      what to do: ${b.finding.action}`, style.dim(`      see ${b.finding.help}`));
  }
  return lines;
}

/** Markdown lines (none when the list is absent or empty). */
export function unmanagedBrandsMarkdown(brands: UnmanagedBrand[] | undefined): string[] {
  if (brands === undefined || brands.length === 0) return [];
  const lines = ['', `### ⚠️ ${escapeHtml(heading(brands.length))}`, '', '| Brand | Name | Folder removed | What stays live | What to do |', '|---|---|---|---|---|'];
  for (const b of brands) {
    lines.push(`| \`${b.brandId}\` | ${cell(b.name ?? '')} | ${b.declaredBefore ? 'yes' : '–'} | ${cell(b.finding.message)} | ${cell(b.finding.action)} [help](${b.finding.help}) |`);
  }
  return lines;
}

/** One JUnit suite, `unmanaged brands`, with a failing case per brand (nothing when the list is absent or empty). */
export function unmanagedBrandsJunit(brands: UnmanagedBrand[] | undefined, timestamp: string): string[] {
  if (brands === undefined || brands.length === 0) return [];
  const out = [`  <testsuite name="unmanaged brands" tests="${brands.length}" failures="${brands.length}" errors="0" skipped="0" timestamp="${timestamp}">`];
  for (const b of brands) {
    const f = b.finding;
    out.push(
      `    <testcase classname="unmanaged brands" name="${xmlAttr(f.address)}">`,
      `      <failure message="${xmlAttr(f.message)}" type="${xmlAttr(f.code)}">${xmlText(`${f.severity} ${f.code}: ${f.message}\nwhat to do: ${f.action}\nsee ${f.help}`)}</failure>`,
      '    </testcase>',
    );
  }
  out.push('  </testsuite>');
  return out;
}

/** The summary's clause: `; 2 live brands no manifest declares` (empty when none). */
export function unmanagedBrandsClause(brands: UnmanagedBrand[] | undefined): string {
  const n = brands?.length ?? 0;
  return n === 0 ? '' : ` ${n} live brand${plural(n)} no manifest declares.`;
}
